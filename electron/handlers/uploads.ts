/**
 * The Bridge handlers of a building's and a portfolio's files: the host's file dialog, the spools the page fills, the
 * uploads themselves (`electron/uploads/`), and downloads saved through the host's save dialog. The dialogs exist only
 * in Electron; in browser mode their channels answer `unavailable` and the page uses a file input and the signed
 * download address instead.
 */
import { BridgeError } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import type { ConnectionProfile } from '../connections';
import type { QueuedClient } from '../http/queued-client';
import { fileDialogFilters, type FileDialogRequest } from '../uploads/choices';
import { downloadBuildingFile } from '../uploads/file-download';
import type { UploadService } from '../uploads/service';

/** Asks the user for files to upload (Electron: the native open dialog); answers their paths, none when cancelled. */
export type ChooseFilesFunction = (request: FileDialogRequest) => Promise<string[]>;

/** Asks the user where to save a download, offering `fileName` (Electron: the native save dialog); null when cancelled. */
export type ChooseSaveTargetFunction = (fileName: string) => Promise<string | null>;

/** The channels these handlers answer. */
export type UploadChannel =
  | 'dialog:choose-files'
  | 'uploads:open-spool'
  | 'uploads:write-spool'
  | 'uploads:start'
  | 'uploads:list'
  | 'uploads:cancel'
  | 'uploads:retry'
  | 'uploads:forget'
  | 'files:download';

/** What the handlers need of the host. */
export interface UploadHandlerContext {
  /** The upload service; throws `unavailable` when it could not start. */
  uploads(): UploadService;
  /** A connection's profile; throws `not-found` for one that does not exist. */
  requireProfile(connectionId: string): ConnectionProfile;
  clientOf(profile: ConnectionProfile): QueuedClient;
  /** Absent in browser mode. */
  chooseFiles: ChooseFilesFunction | undefined;
  /** Absent in browser mode. */
  chooseSaveTarget: ChooseSaveTargetFunction | undefined;
}

/** The handlers of the file channels. */
export function uploadHandlers(context: UploadHandlerContext): Pick<BridgeHandlers, UploadChannel> {
  return {
    'dialog:choose-files': async ({ title, kinds, multiple }) => {
      if (context.chooseFiles === undefined) {
        throw new BridgeError('unavailable', 'There is no file dialog in the browser; pick or drop the file in the page instead.');
      }
      const paths = await context.chooseFiles({ title: title ?? (multiple ? 'Choose files' : 'Choose a file'), filters: fileDialogFilters(kinds), multiple });
      return context.uploads().registerChoices(paths);
    },
    'uploads:open-spool': async ({ fileName, size }) => ({ spoolId: await context.uploads().openSpool(fileName, size) }),
    'uploads:write-spool': async ({ spoolId, offset, data }) => ({ written: await context.uploads().writeSpool(spoolId, offset, data) }),
    'uploads:start': async (request) => {
      context.requireProfile(request.connectionId);
      return context.uploads().start(request);
    },
    'uploads:list': async ({ connectionId }) => context.uploads().list(connectionId),
    'uploads:cancel': ({ uploadId }) => context.uploads().cancel(uploadId),
    'uploads:retry': ({ uploadId }) => context.uploads().retry(uploadId),
    'uploads:forget': async ({ uploadId }) => {
      await context.uploads().forget(uploadId);
      return null;
    },
    'files:download': async ({ connectionId, buildingId, fileId, fileName }) => {
      if (context.chooseSaveTarget === undefined) {
        throw new BridgeError('unavailable', 'There is no save dialog in the browser; the page downloads the file itself.');
      }
      const profile = context.requireProfile(connectionId);
      const target = await context.chooseSaveTarget(fileName);
      if (target === null) return null;
      return downloadBuildingFile(context.clientOf(profile), profile.baseUrl, { buildingId, fileId }, target);
    },
  } satisfies Pick<BridgeHandlers, UploadChannel>;
}
