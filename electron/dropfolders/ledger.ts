/**
 * The upload ledger: one row per file of every drop folder, in SQLite (`<state dir>/ledger.sqlite`, WAL), saying where
 * the file is on its way to the server. Every state change is one transaction, so after a crash the ledger holds the
 * last state that was reached, and the remote file id is in it before any byte of the file is sent: a restart uploads
 * into the same remote file instead of creating a second one.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { nativeSqliteOptions } from '../../shared/native-sqlite';
import { ensurePrivateFileSync, PRIVATE_FOLDER_MODE } from '../private-files';
import { Type, type Static, type TSchema } from 'typebox';
import { DropFolderFile, type DropFileKind, type DropFileProgress, type LedgerState } from '../../shared/dropfolders';

/** The file name of the ledger in its state folder. */
export const LEDGER_FILE_NAME = 'ledger.sqlite';

function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** The end a delivered content reached, so the same content seen again ends there without an upload. */
export const LedgerResult = Type.Union([Type.Literal('mapped'), Type.Literal('stored'), Type.Literal('failed')]);
/** The end a delivered content reached. */
export type LedgerResult = Static<typeof LedgerResult>;

/** A row of the ledger: what the host sees of a file, and what the uploader keeps for itself. */
export const LedgerRow = Type.Object(
  {
    ...DropFolderFile.properties,
    /** The remote file's lastModifiedDate just before the upload began: a different one means the upload landed. */
    remoteStamp: Nullable(Type.String()),
    /** The hash of the content the remote file holds from this row, and what became of it. */
    deliveredSha256: Nullable(Type.String()),
    result: Nullable(LedgerResult),
  },
  { additionalProperties: false },
);
/** A row of the ledger. */
export type LedgerRow = Static<typeof LedgerRow>;

/** Which row: a mapping and a path relative to its folder. */
export interface LedgerKey {
  mappingId: string;
  path: string;
}

/** Fields a state change or an update may set. */
export type LedgerChanges = Partial<Omit<LedgerRow, 'mappingId' | 'path' | 'state' | 'updatedAt'>>;

/** Which states may follow which: anything else is a mistake of the uploader and is refused. */
const NEXT_STATES: Readonly<Record<LedgerState, readonly LedgerState[]>> = {
  // Complete again after a change, or vanished: back to what its delivered content reached.
  detected: ['detected', 'hashing', 'mapped', 'stored', 'failed'],
  // Changed while hashed, new content, or the same content as delivered before.
  hashing: ['detected', 'uploading', 'mapped', 'stored', 'failed'],
  // Uploaded (source → processing, information → stored), given up, or the local file changed or vanished.
  uploading: ['uploading', 'processing', 'stored', 'failed', 'detected', 'mapped'],
  processing: ['processing', 'mapped', 'failed'],
  mapped: ['detected'],
  stored: ['detected'],
  // A retry asked for by the user starts from the beginning.
  failed: ['detected'],
};

/** Whether the ledger lets a row move from one state to another. */
export function canTransition(from: LedgerState, to: LedgerState): boolean {
  return NEXT_STATES[from].includes(to);
}

/** A state change the ledger refuses. */
export class LedgerTransitionError extends Error {
  constructor(key: LedgerKey, from: LedgerState, to: LedgerState) {
    super(`The ledger row ${key.mappingId}:${key.path} cannot go from ${from} to ${to}.`);
    this.name = 'LedgerTransitionError';
  }
}

/** Columns as stored; `progress` is spread over three of them. */
interface StoredRow extends Omit<LedgerRow, 'progress'> {
  progressStep: DropFileProgress['step'] | null;
  progressDone: number | null;
  progressTotal: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS files (
  mappingId TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('source', 'information')),
  state TEXT NOT NULL CHECK (state IN ('detected', 'hashing', 'uploading', 'processing', 'mapped', 'stored', 'failed')),
  size INTEGER NOT NULL,
  mtimeMs REAL NOT NULL,
  sha256 TEXT,
  buildingId TEXT,
  fileId TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  lastError TEXT,
  remoteStatus INTEGER,
  remoteMessage TEXT,
  progressStep TEXT,
  progressDone INTEGER,
  progressTotal INTEGER,
  updatedAt TEXT NOT NULL,
  remoteStamp TEXT,
  deliveredSha256 TEXT,
  result TEXT,
  PRIMARY KEY (mappingId, path)
);
CREATE INDEX IF NOT EXISTS files_by_remote_file ON files (fileId);
CREATE TABLE IF NOT EXISTS buildings (
  mappingId TEXT NOT NULL,
  folderName TEXT NOT NULL,
  buildingId TEXT NOT NULL,
  PRIMARY KEY (mappingId, folderName)
);
`;

/**
 * The ledger's schema as steps: step k brings a ledger of version k to k + 1 (`PRAGMA user_version`). Append a step for
 * every change; never edit one that shipped. Step 1 is the first shape, which ledgers made before the version was
 * kept (version 0) have already, so it only creates what is missing.
 */
const SCHEMA_STEPS: readonly string[] = [SCHEMA];

/** A ledger written by a newer version of the app, which this one cannot read without losing what it records. */
export class LedgerVersionError extends Error {
  constructor(file: string, found: number, known: number) {
    super(`The drop folders' ledger ${file} is of version ${found}, made by a newer Circularity Desk; this one reads up to version ${known}. Update the app.`);
    this.name = 'LedgerVersionError';
  }
}

