/**
 * The shapes of the cache's records. Rows of server resources carry the server's fields at the top level, as the API
 * answered them, so screens read them directly; the cache adds a few local fields (`base`, and per table the stamps it
 * needs). Types are taken from the API's schemas, never copied.
 */
import type {
  BuildingCircularInformation,
  BuildingFileElementResponse,
  BuildingFileResponse,
  BuildingFileStatusResponse,
  BuildingFinancialInformation,
  BuildingResponse,
  BuildingValidation,
  ClassificationMethod,
  Material,
  MaterialFinancialValue,
  MaterialMatch,
  PortfolioResponse,
  Product,
  ProductChild,
  ProductFinancialValue,
  ProductMatch,
} from '../../shared/api/schemas';
import type { ApiFailure } from '../api/failure';
import type { OutboxEntity } from './entities';

export type { OutboxEntity };

// --- ids and keys -----------------------------------------------------------------------------------------------------

/** Prefix of the temporary id of an entity created locally and not yet known to the server. */
export const LOCAL_ID_PREFIX = 'local:';

/** Whether an id is a temporary local one (the server has never seen it). */
export function isLocalId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

/**
 * The outbox key of an element: its file id, a slash, its element id. Element ids are only unique within their file;
 * file ids (uuids or `local:<uuid>`) never hold a slash, so the first slash splits the key unambiguously.
 */
export function elementKey(fileId: string, elementId: string): string {
  return `${fileId}/${elementId}`;
}

/** The file id and element id of an element's outbox key. */
export function splitElementKey(key: string): { fileId: string; elementId: string } {
  const slash = key.indexOf('/');
  return { fileId: key.slice(0, slash), elementId: key.slice(slash + 1) };
}

// --- rows of server resources -----------------------------------------------------------------------------------------

/**
 * What the cache adds to a server row that the user can edit. `base` is absent while the row holds the server's values;
 * the db layer copies the server's values into it when the row is first edited locally, and it is what later edits
 * and the push's three-way merge are relative to.
 */
export interface Editable<T> {
  base?: T;
}

/** A portfolio. */
export type PortfolioRow = PortfolioResponse & Editable<PortfolioResponse>;

/** A building. */
export type BuildingRow = BuildingResponse & Editable<BuildingResponse>;

/**
 * A building file. `elementsStamp` is the server `lastModifiedDate` whose elements the cache holds (null: none pulled
 * yet); the elements are pulled again when the server's stamp differs from it.
 */
export type FileRow = BuildingFileResponse & Editable<BuildingFileResponse> & { elementsStamp: string | null };

/** The processing status of a building file, as `/status` answered it when last asked. */
export type FileStatusRow = BuildingFileStatusResponse & { buildingId: string; fetchedAt: string };

/** A status of a building file and when the app first saw it (ISO 8601). */
export interface SeenStatus {
  status: number;
  at: string;
}

/**
 * When the app saw each status of a file's latest processing (the server answers only the current status), oldest
 * first: written whenever a file list or `/status` answer is applied, and when an upload of the file ended. A status
 * that goes back (a new version uploaded, a refinement started again) begins the list anew.
 */
export interface FileTimelineRow {
  /** The file's id. */
  id: string;
  buildingId: string;
  seen: SeenStatus[];
}

/**
 * An element the user touched since its file's elements were last pulled: edited (with `base`), created here, or
 * deleted here (`removed`, a tombstone hiding the server's row). The primary key is `[buildingFileId+id]` (element ids
 * are unique within a file only). Such a row wins over the file's blocks; the pull drops it once it has no outbox
 * entries and the file's new blocks hold the server's values.
 */
export type ElementRow = BuildingFileElementResponse & Editable<BuildingFileElementResponse> & { removed?: true };

/**
 * A generation of a file's server elements in blocks: its stamp (`lastModifiedDate`), its blocks and elements so far,
 * and whether its ids came in key order (`ordered`, checked against `last`): one index query then finds an id's block.
 */
export interface BlockSet {
  gen: number;
  stamp: string;
  blocks: number;
  count: number;
  ordered: boolean;
  last: string | null;
}

/** A file's block sets: `shown` (what screens read) and `staged` (a newer pull's, until its last page). */
export interface ElementSetRow {
  buildingFileId: string;
  shown: BlockSet | null;
  staged: BlockSet | null;
  nextGen: number;
}

/** Up to `BLOCK_ROWS` server elements of a file, in the order the server paged them. Never changed once written. */
export interface ElementBlockRow {
  buildingFileId: string;
  gen: number;
  seq: number;
  rows: BuildingFileElementResponse[];
}

