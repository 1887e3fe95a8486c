/**
 * The Bridge handler of `dialog:choose-folder`, the host's folder dialog for drop and passport folders. The file dialog,
 * `dialog:choose-files`, belongs to the uploads (`uploads.ts`).
 */
import { BridgeError } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';

/** The channels these handlers answer. */
export type FolderDialogChannel = 'dialog:choose-folder';

/** Asks the user for a folder (Electron: the native dialog); null when cancelled. */
export type ChooseFolderFunction = (title: string | undefined) => Promise<string | null>;

/** The handler of the folder dialog; browser mode has none (`chooseFolder` undefined) and the screen asks for a path. */
export function folderDialogHandlers(chooseFolder: ChooseFolderFunction | undefined): Pick<BridgeHandlers, FolderDialogChannel> {
  return {
    'dialog:choose-folder': async ({ title }) => {
      if (chooseFolder === undefined) {
        throw new BridgeError('unavailable', 'There is no folder dialog in the browser; type the folder’s full path instead.');
      }
      return chooseFolder(title);
    },
  } satisfies Pick<BridgeHandlers, FolderDialogChannel>;
}
