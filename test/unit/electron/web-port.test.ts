import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenOnInstallationPort, WEB_PORT_FILE, WEB_PORT_RANGE } from '../../../electron/web-port';

let userDataDir: string;
const servers: Server[] = [];
beforeEach(async () => {
  userDataDir = await mkdtemp(path.join(tmpdir(), 'cd-web-port-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  await rm(userDataDir, { recursive: true, force: true });
});

/** Listens on 127.0.0.1 at `port` as the browser host does, answering the port it got. */
function listen(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(port);
    });
  });
}

async function keptPort(): Promise<number> {
  return (JSON.parse(await readFile(path.join(userDataDir, WEB_PORT_FILE), 'utf8')) as { port: number }).port;
}

/** Ports in the range in turn, starting from one unlikely to be in use. */
function portsFrom(first: number): () => number {
  let next = first;
  return () => next++;
}

describe('browser mode’s port', () => {
  it('is chosen at random within the range at the first start and kept for the next', async () => {
    const logged: string[] = [];
    const first = await listenOnInstallationPort(userDataDir, listen, (message) => logged.push(message));
    expect(first).toBeGreaterThanOrEqual(WEB_PORT_RANGE.first);
    expect(first).toBeLessThanOrEqual(WEB_PORT_RANGE.last);
    expect(await keptPort()).toBe(first);
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));

    const again = await listenOnInstallationPort(userDataDir, listen, (message) => logged.push(message), () => {
      throw new Error('no new port is chosen while the kept one is free');
    });
    expect(again).toBe(first);
    expect(logged).toEqual([]);
  });

  it('moves to another port, and keeps it, when another program holds the kept one', async () => {
    const next = portsFrom(WEB_PORT_RANGE.first + 1_234);
    const taken = await listen(next());
    await writeFile(path.join(userDataDir, WEB_PORT_FILE), JSON.stringify({ port: taken }));
    const logged: string[] = [];
    const moved = await listenOnInstallationPort(userDataDir, listen, (message) => logged.push(message), next);
    expect(moved).not.toBe(taken);
    expect(await keptPort()).toBe(moved);
    expect(logged).toEqual([`Port ${taken} is taken by another program; browser mode moves to port ${moved} and keeps it.`]);
  });

  it('chooses anew over a file that does not hold a port of the range, and says so', async () => {
    await writeFile(path.join(userDataDir, WEB_PORT_FILE), JSON.stringify({ port: 80 }));
    const logged: string[] = [];
    const port = await listenOnInstallationPort(userDataDir, listen, (message) => logged.push(message), portsFrom(WEB_PORT_RANGE.first + 2_345));
    expect(port).toBe(WEB_PORT_RANGE.first + 2_345);
    expect(await keptPort()).toBe(port);
    expect(logged).toEqual([expect.stringContaining('A new port is chosen.')]);
  });
});
