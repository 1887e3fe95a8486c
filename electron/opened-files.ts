/**
 * Files opened with the app (launch arguments, a second launch, macOS open-file): registered as chosen files and kept
 * until the window takes them (`app:take-opened-files`).
 */
import path from 'node:path';
import type { Notice } from '../shared/ipc';
import type { ChosenFiles } from '../shared/uploads';
import type { UploadService } from './uploads/service';

export interface OpenedFilesOptions {
  /** The upload service; throws `unavailable` when it could not start. */
  uploads(): UploadService;
  /** Says why a file cannot be uploaded. */
  onNotice(notice: Notice): void;
  /** Files were opened: `count` wait for the window now. */
  onOpened(count: number): void;
}

export class OpenedFiles {
  readonly #options: OpenedFilesOptions;
  #waiting: ChosenFiles = [];

  constructor(options: OpenedFilesOptions) {
    this.#options = options;
  }

  /** Registers the files as chosen files; they wait for the window, which hears how many there are. */
  async open(paths: readonly string[]): Promise<void> {
    const uploads = this.#options.uploads();
    const chosen: ChosenFiles = [];
    // One at a time: a file the server would not take (too large, a name it refuses) is said, and the rest go on.
    for (const filePath of paths) {
      try {
        chosen.push(...(await uploads.registerChoices([filePath])));
      } catch (error) {
        this.#options.onNotice({ kind: 'error', title: `${path.basename(filePath)} cannot be uploaded`, message: error instanceof Error ? error.message : String(error) });
      }
    }
    if (chosen.length === 0) return;
    this.#waiting = [...this.#waiting, ...chosen];
    this.#options.onOpened(this.#waiting.length);
  }

  /** The files waiting for the window, which it has now. */
  take(): ChosenFiles {
    const taken = this.#waiting;
    this.#waiting = [];
    return taken;
  }
}
