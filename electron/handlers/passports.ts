/**
 * The Bridge handlers of the `passports:*` channels: the passport folders (`electron/passports/`) listed, added,
 * changed and removed, passports requested and retried, the history, and a saved passport opened.
 */
import path from 'node:path';
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import type { ConnectionProfile } from '../connections';
import type { PassportService } from '../passports/passport-service';
import { refuseFolderOverlap } from './folder-overlap';
import { openOnDisk, type OpenPathFunction } from './open-on-disk';

/** The channels these handlers answer. */
export type PassportChannel = Extract<IpcChannel, `passports:${string}`>;

/** What the handlers need of the host. */
export interface PassportHandlerContext {
  /** The passport service; throws `unavailable` when it could not start. */
  passports(): PassportService;
  /** A connection's profile; throws `not-found` for one that does not exist. */
  requireProfile(connectionId: string): ConnectionProfile;
  /** The drop folders, which may hold no passport folder. */
  dropFolders(): string[];
  openPath: OpenPathFunction;
}

/** The handlers of the passport channels. */
export function passportHandlers(context: PassportHandlerContext): Pick<BridgeHandlers, PassportChannel> {
  const { passports } = context;
  return {
    'passports:targets': async () => passports().targets(),
    'passports:add-target': async (draft) => {
      context.requireProfile(draft.connectionId);
      await refuseFolderOverlap(context.dropFolders(), [path.resolve(draft.folder)]);
      return passports().addTarget(draft);
    },
    'passports:update-target': async ({ targetId, ...changes }) => {
      if (changes.folder !== undefined) await refuseFolderOverlap(context.dropFolders(), [path.resolve(changes.folder)]);
      return passports().updateTarget(targetId, changes);
    },
    'passports:remove-target': async ({ targetId }) => {
      await passports().removeTarget(targetId);
      return null;
    },
    'passports:request': ({ targetId, ...requestOptions }) => passports().request(targetId, requestOptions),
    'passports:history': async ({ targetId }) => passports().history(targetId),
    'passports:retry': ({ entryId }) => passports().retry(entryId),
    'passports:open-file': async ({ entryId }) => {
      const entry = passports().history().find((each) => each.id === entryId);
      if (entry === undefined) throw new BridgeError('not-found', 'This passport is no longer in the history.');
      if (entry.state !== 'downloaded' || entry.filePath === null) throw new BridgeError('conflict', 'This passport has not been saved yet.');
      await openOnDisk(context.openPath, entry.filePath, `The passport file ${entry.filePath} was moved or deleted.`);
      return null;
    },
  } satisfies Pick<BridgeHandlers, PassportChannel>;
}
