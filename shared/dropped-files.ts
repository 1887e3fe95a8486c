/**
 * Files the user dropped or picked in the desktop app's window, uploaded from where they are on disk like files chosen
 * in the host's dialog. Only the preload can tell a File's path (Electron's `webUtils.getPathForFile`), and only for a
 * File the user gave the page: one a script made has none. So this is the preload's own channel, not one of the
 * Bridge: the page hands over Files, never paths, and a page that is not to be trusted cannot name a file of its own.
 */
import { Type, type Static } from 'typebox';
import type { IpcResult } from './ipc';
import type { ChosenFiles } from './uploads';

/** The IPC channel that carries the paths from the preload to the host. */
export const DROPPED_FILES_CHANNEL = 'files:dropped';

/** The most files one drop hands over at once. */
export const MAX_DROPPED_FILES = 100;

/** The paths of the dropped files, in order; an empty one is a File that is not on disk. */
export const DroppedFilePaths = Type.Array(Type.String({ maxLength: 4096 }), { minItems: 1, maxItems: MAX_DROPPED_FILES });
/** The paths of the dropped files. */
export type DroppedFilePaths = Static<typeof DroppedFilePaths>;

/** What the preload puts on `window.droppedFiles`: the host's choices for Files the user gave the page. */
export interface DroppedFilesBridge {
  /** Registers the files as chosen; fails (`invalid-request`) when one of them is not a readable file on disk. */
  choicesOf(files: readonly File[]): Promise<IpcResult<ChosenFiles>>;
}