/** Brings the ledger to the newest version, all steps in one transaction. */
function migrate(db: Database.Database, file: string): void {
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > SCHEMA_STEPS.length) throw new LedgerVersionError(file, found, SCHEMA_STEPS.length);
  if (found === SCHEMA_STEPS.length) return;
  db.transaction(() => {
    for (const step of SCHEMA_STEPS.slice(found)) db.exec(step);
    db.pragma(`user_version = ${SCHEMA_STEPS.length}`);
  })();
}

/** Columns an update may set, by the field names of `LedgerChanges`. */
const CHANGEABLE = new Set([
  'kind', 'size', 'mtimeMs', 'sha256', 'buildingId', 'fileId', 'attempts', 'lastError', 'remoteStatus', 'remoteMessage',
  'progressStep', 'progressDone', 'progressTotal', 'remoteStamp', 'deliveredSha256', 'result',
]);

function fromStored(stored: StoredRow): LedgerRow {
  const { progressStep, progressDone, progressTotal, ...rest } = stored;
  const progress = progressStep === null ? null : { step: progressStep, done: progressDone ?? 0, total: progressTotal };
  return { ...rest, progress };
}

function toColumns(changes: LedgerChanges): Record<string, unknown> {
  const { progress, ...rest } = changes;
  const columns: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (progress !== undefined) {
    columns['progressStep'] = progress?.step ?? null;
    columns['progressDone'] = progress?.done ?? null;
    columns['progressTotal'] = progress?.total ?? null;
  }
  for (const name of Object.keys(columns)) {
    if (!CHANGEABLE.has(name)) throw new Error(`The ledger has no column ${name} to change.`);
  }
  return columns;
}

/** The ledger of one state folder. Synchronous calls: each returns once its transaction is on disk. */
export class UploadLedger {
  readonly #db: Database.Database;
  readonly #now: () => Date;
  readonly #updates = new Map<string, Database.Statement>();
  readonly #get: Database.Statement<[string, string], StoredRow>;

  private constructor(db: Database.Database, now: () => Date) {
    this.#db = db;
    this.#now = now;
    this.#get = db.prepare('SELECT * FROM files WHERE mappingId = ? AND path = ?');
  }

