/**
 * Browser mode's port, chosen at random per installation at its first start and kept in `<userData>/web-port.json`:
 * the page's origin, and with it its IndexedDB, stays the same from start to start, and another user of the computer
 * cannot know in advance which port to take while the app is down (the file is in the user's 0700 folder). The range
 * lies below the ports Linux, macOS and Windows hand out for outgoing connections.
 */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { Type } from 'typebox';
import { readJsonFile, writeJsonFile } from './json-file';

/** The ports a new installation chooses from. */
export const WEB_PORT_RANGE = { first: 20_000, last: 32_767 } as const;

/** The file keeping the port in the user-data folder. */
export const WEB_PORT_FILE = 'web-port.json';

const WebPortDocument = Type.Object({ port: Type.Integer({ minimum: WEB_PORT_RANGE.first, maximum: WEB_PORT_RANGE.last }) });

/** How many other ports are tried when the kept one is taken by another program. */
const TRIES = 8;

function randomPort(): number {
  return randomInt(WEB_PORT_RANGE.first, WEB_PORT_RANGE.last + 1);
}

function isPortTaken(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * Starts `listen` on the installation's port: the kept one, or a random one at the first start. A kept port another
 * program holds is given up for a new random one, told in the log, since a page at that address would not be ours.
 * The port it listened on is kept.
 */
export async function listenOnInstallationPort<T>(
  userDataDir: string,
  listen: (port: number) => Promise<T>,
  log: (message: string) => void,
  choose: () => number = randomPort,
): Promise<T> {
  const file = path.join(userDataDir, WEB_PORT_FILE);
  const kept = await readJsonFile(file, WebPortDocument);
  if (kept.kind === 'invalid') log(`${kept.reason} A new port is chosen.`);
  let port = kept.kind === 'ok' ? kept.value.port : choose();
  for (let attempt = 0; ; attempt += 1) {
    try {
      const listening = await listen(port);
      if (kept.kind !== 'ok' || kept.value.port !== port) await writeJsonFile(file, { port });
      return listening;
    } catch (error) {
      if (!isPortTaken(error) || attempt === TRIES) throw error;
      const taken = port;
      port = choose();
      log(`Port ${taken} is taken by another program; browser mode moves to port ${port} and keeps it.`);
    }
  }
}
