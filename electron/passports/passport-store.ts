/**
 * The passport service's document, `<stateDir>/passports.json`: read once at start (a document that is not valid is
 * moved aside and the service starts empty), and written whole and atomically after every change. Writes never
 * overlap; changes made while one runs are written by the next.
 */
import path from 'node:path';
import { assertNever } from '../../shared/api/enums';
import { readJsonFile, setAsideInvalidFile, writeJsonFile } from '../json-file';
import { PassportDocument } from './passport-model';

/** The file name of the document in the state folder. */
export const PASSPORT_DOCUMENT_FILE = 'passports.json';

/** What opening found. */
export interface OpenedPassportDocument {
  document: PassportDocument;
  /** Where an unreadable document was moved, when one was. */
  setAside: string | undefined;
}

/** Reads the document, or starts an empty one. */
export async function openPassportDocument(stateDir: string): Promise<OpenedPassportDocument> {
  const file = path.join(stateDir, PASSPORT_DOCUMENT_FILE);
  const read = await readJsonFile(file, PassportDocument);
  switch (read.kind) {
    case 'ok':
      return { document: read.value, setAside: undefined };
    case 'missing':
      return { document: emptyDocument(), setAside: undefined };
    case 'invalid':
      return { document: emptyDocument(), setAside: await setAsideInvalidFile(file) };
    default:
      return assertNever(read, 'read outcome');
  }
}

function emptyDocument(): PassportDocument {
  return { version: 1, targets: [], entries: [], downloaded: [] };
}

/** Writes a document that lives in memory and changes in place; `save()` resolves once a write after the call is done. */
export class PassportDocumentWriter {
  readonly #file: string;
  readonly #current: () => PassportDocument;
  #writing: Promise<void> | undefined;
  #dirty = false;

  constructor(stateDir: string, current: () => PassportDocument) {
    this.#file = path.join(stateDir, PASSPORT_DOCUMENT_FILE);
    this.#current = current;
  }

  /** Writes the document as it is now (or later); rejects when the write fails. */
  save(): Promise<void> {
    this.#dirty = true;
    this.#writing ??= this.#drain();
    return this.#writing;
  }

  /** Resolves when no write is running; a failed write is not reported here. */
  async idle(): Promise<void> {
    await this.#writing?.catch(() => undefined);
  }

  // The last check of #dirty and the reset of #writing run without an await between them, so a save() made in
  // between cannot be lost.
  async #drain(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        await writeJsonFile(this.#file, this.#current());
      }
    } finally {
      this.#writing = undefined;
    }
  }
}
