/**
 * The upload ledger: every upload the user started and has not forgotten, with what the host needs to carry it on
 * after a restart (where its bytes are, whether it created its remote file, the key of that create). One JSON document,
 * `<userData>/uploads/uploads.json`, written atomically after every change of state; progress is not written, a resumed
 * upload starts its bytes over anyway. The document carries a version: an older one is taken forward step by step, and
 * one that cannot be read (not JSON, not valid, or from a newer app) is set aside, so the host always starts.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { isRecord } from '../../shared/is-record';
import { UploadEntry } from '../../shared/uploads';
import { readTextIfPresent, setAsideInvalidFile, writeJsonFile } from '../json-file';

/** The version of the document this app writes. */
export const LEDGER_VERSION = 1;

/** Where an upload's bytes are, as only the host knows it: the path the user chose, or the spool the page filled. */
export const StoredSource = Type.Union([
  Type.Object({ kind: Type.Literal('chosen'), path: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('spool'), spoolId: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
]);
/** Where an upload's bytes are. */
export type StoredSource = Static<typeof StoredSource>;

/** One upload in the ledger: what the screens see, and what only the host needs. */
export const UploadRecord = Type.Object(
  {
    entry: UploadEntry,
    source: StoredSource,
    /** Whether this upload created `entry.remoteFileId` itself (a cancel deletes such a file while it has no content). */
    createdRemote: Type.Boolean(),
    /** The Idempotency-Key of the create: the same for a create repeated after a lost answer or a restart. */
    createKey: Type.String({ minLength: 1 }),
    /**
     * The remote file's `lastModifiedDate` read just before its bytes went out; after a restart or a lost answer, a file
     * that moved on from it (with this upload's size) shows that the bytes landed. Null before the first send.
     */
    remoteStamp: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
/** One upload in the ledger. */
export type UploadRecord = Static<typeof UploadRecord>;

const LedgerDocument = Type.Object(
  { version: Type.Literal(LEDGER_VERSION), uploads: Type.Array(UploadRecord) },
  { additionalProperties: false },
);
type LedgerDocument = Static<typeof LedgerDocument>;

/** Takes a document of one version to the next. */
export type LedgerMigration = (document: Record<string, unknown>) => Record<string, unknown>;

/** Step `i` takes version `i + 1` to `i + 2`; the last one reaches `LEDGER_VERSION`. None yet: version 1 is the first. */
export const LEDGER_MIGRATIONS: readonly LedgerMigration[] = [];

/** What reading a document's version found: the document at the newest version, or why it cannot be used. */
export type UpgradeResult = { kind: 'ok'; document: Record<string, unknown> } | { kind: 'invalid'; reason: string };

/**
 * Takes a parsed document forward through `migrations` to the version they end at (`migrations.length + 1`). Only
 * forward: a document of a newer app is refused rather than guessed at.
 */
export function upgradeDocument(parsed: unknown, migrations: readonly LedgerMigration[] = LEDGER_MIGRATIONS): UpgradeResult {
  const newest = migrations.length + 1;
  if (!isRecord(parsed)) return { kind: 'invalid', reason: 'it is not a JSON object' };
  const version = parsed['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { kind: 'invalid', reason: 'it has no valid version' };
  }
  if (version > newest) return { kind: 'invalid', reason: `it was written by a newer version of the app (version ${version})` };
  let document = parsed;
  for (let from = version; from < newest; from += 1) {
    const step = migrations[from - 1];
    if (step === undefined) return { kind: 'invalid', reason: `there is no step from version ${from}` };
    document = { ...step(document), version: from + 1 };
  }
  return { kind: 'ok', document };
}

/** What opening the ledger found: its records, and where an unreadable document was moved. */
export interface LedgerOpened {
  ledger: UploadLedger;
  /** The path an unreadable ledger was moved to (the ledger then starts empty); undefined when it was read. */
  setAside?: string;
  /** Why it could not be read. */
  reason?: string;
}

/** The uploads in memory, in the order they were started, and the file they are written to. */
export class UploadLedger {
  readonly #file: string;
  readonly #records = new Map<string, UploadRecord>();
  #dirty = false;
  #flushing: Promise<void> | undefined;

  private constructor(file: string, records: readonly UploadRecord[]) {
    this.#file = file;
    for (const record of records) this.#records.set(record.entry.id, record);
  }

  /** Reads the ledger; a missing file is an empty ledger, an unreadable one is set aside and the ledger starts empty. */
  static async open(file: string): Promise<LedgerOpened> {
    const text = await readTextIfPresent(file);
    if (text === undefined) return { ledger: new UploadLedger(file, []) };
    const read = parseLedger(text);
    if (read.kind === 'ok') return { ledger: new UploadLedger(file, read.document.uploads) };
    const setAside = await setAsideInvalidFile(file);
    return { ledger: new UploadLedger(file, []), setAside, reason: read.reason };
  }

  /** Every upload, oldest first. */
  list(): UploadRecord[] {
    return [...this.#records.values()];
  }

  get(id: string): UploadRecord | undefined {
    return this.#records.get(id);
  }

  /** Adds an upload, or replaces the one with its id (keeping its place in the order). */
  put(record: UploadRecord): void {
    this.#records.set(record.entry.id, record);
  }

  remove(id: string): void {
    this.#records.delete(id);
  }

  /**
   * Writes the ledger as it is now. Resolves once a write that began after this call has finished; calls that come
   * while a write runs share one more write after it, so a burst of changes costs two writes, not one each.
   */
  save(): Promise<void> {
    this.#dirty = true;
    this.#flushing ??= this.#flush();
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#dirty) {
        this.#dirty = false;
        const document: LedgerDocument = { version: LEDGER_VERSION, uploads: this.list() };
        await writeJsonFile(this.#file, document);
      }
    } finally {
      this.#flushing = undefined;
    }
  }
}

type ParsedLedger = { kind: 'ok'; document: LedgerDocument } | { kind: 'invalid'; reason: string };

function parseLedger(text: string): ParsedLedger {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'it is not JSON' };
  }
  const upgraded = upgradeDocument(parsed);
  if (upgraded.kind === 'invalid') return upgraded;
  if (!Value.Check(LedgerDocument, upgraded.document)) {
    const [first] = Value.Errors(LedgerDocument, upgraded.document);
    return { kind: 'invalid', reason: `${first?.instancePath ?? ''} ${first?.message ?? 'is not valid'}`.trim() };
  }
  return { kind: 'ok', document: upgraded.document };
}
