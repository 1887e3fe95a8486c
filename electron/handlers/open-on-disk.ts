/** Opening a folder or file of this machine with the system's own application, for the drop and passport handlers. */
import { stat } from 'node:fs/promises';
import { BridgeError } from '../../shared/ipc';

/** Opens a folder or file (Electron: `shell.openPath`; browser mode: the OS opener). */
export type OpenPathFunction = (target: string) => Promise<void>;

/** Opens something on this machine's disk that must still be there; says so plainly (`missing`) when it is not. */
export async function openOnDisk(openPath: OpenPathFunction, target: string, missing: string): Promise<void> {
  try {
    await stat(target);
  } catch {
    throw new BridgeError('not-found', missing);
  }
  await openPath(target);
}
