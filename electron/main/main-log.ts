/** The main process's log: every line to stderr and, once `openLog` found the logs folder, to `main.log` in it. */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files';

let logFile: string | undefined;

export function log(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  const line = `${new Date().toISOString()} ${message}${detail}\n`;
  console.error(line.trimEnd());
  if (logFile !== undefined) appendFile(logFile, line, { mode: PRIVATE_FILE_MODE }).catch(() => undefined);
}

/** Opens `main.log` in the logs folder, keeping the previous one as `main.old.log` once it grows past 5 MB. */
export async function openLog(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const file = path.join(folder, 'main.log');
  const size = await stat(file).then((info) => info.size, () => 0);
  if (size > 5 * 1024 * 1024) await rename(file, path.join(folder, 'main.old.log'));
  logFile = file;
}