/** The ids of a block, in its order, kept apart so listing a file's ids never decodes its rows. */
export interface ElementBlockIdsRow {
  buildingFileId: string;
  gen: number;
  seq: number;
  ids: string[];
  /** The block's greatest id (indexed). */
  last: string;
}

/**
 * The figures of a building and what the pull last saw of the building, which decides when they are refreshed: when
 * a file of the building changed (`filesSignature`), when `isDirty` went from true to false, or when
 * `mostRecentBimInfo` moved. `stale` keeps a refresh due until the building is no longer dirty.
 */
export interface BuildingFiguresRow {
  buildingId: string;
  circular: BuildingCircularInformation | null;
  financial: BuildingFinancialInformation | null;
  validation: BuildingValidation | null;
  /** When the figures were last fetched; null: never. */
  refreshedAt: string | null;
  stale: boolean;
  seenIsDirty: boolean;
  seenMostRecentBimInfo: string | null;
  /** Ids and stamps of the building's files as the server last listed them; null: never listed. */
  filesSignature: string | null;
}

/** A material of the catalogue. */
export type MaterialRow = Material & Editable<Material>;

/** A product of the catalogue. */
export type ProductRow = Product & Editable<Product>;

/** A classification method (read-only system data). */
export type ClassificationMethodRow = ClassificationMethod;

/**
 * A sub-resource list of a catalogue item (its matches, financial values or children), one record per item: the API
 * reads and replaces these lists as a whole and their entries have no id.
 */
export type CatalogueListRow<T> = { ownerId: string; items: T[]; fetchedAt: string } & Editable<T[]>;

/** The matches of a material. */
export type MaterialMatchesRow = CatalogueListRow<MaterialMatch>;
/** The financial values of a material. */
export type MaterialFinancialValuesRow = CatalogueListRow<MaterialFinancialValue>;
/** The matches of a product. */
export type ProductMatchesRow = CatalogueListRow<ProductMatch>;
/** The children of a product. */
export type ProductChildrenRow = CatalogueListRow<ProductChild>;
/** The financial values of a product. */
export type ProductFinancialValuesRow = CatalogueListRow<ProductFinancialValue>;

/** The fields the cache adds to server rows; everything else in a row is the server's. */
export const LOCAL_FIELDS = ['base', 'elementsStamp', 'removed'] as const;

/** A row's server fields: the row without the fields the cache adds (what `base` gets when a row is first edited). */
export function serverFieldsOf<T extends object>(row: T & Partial<Record<(typeof LOCAL_FIELDS)[number], unknown>>): T {
  const copy: Record<string, unknown> = { ...row };
  for (const field of LOCAL_FIELDS) delete copy[field];
  return copy as T;
}

// --- failures ---------------------------------------------------------------------------------------------------------

/** A failure with where and when it happened (`where`: `listBuildings`, `elements:<fileId>`, …). */
export interface SyncIssue {
  at: string;
  where: string;
  failure: ApiFailure;
}

/** A row of a table. */
export interface RowRef {
  table: OutboxEntity;
  key: string;
}

// --- outbox -----------------------------------------------------------------------------------------------------------

/** What an outbox entry does to its row on the server. */
export type OutboxOp = 'create' | 'update' | 'delete';

/** `pending`: waits for (another) push; `parked`: the server refused it and the user decides (retry, edit, discard). */
export type OutboxState = 'pending' | 'parked';

/**
 * One local change waiting for the server, written in the same transaction as the row it changes. An entry counts as
 * pending for the pull in both states: a parked change is still the user's and must not be overwritten.
 */
export interface OutboxEntry {
  /** Auto-incremented: the order of changes. */
  seq: number;
  /** A uuid; sent as `Idempotency-Key` with creates. */
  opId: string;
  entity: OutboxEntity;
  /** The row's key in its table; for elements `elementKey(fileId, elementId)`. */
  key: string;
  op: OutboxOp;
  /** For `update`: the fields the user changed, with their new values; else null. */
  fields: Record<string, unknown> | null;
  createdAt: string;
  attempts: number;
  lastError: SyncIssue | null;
  state: OutboxState;
  /** Entries of one aggregate are pushed in `seq` order: `file:<id>` (its elements), `building:<id>`, `material:<id>` … */
  aggregate: string;
}

// --- sync state -------------------------------------------------------------------------------------------------------

/** Where a running pull is, for a progress display. */
export type PullProgress =
  | { phase: 'lists'; collection: string }
  | { phase: 'files'; buildingsDone: number; buildingsTotal: number }
  | { phase: 'elements'; buildingId: string; fileId: string; pagesDone: number; totalPages: number | null }
  | { phase: 'figures'; buildingId: string };