  /** Opens (and creates) the ledger in `stateDir`, brought to the newest schema; throws LedgerVersionError for a newer one. */
  static open(stateDir: string, now: () => Date = () => new Date()): UploadLedger {
    mkdirSync(stateDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const file = path.join(stateDir, LEDGER_FILE_NAME);
    // SQLite gives its -wal and -shm files the database file's mode.
    ensurePrivateFileSync(file);
    const db = new Database(file, nativeSqliteOptions(process.versions, process.env));
    try {
      db.pragma('journal_mode = WAL');
      // FULL: a state change that returned survives a power cut too, not only a crash of the app.
      db.pragma('synchronous = FULL');
      db.pragma('busy_timeout = 5000');
      migrate(db, file);
    } catch (error) {
      db.close();
      throw error;
    }
    return new UploadLedger(db, now);
  }

  /** A row, or undefined when the file is not in the ledger. */
  get(key: LedgerKey): LedgerRow | undefined {
    const stored = this.#get.get(key.mappingId, key.path);
    return stored === undefined ? undefined : fromStored(stored);
  }

  /** The rows of a mapping (or of all mappings), by path. */
  list(mappingId?: string): LedgerRow[] {
    const rows =
      mappingId === undefined
        ? this.#db.prepare<[], StoredRow>('SELECT * FROM files ORDER BY mappingId, path').all()
        : this.#db.prepare<[string], StoredRow>('SELECT * FROM files WHERE mappingId = ? ORDER BY path').all(mappingId);
    return rows.map(fromStored);
  }

  /** How many files of every mapping are in each state; one query, whatever the number of files. */
  countsByState(): Partial<Record<LedgerState, number>> {
    const rows = this.#db.prepare<[], { state: LedgerState; count: number }>('SELECT state, COUNT(*) AS count FROM files GROUP BY state').all();
    return Object.fromEntries(rows.map((row) => [row.state, row.count]));
  }

  /** Adds a file that was just found; it starts `detected`. */
  insert(key: LedgerKey, fields: { kind: DropFileKind; size: number; mtimeMs: number }): LedgerRow {
    this.#db
      .prepare(
        `INSERT INTO files (mappingId, path, kind, state, size, mtimeMs, attempts, updatedAt)
         VALUES (@mappingId, @path, @kind, 'detected', @size, @mtimeMs, 0, @updatedAt)`,
      )
      .run({ ...key, ...fields, updatedAt: this.#now().toISOString() });
    return this.#existingRow(key);
  }

  /** Moves a row to `to` with `changes`, in one transaction; throws LedgerTransitionError for a move that is not allowed. */
  transition(key: LedgerKey, to: LedgerState, changes: LedgerChanges = {}): LedgerRow {
    return this.#db.transaction(() => {
      const current = this.#existingRow(key);
      if (!canTransition(current.state, to)) throw new LedgerTransitionError(key, current.state, to);
      this.#write(key, { ...toColumns(changes), state: to });
      return this.#existingRow(key);
    })();
  }

  /** Changes fields of a row without changing its state. */
  update(key: LedgerKey, changes: LedgerChanges): LedgerRow {
    return this.#db.transaction(() => {
      this.#existingRow(key);
      this.#write(key, toColumns(changes));
      return this.#existingRow(key);
    })();
  }

  /** Forgets a file. */
  remove(key: LedgerKey): void {
    this.#db.prepare('DELETE FROM files WHERE mappingId = ? AND path = ?').run(key.mappingId, key.path);
  }

  /** Forgets every file and building of a mapping. */
  removeMapping(mappingId: string): void {
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM files WHERE mappingId = ?').run(mappingId);
      this.#db.prepare('DELETE FROM buildings WHERE mappingId = ?').run(mappingId);
    })();
  }

  /** The row that uploads into a remote file, if any. */
  claimOf(fileId: string): LedgerKey | undefined {
    return this.#db
      .prepare<[string], LedgerKey>('SELECT mappingId, path FROM files WHERE fileId = ? LIMIT 1')
      .get(fileId);
  }

  /** The building a portfolio mapping made or found for one of its subfolders. */
  buildingOf(mappingId: string, folderName: string): string | undefined {
    return this.#db
      .prepare<[string, string], { buildingId: string }>('SELECT buildingId FROM buildings WHERE mappingId = ? AND folderName = ?')
      .get(mappingId, folderName)?.buildingId;
  }

  /** Records the building of a subfolder. */
  rememberBuilding(mappingId: string, folderName: string, buildingId: string): void {
    this.#db
      .prepare('INSERT OR REPLACE INTO buildings (mappingId, folderName, buildingId) VALUES (?, ?, ?)')
      .run(mappingId, folderName, buildingId);
  }

  /** Forgets the building of a subfolder (it was deleted on the server). */
  forgetBuilding(mappingId: string, folderName: string): void {
    this.#db.prepare('DELETE FROM buildings WHERE mappingId = ? AND folderName = ?').run(mappingId, folderName);
  }

  /** Closes the database; the WAL is checkpointed into the main file. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #existingRow(key: LedgerKey): LedgerRow {
    const row = this.get(key);
    if (row === undefined) throw new Error(`The ledger has no row ${key.mappingId}:${key.path}.`);
    return row;
  }

  #write(key: LedgerKey, columns: Record<string, unknown>): void {
    const names = Object.keys(columns).sort();
    const signature = names.join(',');
    let statement = this.#updates.get(signature);
    if (statement === undefined) {
      const assignments = [...names.map((name) => `${name} = @${name}`), 'updatedAt = @updatedAt'].join(', ');
      statement = this.#db.prepare(`UPDATE files SET ${assignments} WHERE mappingId = @mappingId AND path = @path`);
      this.#updates.set(signature, statement);
    }
    statement.run({ ...columns, updatedAt: this.#now().toISOString(), mappingId: key.mappingId, path: key.path });
  }
}
