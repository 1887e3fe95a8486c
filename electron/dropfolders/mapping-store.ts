/**
 * The drop folder mappings of a state folder, in `drop-folders.json`, written atomically. The rules a mapping must
 * keep: an existing folder, and no folder that lies in another mapped one (its files would be uploaded twice).
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { DropFolderDraft, DropFolderMapping, SOURCE_FILE_TYPES } from '../../shared/dropfolders';
import { BridgeError } from '../../shared/ipc';
import { readJsonFile, setAsideInvalidFile, writeJsonFile } from '../json-file';

/** The mappings as stored in `drop-folders.json`. */
export const DropFolderDocument = Type.Object(
  { version: Type.Literal(1), mappings: Type.Array(DropFolderMapping) },
  { additionalProperties: false },
);
/** The mappings as stored. */
export type DropFolderDocument = Static<typeof DropFolderDocument>;

/** The file name of the mappings in their state folder. */
export const MAPPINGS_FILE_NAME = 'drop-folders.json';

/** Whether `inner` is `outer` or lies inside it. */
export function isWithin(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** A new mapping from a draft: an absolute folder, a fresh id, defaults for what the draft leaves out. */
export function mappingOf(draft: DropFolderDraft, id: string = randomUUID()): DropFolderMapping {
  if (!Value.Check(DropFolderDraft, draft)) {
    const [first] = Value.Errors(DropFolderDraft, draft);
    throw new BridgeError('invalid-request', `The drop folder is not valid: ${first?.instancePath ?? ''} ${first?.message ?? ''}.`);
  }
  return {
    id,
    folder: path.resolve(draft.folder),
    target: draft.target,
    connectionId: draft.connectionId,
    activate: draft.activate ?? false,
    fileTypes: draft.fileTypes ?? [...SOURCE_FILE_TYPES],
    informationFiles: draft.informationFiles ?? false,
    polling: draft.polling ?? false,
    paused: false,
  };
}

/** Throws `invalid-request` unless `folder` is an existing folder. */
export async function checkFolder(folder: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(folder)).isDirectory();
  } catch (error) {
    throw new BridgeError('invalid-request', `The folder ${folder} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (!isDirectory) throw new BridgeError('invalid-request', `${folder} is not a folder.`);
}

/** The stored mappings. Changes are saved one after another, each as a whole document. */
export class MappingStore {
  readonly #file: string;
  #mappings: DropFolderMapping[];
  #saving: Promise<void> = Promise.resolve();

  private constructor(file: string, mappings: DropFolderMapping[]) {
    this.#file = file;
    this.#mappings = mappings;
  }

  /** Reads the mappings of `stateDir`; an unreadable document is set aside (its new name is `setAside`) and the list starts empty. */
  static async open(stateDir: string): Promise<{ store: MappingStore; setAside?: string }> {
    const file = path.join(stateDir, MAPPINGS_FILE_NAME);
    const read = await readJsonFile(file, DropFolderDocument);
    switch (read.kind) {
      case 'ok':
        return { store: new MappingStore(file, read.value.mappings) };
      case 'missing':
        return { store: new MappingStore(file, []) };
      case 'invalid':
        return { store: new MappingStore(file, []), setAside: await setAsideInvalidFile(file) };
    }
  }

  /** All mappings, in the order they were added. */
  list(): DropFolderMapping[] {
    return [...this.#mappings];
  }

  /** A mapping, or undefined. */
  get(id: string): DropFolderMapping | undefined {
    return this.#mappings.find((mapping) => mapping.id === id);
  }

  /** Adds a mapping; `conflict` when its folder is, holds or lies in a mapped folder. */
  async add(mapping: DropFolderMapping): Promise<void> {
    await this.#change((current) => {
      const overlapping = current.find((other) => isWithin(other.folder, mapping.folder) || isWithin(mapping.folder, other.folder));
      if (overlapping !== undefined) {
        throw new BridgeError('conflict', `${mapping.folder} overlaps the drop folder ${overlapping.folder}: a file would be uploaded twice.`);
      }
      return [...current, mapping];
    });
  }

  /** Replaces a mapping by its id. */
  async replace(mapping: DropFolderMapping): Promise<void> {
    await this.#change((current) => current.map((each) => (each.id === mapping.id ? mapping : each)));
  }

  /** Removes a mapping. */
  async remove(id: string): Promise<void> {
    await this.#change((current) => current.filter((mapping) => mapping.id !== id));
  }

  /** Waits for the last save. */
  async flush(): Promise<void> {
    await this.#saving;
  }

  /** Applies a change to the list as it is once the saves before it are done, so concurrent changes never undo each other. */
  async #change(next: (current: DropFolderMapping[]) => DropFolderMapping[]): Promise<void> {
    const run = this.#saving.then(async () => {
      const mappings = next(this.#mappings);
      try {
        await writeJsonFile(this.#file, { version: 1, mappings } satisfies DropFolderDocument);
      } catch (error) {
        throw new BridgeError('storage-failed', `The drop folders could not be saved (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
      }
      this.#mappings = mappings;
    });
    this.#saving = run.catch(() => undefined);
    await run;
  }
}
