/**
 * What the desktop app and the embedded server of its Local workspace say to each other over the channel of the
 * process that runs the server (a Node child process in browser mode, an Electron utilityProcess in the app).
 */
import { isRecord } from './is-record';

/** Server → app: it listens at `url`, or it could not start. */
export type EmbeddedServerMessage = { type: 'listening'; url: string } | { type: 'failed'; message: string };

/** App → server: finish open requests and jobs, close the database, exit. Works where signals do not (Windows). */
export type EmbeddedServerCommand = { type: 'shutdown' };

/** Environment variable naming the folder of the fonts passports are set in (installers ship them; Windows and macOS lack DejaVu). */
export const PASSPORT_FONT_DIR_ENV = 'CIRCULARITY_PASSPORT_FONT_DIR';

/** The name of the Local workspace's account, as its server answers GET /accounts/current. */
export const LOCAL_WORKSPACE_ACCOUNT_NAME = 'Local workspace';

/** Environment variable carrying the Local workspace's key, so it never appears in a process list. */
export const BOOTSTRAP_KEY_ENV = 'CIRCULARITY_BOOTSTRAP_KEY';

/** Reads a server message; anything else is ignored by the caller. */
export function embeddedServerMessageOf(value: unknown): EmbeddedServerMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value['type'] === 'listening' && typeof value['url'] === 'string') return { type: 'listening', url: value['url'] };
  if (value['type'] === 'failed' && typeof value['message'] === 'string') return { type: 'failed', message: value['message'] };
  return undefined;
}

/** Whether a message from the app asks the server to shut down. */
export function isShutdownCommand(value: unknown): value is EmbeddedServerCommand {
  return isRecord(value) && value['type'] === 'shutdown';
}
