/**
 * The files an upload starts from that the host reads from disk itself: those its file dialog chose (Electron's; browser
 * mode picks files in the page), and a File of the page that is on disk, which the preload makes such a choice.
 */
import type { DroppedFilesBridge } from '../../shared/dropped-files';
import type { Bridge } from '../../shared/ipc';
import type { ChosenFiles } from '../../shared/uploads';

/** One file the host's dialog handed out. */
export type ChosenFile = ChosenFiles[number];

/** What the host's file dialog gave: files (none when cancelled), no dialog at all (browser mode), or a failure. */
export type ChooseOutcome = { kind: 'chosen'; files: ChosenFile[] } | { kind: 'unavailable' } | { kind: 'failed'; message: string };

/** Which files the dialog offers. */
export type ChooseKinds = 'source' | 'information' | 'any';

/** Asks the host's dialog for files; in browser mode it answers `unavailable`, and the page's file input picks them. */
export async function chooseFiles(bridge: Bridge, kinds: ChooseKinds, multiple: boolean, title: string): Promise<ChooseOutcome> {
  const result = await bridge.dialog.chooseFiles({ kinds, multiple, title });
  if (result.ok) return { kind: 'chosen', files: result.value };
  return result.error.code === 'unavailable' ? { kind: 'unavailable' } : { kind: 'failed', message: result.error.message };
}

/**
 * The host's choice for a File that is on disk, in Electron: the host then reads it itself. Undefined in a browser
 * (no `droppedFiles`), and for a File that is not on disk (dragged from another app) or that the host refused: its
 * bytes go to a spool.
 */
export async function choiceOnDisk(droppedFiles: DroppedFilesBridge | undefined, file: File): Promise<ChosenFile | undefined> {
  if (droppedFiles === undefined) return undefined;
  try {
    const answer = await droppedFiles.choicesOf([file]);
    return answer.ok ? answer.value[0] : undefined;
  } catch {
    return undefined;
  }
}
