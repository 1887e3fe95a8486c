/**
 * The IndexedDB cache of one connection: one database per connection, named `circularity-desk:<connectionId>`.
 * Versions are append-only: a change of the schema is a new `version(n)` with a comment saying why, never an edit of
 * an old one, because users' databases were created by the old ones.
 */
import { Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie';
import { moveElementsIntoBlocks } from './blocks-migration';
import type {
  BuildingFiguresRow,
  BuildingRow,
  ClassificationMethodRow,
  ElementBlockIdsRow,
  ElementBlockRow,
  ElementRow,
  ElementSetRow,
  FileRow,
  FileStatusRow,
  FileTimelineRow,
  MaterialFinancialValuesRow,
  MaterialMatchesRow,
  MaterialRow,
  OutboxEntry,
  PortfolioRow,
  ProductChildrenRow,
  ProductFinancialValuesRow,
  ProductMatchesRow,
  ProductRow,
  SyncStateRow,
} from './schema';

/** The prefix of every cache database's name. */
export const CACHE_DB_PREFIX = 'circularity-desk';

/** The name of a connection's cache database. */
export function cacheDbName(connectionId: string): string {
  return `${CACHE_DB_PREFIX}:${connectionId}`;
}

/** The tables of schema version 1 (see the comment in the constructor); kept as they were, as every version is. */
export const VERSION_1_STORES = {
  portfolios: 'id',
  buildings: 'id, portfolioId',
  buildingFigures: 'buildingId',
  files: 'id, buildingId',
  fileStatuses: 'id',
  elements: '[buildingFileId+id]',
  elementStaging: '[buildingFileId+id]',
  materials: 'id',
  materialMatches: 'ownerId',
  materialFinancialValues: 'ownerId',
  products: 'id',
  productMatches: 'ownerId',
  productChildren: 'ownerId',
  productFinancialValues: 'ownerId',
  classificationMethods: 'id',
  outbox: '++seq, &opId, [entity+key], [aggregate+seq], state',
  syncState: 'key',
};

/** The tables version 2 added. */
export const VERSION_2_STORES = { fileTimelines: 'id, buildingId' };

/** The primary key of an element record: its file id and its element id. */
export type ElementPrimaryKey = [buildingFileId: string, id: string];

/** The primary key of a block record: its file, its generation and its place in the generation. */
export type ElementBlockKey = [buildingFileId: string, gen: number, seq: number];

/** A connection's cache. Only `renderer/db/` writes its tables; the rest of the renderer reads through it. */
export class CacheDb extends Dexie {
  declare portfolios: EntityTable<PortfolioRow, 'id'>;
  declare buildings: EntityTable<BuildingRow, 'id'>;
  declare buildingFigures: EntityTable<BuildingFiguresRow, 'buildingId'>;
  declare files: EntityTable<FileRow, 'id'>;
  declare fileStatuses: EntityTable<FileStatusRow, 'id'>;
  declare fileTimelines: EntityTable<FileTimelineRow, 'id'>;
  declare elements: Table<ElementRow, ElementPrimaryKey>;
  declare elementSets: EntityTable<ElementSetRow, 'buildingFileId'>;
  declare elementBlocks: Table<ElementBlockRow, ElementBlockKey>;
  declare elementBlockIds: Table<ElementBlockIdsRow, ElementBlockKey>;
  declare materials: EntityTable<MaterialRow, 'id'>;
  declare materialMatches: EntityTable<MaterialMatchesRow, 'ownerId'>;
  declare materialFinancialValues: EntityTable<MaterialFinancialValuesRow, 'ownerId'>;
  declare products: EntityTable<ProductRow, 'id'>;
  declare productMatches: EntityTable<ProductMatchesRow, 'ownerId'>;
  declare productChildren: EntityTable<ProductChildrenRow, 'ownerId'>;
  declare productFinancialValues: EntityTable<ProductFinancialValuesRow, 'ownerId'>;
  declare classificationMethods: EntityTable<ClassificationMethodRow, 'id'>;
  declare outbox: EntityTable<OutboxEntry, 'seq'>;
  // A plain Table: Dexie's insert type of an EntityTable would flatten the union of record kinds.
  declare syncState: Table<SyncStateRow, SyncStateRow['key']>;

  /** The connection whose data this is. */
  readonly connectionId: string;

  /** Opens (lazily) the cache of a connection; tests pass `indexedDB` and `IDBKeyRange` in `options`. */
  constructor(connectionId: string, options?: DexieOptions) {
    super(cacheDbName(connectionId), options);
    this.connectionId = connectionId;
    // 1: the first schema. Elements are keyed by file and element id (ids are unique within a file only) so a file's
    // elements are one key range; the staging table has the same key so a finished pull moves over range by range.
    // The outbox is read by row (`[entity+key]`: does this row have local changes?), by aggregate in order
    // (`[aggregate+seq]`, whose first part also answers `where('aggregate')`) and by state (parked entries).
    this.version(1).stores(VERSION_1_STORES);
    // 2: the building page shows when each status of a file was seen (Uploaded, Importing, … Mapped). The server
    // answers only the current status, so the times are the app's own, one record per file next to `fileStatuses`;
    // `buildingId` lets a building's timelines be read in one query.
    this.version(2).stores(VERSION_2_STORES);
    // 3: one record per element capped a sync at the rate IndexedDB writes records. The server's elements of a file
    // now come in blocks of hundreds (`elementBlocks`), their ids apart (`elementBlockIds`, indexed by each block's
    // greatest id so one query finds an id's block) and the generations of a file in `elementSets`; `elements` keeps
    // only what the user changed, and the staging table goes (a pull stages a generation of blocks instead). The
    // upgrade moves cached elements into blocks and keeps every element record the outbox holds.
    this.version(3)
      .stores({
        elementStaging: null,
        elementSets: 'buildingFileId',
        elementBlocks: '[buildingFileId+gen+seq]',
        elementBlockIds: '[buildingFileId+gen+seq], [buildingFileId+gen+last]',
      })
      .upgrade(moveElementsIntoBlocks);
  }
}
