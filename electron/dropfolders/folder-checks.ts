/** Whether a folder may be watched as a drop folder: it is there, and it is not one no drop folder may be. */
import { BridgeError } from '../../shared/ipc';
import { messageOf, type FolderServiceContext } from './folder-runtime';
import { checkFolder } from './mapping-store';
import { unsafeFolderReason } from '../folder-safety';

/** Why a folder is one no drop folder may be, or null. */
export function unsafeReason(context: FolderServiceContext, folder: string): Promise<string | null> {
  return unsafeFolderReason(folder, 'drop', {
    passportFolders: context.passportFolders(),
    platform: context.uploads.platform,
    home: context.homeFolder,
    appDataFolder: context.appDataFolder,
  });
}

/** Throws `invalid-request` when a folder may not be a drop folder. */
export async function refuseUnsafe(context: FolderServiceContext, folder: string): Promise<void> {
  const reason = await unsafeReason(context, folder);
  if (reason !== null) throw new BridgeError('invalid-request', reason);
}

/** Why a folder cannot be watched now (it is gone, or it is one no drop folder may be), or null. */
export async function problemOf(context: FolderServiceContext, folder: string): Promise<string | null> {
  try {
    await checkFolder(folder);
  } catch (error) {
    return messageOf(error);
  }
  return unsafeReason(context, folder);
}