/** The state of the connection's pulls. */
export interface PullStateRow {
  key: 'pull';
  kind: 'pull';
  lastAttemptAt: string | null;
  /** The end of the last pull that applied everything. */
  lastSuccessAt: string | null;
  /** What stopped the last pull, or its last skipped part; null when it was clean. */
  lastError: SyncIssue | null;
  /** Every part the last pull skipped (reported, not applied). */
  issues: SyncIssue[];
  /** Rows the server no longer has but that hold local changes, so they were kept: the user is told. */
  keptMissing: RowRef[];
  /** Where the running pull is; null when none runs. */
  progress: PullProgress | null;
}

/**
 * How far the pull of one file's elements got, written with each page so a pull that was stopped or killed resumes at
 * the next page, as long as the file's stamp and the page size are still the same.
 */
export interface ElementCursorRow {
  key: `elements:${string}`;
  kind: 'element-cursor';
  buildingId: string;
  fileId: string;
  /** The file's `lastModifiedDate` the pages belong to. */
  stamp: string;
  pageSize: number;
  /** The `$skip` of the next page. */
  nextSkip: number;
  pagesDone: number;
  /** The element count `/status` gave when the pull began, null if unknown. */
  expectedCount: number | null;
  startedAt: string;
  /**
   * Where the pages go: `elements` for a file the cache never held completely (its shown blocks grow page by page:
   * there is nothing older to keep consistent), else `staging`, a staged block set shown after the last page.
   */
  target: 'elements' | 'staging';
}

/** Where a running push is, for a progress display. */
export type PushProgress =
  | { phase: 'entries'; pushed: number; remaining: number }
  | { phase: 'file'; buildingId: string; fileId: string; step: 'importing' | 'refining' | 'pulling'; status: number | null };

/** The state of the connection's pushes. */
export interface PushStateRow {
  key: 'push';
  kind: 'push';
  lastAttemptAt: string | null;
  /** The end of the last push that stopped for nothing (entries it parked wait for the user, not for the push). */
  lastSuccessAt: string | null;
  /** What stopped the last push, or the last entry it parked; null when it was clean. */
  lastError: SyncIssue | null;
  /** Where the running push is; null when none runs. */
  progress: PushProgress | null;
}

/** One field an update changed locally while the server changed it to something else. `path` as in `fields`. */
export interface FieldConflict {
  path: string;
  /** The value both sides started from. */
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** Why an update was parked as a conflict: the fields changed on both sides, and the server's row when it was read. */
export interface EditConflict {
  fields: FieldConflict[];
  /** The server's values as read (a catalogue list: its items); they become the row's base when the user decides. */
  server: unknown;
  at: string;
}

/**
 * The first attempt of a create of a resource whose id the server gives: the body sent (every retry sends the same,
 * under the same Idempotency-Key) and the ids of rows with the same name the server had before it, so a retry after a
 * lost answer finds the row the server made instead of making a second one.
 */
export interface CreateAttempt {
  body: unknown;
  preexistingIds: string[];
  firstSentAt: string;
}

/** What an outbox entry needs beyond itself, kept under `outbox:<seq>` and removed with the entry. */
export interface OutboxDetailRow {
  key: `outbox:${number}`;
  kind: 'outbox-detail';
  seq: number;
  /** For a delete: the row as it was, put back if the user discards the delete. */
  removedRow: unknown;
  create: CreateAttempt | null;
  conflict: EditConflict | null;
}

/**
 * A file whose elements the push is changing: written before its first element request (and before `setimporting`),
 * so a push that stopped anywhere resumes from the file's server status, starts the refinement and re-pulls the file.
 */
export interface FileRefinementRow {
  key: `refine:${string}`;
  kind: 'file-refinement';
  buildingId: string;
  fileId: string;
  /** `importing`: element requests are being sent; `refining`: the server accepted `startrefinement`. */
  step: 'importing' | 'refining';
  /** The Idempotency-Key of the `startrefinement` request. */
  opId: string;
  startedAt: string;
}

/** A record of the `syncState` table. */
export type SyncStateRow = PullStateRow | ElementCursorRow | PushStateRow | OutboxDetailRow | FileRefinementRow;

/** The `syncState` key of a file's element cursor. */
export function elementCursorKey(fileId: string): ElementCursorRow['key'] {
  return `elements:${fileId}`;
}

/** The `syncState` key of an outbox entry's detail record. */
export function outboxDetailKey(seq: number): OutboxDetailRow['key'] {
  return `outbox:${seq}`;
}

/** The `syncState` key of a file's refinement record. */
export function fileRefinementKey(fileId: string): FileRefinementRow['key'] {
  return `refine:${fileId}`;
}
