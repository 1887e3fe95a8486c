/** Drop folders and passport folders kept apart, for the handlers that add or move either. */
import { BridgeError } from '../../shared/ipc';
import { isWithinByRealPath } from '../folder-safety';

/**
 * Refuses a passport folder inside a drop folder, or the other way round: each passport would be uploaded again.
 * Compared by real path, so a link to either folder does not hide it. A folder the user gives is resolved by the caller.
 */
export async function refuseFolderOverlap(dropFolders: readonly string[], passportFolders: readonly string[]): Promise<void> {
  for (const watched of dropFolders) {
    for (const saved of passportFolders) {
      if (await isWithinByRealPath(watched, saved)) {
        throw new BridgeError('conflict', `The passport folder ${saved} lies in the drop folder ${watched}: every passport would be uploaded as a new file.`);
      }
    }
  }
}
