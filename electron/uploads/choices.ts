/**
 * Files the user chose in the host's own open dialog (`dialog:choose-files`). The page gets an id per file, never its
 * path; an upload names its file by that id, so the only files the host ever reads for an upload are ones the user
 * picked in the dialog during this session — a compromised page cannot point the host at any other file.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError } from '../../shared/ipc';
import { MAX_UPLOAD_BYTES, tooLargeToUpload, type ChosenFiles } from '../../shared/uploads';

/** What the open dialog offers (`ChooseFilesRequest.kinds`). */
export type ChoiceKind = 'source' | 'information' | 'any';

/** A named group of file extensions in the dialog (the shape of Electron's `FileFilter`). */
export interface FileDialogFilter {
  name: string;
  /** Without the dot; `*` for every file. */
  extensions: string[];
}

/** What the host's open dialog is asked to show. */
export interface FileDialogRequest {
  title: string;
  filters: FileDialogFilter[];
  multiple: boolean;
}

const SOURCE_FILTER: FileDialogFilter = { name: 'Models and spreadsheets', extensions: ['ifc', 'xlsx', 'csv'] };
const INFORMATION_FILTER: FileDialogFilter = {
  name: 'Documents and images',
  extensions: ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'tif', 'tiff', 'bmp', 'svg'],
};

/** The dialog's filters for a kind: source files, information files, or both and then anything. */
export function fileDialogFilters(kind: ChoiceKind): FileDialogFilter[] {
  switch (kind) {
    case 'source':
      return [SOURCE_FILTER];
    case 'information':
      return [INFORMATION_FILTER];
    case 'any':
      return [SOURCE_FILTER, INFORMATION_FILTER, { name: 'All files', extensions: ['*'] }];
  }
}

/** A file the user chose: where it is and what it was when chosen. */
export interface Choice {
  path: string;
  fileName: string;
  size: number;
}

/** The files chosen in this session, by the id the page knows them by. */
export class ChoiceRegistry {
  readonly #choices = new Map<string, Choice>();

  /** Remembers the paths the dialog answered; refuses a path that is not a file or is larger than the server takes. */
  async register(paths: readonly string[]): Promise<ChosenFiles> {
    const chosen: Choice[] = [];
    for (const filePath of paths) {
      const fileName = path.basename(filePath);
      const info = await stat(filePath).catch(() => undefined);
      if (info === undefined || !info.isFile()) throw new BridgeError('invalid-request', `${fileName} is not a file that can be read.`);
      if (fileName.length > 255 || fileName.includes('\\')) {
        throw new BridgeError('invalid-request', `The server takes no file named ${fileName}: rename it (no backslash, at most 255 characters).`);
      }
      if (info.size > MAX_UPLOAD_BYTES) {
        throw new BridgeError('invalid-request', tooLargeToUpload(fileName));
      }
      chosen.push({ path: filePath, fileName, size: info.size });
    }
    return chosen.map((choice) => {
      const choiceId = randomUUID();
      this.#choices.set(choiceId, choice);
      return { choiceId, fileName: choice.fileName, size: choice.size };
    });
  }

  /** The chosen file of an id; refuses an id this session did not hand out. */
  get(choiceId: string): Choice {
    const choice = this.#choices.get(choiceId);
    if (choice === undefined) throw new BridgeError('not-found', 'This file was not chosen in the app’s file dialog (or the app restarted since); choose it again.');
    return choice;
  }
}
