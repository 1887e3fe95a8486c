/**
 * The Bridge handlers of the `dropfolders:*` channels: the drop folders (`electron/dropfolders/`) listed, added,
 * changed, paused, resumed and removed, their files, a failed file tried again, a rescan, and a folder opened.
 */
import path from 'node:path';
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import type { ConnectionProfile } from '../connections';
import type { DropFolderService } from '../dropfolders/service';
import { refuseFolderOverlap } from './folder-overlap';
import { openOnDisk, type OpenPathFunction } from './open-on-disk';

/** The channels these handlers answer. */
export type DropFolderChannel = Extract<IpcChannel, `dropfolders:${string}`>;

/** What the handlers need of the host. */
export interface DropFolderHandlerContext {
  /** The drop folder service; throws `unavailable` when it could not start. */
  dropFolders(): DropFolderService;
  /** A connection's profile; throws `not-found` for one that does not exist. */
  requireProfile(connectionId: string): ConnectionProfile;
  /** The folders passports are saved into, which no drop folder may hold. */
  passportFolders(): string[];
  openPath: OpenPathFunction;
}

/** The handlers of the drop folder channels. */
export function dropFolderHandlers(context: DropFolderHandlerContext): Pick<BridgeHandlers, DropFolderChannel> {
  const { dropFolders } = context;
  return {
    'dropfolders:list': async () => dropFolders().list(),
    'dropfolders:add': async (draft) => {
      context.requireProfile(draft.connectionId);
      await refuseFolderOverlap([path.resolve(draft.folder)], context.passportFolders());
      return dropFolders().add(draft);
    },
    'dropfolders:update': async ({ mappingId, ...changes }) => dropFolders().update(mappingId, changes),
    'dropfolders:remove': async ({ mappingId }) => {
      await dropFolders().remove(mappingId);
      return null;
    },
    'dropfolders:pause': async ({ mappingId }) => dropFolders().pause(mappingId),
    'dropfolders:resume': async ({ mappingId }) => dropFolders().resume(mappingId),
    'dropfolders:files': async ({ mappingId }) => dropFolders().files(mappingId),
    'dropfolders:retry': async ({ mappingId, path: relativePath }) => {
      await dropFolders().retry(mappingId, relativePath);
      return null;
    },
    'dropfolders:rescan': async ({ mappingId }) => {
      await dropFolders().rescan(mappingId);
      return null;
    },
    'dropfolders:open-folder': async ({ mappingId }) => {
      const mapping = dropFolders().list().find((each) => each.id === mappingId);
      if (mapping === undefined) throw new BridgeError('not-found', 'This drop folder no longer exists.');
      await openOnDisk(context.openPath, mapping.folder, `The folder ${mapping.folder} cannot be found now (a network drive that is away?).`);
      return null;
    },
  } satisfies Pick<BridgeHandlers, DropFolderChannel>;
}
