/**
 * The user's changes. Each edit writes its rows and their outbox entries in one transaction, so a change is never
 * half made and never only in memory; a bulk edit of N elements is one transaction too. Also what the user decides
 * about parked entries: keep mine or take theirs for a conflict, retry, or discard (the row goes back to the server's
 * values in the same transaction).
 *
 * New portfolios, buildings, materials and products get a temporary id `local:<uuid>` until the server gives theirs;
 * element ids are the client's own, so a new element has its final id (a uuid) at once. The first edit of a row that
 * holds the server's values copies them into its `base`: what the push's three-way merge is relative to.
 */
import type {
  BuildingFileElementRequest,
  MaterialFinancialValue,
  MaterialMatch,
  PortfolioRequest,
  Product,
  ProductChild,
  ProductFinancialValue,
  ProductMatch,
} from '../../shared/api/schemas';
import { assertNever } from '../../shared/api/enums';
import type { CacheDb } from './cache-db';
import {
  aggregateOf,
  applyFields,
  deleteRow,
  emptyBuilding,
  emptyElement,
  emptyMaterial,
  emptyPortfolio,
  emptyProduct,
  entriesOfRow,
  getRow,
  getRows,
  mappingTypesOf,
  rowOf,
  valuesOf,
  type BuildingChanges,
  type ElementChanges,
  type MaterialChanges,
  type PortfolioChanges,
  type ProductChanges,
  type StoredRow,
} from './edit-shapes';
import { ENTITIES, ENTITY_TABLES, isListEntity, tablesOf, type CatalogueListTable, type EditedEntity } from './entities';
import { flattenFields, type FlatFields } from './field-paths';
import { pendingKeys } from './outbox';
import { entriesReferringTo, OUTBOX_TABLES, readDetail, rebuildRow, removeEntries, updateDetail } from './outbox-rows';
import { elementKey, isLocalId, LOCAL_ID_PREFIX, outboxDetailKey, type OutboxEntry, type OutboxOp } from './schema';

/** A new building: its name and any other field of the building request (its portfolio is the first argument). */
export type NewBuilding = Omit<BuildingChanges, 'portfolioId'> & { name: string };
/** A new product: its type and any other field of the product request. */
export type NewProduct = ProductChanges & { type: Product['type'] };
/** A new element: any field of the element request; without an id it gets a new uuid. */
export type NewElement = ElementChanges & { id?: BuildingFileElementRequest['id'] };

/** Every table an edit or a decision may touch. */
const ALL_EDIT_TABLES = [...ENTITY_TABLES, ...OUTBOX_TABLES];

/** Runs several edits as one: a crash or a failed write leaves none of them (a new item without its lists, say). */
export function asOneEdit<T>(db: CacheDb, edits: () => Promise<T>): Promise<T> {
  return db.transaction('rw', ALL_EDIT_TABLES, edits);
}

function now(): string {
  return new Date().toISOString();
}

function newLocalId(): string {
  return `${LOCAL_ID_PREFIX}${crypto.randomUUID()}`;
}

function newEntry(entity: EditedEntity, key: string, op: OutboxOp, fields: FlatFields | null, at: string): Omit<OutboxEntry, 'seq'> {
  return {
    opId: crypto.randomUUID(),
    entity,
    key,
    op,
    fields,
    createdAt: at,
    attempts: 0,
    lastError: null,
    state: 'pending',
    aggregate: aggregateOf(entity, key),
  };
}

function missing(entity: EditedEntity, key: string): Error {
  return new Error(`The cache holds no ${entity} row ${key}.`);
}

// --- the three kinds of edit ------------------------------------------------------------------------------------------

/** The keys among `keys` whose rows have outbox entries; one read for a file's elements, one per row otherwise. */
async function keysWithEntries(db: CacheDb, entity: EditedEntity, keys: readonly string[], prefix: string): Promise<Set<string>> {
  if (prefix !== '') return pendingKeys(db, entity, prefix);
  const found = await Promise.all(keys.map(async (key) => ((await entriesOfRow(db, entity, key)).length > 0 ? key : null)));
  return new Set(found.filter((key): key is string => key !== null));
}

/** Applies one change to rows and appends one update entry per row, all in one transaction. */
async function updateRows(db: CacheDb, entity: EditedEntity, keys: readonly string[], changes: object, prefix = ''): Promise<void> {
  const fields = flattenFields(changes as Record<string, unknown>);
  if (keys.length === 0 || Object.keys(fields).length === 0) return;
  await db.transaction('rw', [...tablesOf(entity), ...OUTBOX_TABLES], async () => {
    const at = now();
    const rows = await getRows(db, entity, keys);
    const withEntries = await keysWithEntries(db, entity, keys, prefix);
    const types = await mappingTypesOf(db, [fields]);
    const written = keys.map((key, index) => {
      const row = rows[index];
      if (row === undefined) throw missing(entity, key);
      const values = valuesOf(entity, row);
      // A row with entries but no base was made here and has no server values yet.
      const base = row.base ?? (withEntries.has(key) ? undefined : values);
      return rowOf(entity, key, applyFields(entity, values, fields, types), base, at);
    });
    await db.table<StoredRow>(entity).bulkPut(written);
    await db.outbox.bulkAdd(keys.map((key) => newEntry(entity, key, 'update', fields, at)));
  });
}

/** Writes a new row and its create entry. */
async function insertRow(db: CacheDb, entity: EditedEntity, key: string, values: object, parent?: { entity: EditedEntity; key: string }): Promise<void> {
  await db.transaction('rw', [...tablesOf(entity), 'outbox', ...(parent === undefined ? [] : tablesOf(parent.entity))], async () => {
    if (parent !== undefined && (await getRow(db, parent.entity, parent.key)) === undefined) throw missing(parent.entity, parent.key);
    if ((await getRow(db, entity, key)) !== undefined) throw new Error(`The cache already holds ${entity} row ${key}.`);
    const at = now();
    await db.table<StoredRow>(entity).put(rowOf(entity, key, values, undefined, at));
    await db.outbox.add(newEntry(entity, key, 'create', null, at));
  });
}

/** Removes rows and appends a delete entry per row, keeping each row in the entry's detail for a discard. */
async function removeRows(db: CacheDb, entity: EditedEntity, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.transaction('rw', [...tablesOf(entity), ...OUTBOX_TABLES], async () => {
    const at = now();
    const rows = await getRows(db, entity, keys);
    for (const [index, key] of keys.entries()) {
      if (rows[index] === undefined) throw missing(entity, key);
      await deleteRow(db, entity, key);
    }
    const seqs = await db.outbox.bulkAdd(
      keys.map((key) => newEntry(entity, key, 'delete', null, at)),
      { allKeys: true },
    );
    await db.syncState.bulkPut(
      seqs.map((seq, index) => ({ key: outboxDetailKey(seq), kind: 'outbox-detail', seq, removedRow: rows[index], create: null, conflict: null })),
    );
  });
}

/** Replaces a catalogue item's list (matches, children, financial values) as the API replaces it: whole. */
async function replaceList(db: CacheDb, entity: CatalogueListTable, ownerId: string, items: readonly unknown[]): Promise<void> {
  await db.transaction('rw', [...tablesOf(entity), ...OUTBOX_TABLES], async () => {
    const owner = ENTITIES[entity].listOwner;
    if ((await getRow(db, owner, ownerId)) === undefined) throw missing(owner, ownerId);
    const at = now();
    const row = await getRow(db, entity, ownerId);
    const withEntries = (await entriesOfRow(db, entity, ownerId)).length > 0;
    // Without a fetched list the server's is unknown: the push then takes the server's current list as the base.
    const base = row === undefined ? undefined : (row.base ?? (withEntries ? undefined : valuesOf(entity, row)));
    await db.table<StoredRow>(entity).put(rowOf(entity, ownerId, [...items], base, at));
    await db.outbox.add(newEntry(entity, ownerId, 'update', { items: [...items] }, at));
  });
}

// --- portfolios and buildings -----------------------------------------------------------------------------------------

/** Creates a portfolio; answers its temporary id. */
export async function createPortfolio(db: CacheDb, request: PortfolioRequest): Promise<string> {
  const id = newLocalId();
  await insertRow(db, 'portfolios', id, applyFields('portfolios', emptyPortfolio(id), flattenFields(request)) as object);
  return id;
}

/** Changes a portfolio. */
export function editPortfolio(db: CacheDb, id: string, changes: PortfolioChanges): Promise<void> {
  return updateRows(db, 'portfolios', [id], changes);
}

/** Deletes a portfolio (the server refuses while it holds buildings; the entry is then parked). */
export function deletePortfolio(db: CacheDb, id: string): Promise<void> {
  return removeRows(db, 'portfolios', [id]);
}

/** Creates a building in a portfolio (which may itself be new); answers its temporary id. */
export async function createBuilding(db: CacheDb, portfolioId: string, request: NewBuilding): Promise<string> {
  const id = newLocalId();
  const values = applyFields('buildings', emptyBuilding(id, portfolioId), flattenFields({ ...request, portfolioId }));
  await insertRow(db, 'buildings', id, values as object, { entity: 'portfolios', key: portfolioId });
  return id;
}

/** Changes any fields of a building. */
export function editBuilding(db: CacheDb, id: string, changes: BuildingChanges): Promise<void> {
  return updateRows(db, 'buildings', [id], changes);
}

/** Deletes a building. */
export function deleteBuilding(db: CacheDb, id: string): Promise<void> {
  return removeRows(db, 'buildings', [id]);
}

// --- elements ---------------------------------------------------------------------------------------------------------

/** Creates an element in a file of the cache; answers its id (the request's, else a new uuid). */
export async function createElement(db: CacheDb, fileId: string, request: NewElement): Promise<string> {
  const { id = crypto.randomUUID(), ...fields } = request;
  const flat = flattenFields(fields);
  const types = await mappingTypesOf(db, [flat]);
  const values = applyFields('elements', emptyElement(fileId, id), flat, types);
  await db.transaction('rw', ['files', ...tablesOf('elements'), 'outbox'], async () => {
    if ((await db.files.get(fileId)) === undefined) throw new Error(`The cache holds no file ${fileId}.`);
    if ((await getRow(db, 'elements', elementKey(fileId, id))) !== undefined) throw new Error(`The file ${fileId} already holds an element ${id}.`);
    const at = now();
    await db.table<StoredRow>('elements').put(rowOf('elements', elementKey(fileId, id), values, undefined, at));
    await db.outbox.add(newEntry('elements', elementKey(fileId, id), 'create', null, at));
  });
  return id;
}

/** Makes the same change to elements of one file: one transaction, every row and entry or none. */
export function editElements(db: CacheDb, fileId: string, elementIds: readonly string[], changes: ElementChanges): Promise<void> {
  const keys = elementIds.map((id) => elementKey(fileId, id));
  return updateRows(db, 'elements', keys, changes, elementKey(fileId, ''));
}

/** Deletes elements of one file in one transaction. */
export function deleteElements(db: CacheDb, fileId: string, elementIds: readonly string[]): Promise<void> {
  return removeRows(
    db,
    'elements',
    elementIds.map((id) => elementKey(fileId, id)),
  );
}

// --- catalogue --------------------------------------------------------------------------------------------------------

/** Creates a material in the connection's own database; answers its temporary id. */
export async function createMaterial(db: CacheDb, request: MaterialChanges): Promise<string> {
  const id = newLocalId();
  await insertRow(db, 'materials', id, applyFields('materials', emptyMaterial(id), flattenFields(request)) as object);
  return id;
}

/** Changes any fields of a material (nested ones, such as one language of its name, field by field). */
export function editMaterial(db: CacheDb, id: string, changes: MaterialChanges): Promise<void> {
  return updateRows(db, 'materials', [id], changes);
}

/** Replaces a material's matches. */
export function editMaterialMatches(db: CacheDb, materialId: string, matches: readonly MaterialMatch[]): Promise<void> {
  return replaceList(db, 'materialMatches', materialId, matches);
}

/** Replaces a material's financial values. */
export function editMaterialFinancialValues(db: CacheDb, materialId: string, values: readonly MaterialFinancialValue[]): Promise<void> {
  return replaceList(db, 'materialFinancialValues', materialId, values);
}

/** Creates a product; answers its temporary id. */
export async function createProduct(db: CacheDb, request: NewProduct): Promise<string> {
  const id = newLocalId();
  await insertRow(db, 'products', id, applyFields('products', emptyProduct(id, request.type), flattenFields(request)) as object);
  return id;
}

/** Changes any fields of a product. */
export function editProduct(db: CacheDb, id: string, changes: ProductChanges): Promise<void> {
  return updateRows(db, 'products', [id], changes);
}

/** Replaces a product's matches. */
export function editProductMatches(db: CacheDb, productId: string, matches: readonly ProductMatch[]): Promise<void> {
  return replaceList(db, 'productMatches', productId, matches);
}

/** Replaces a product's children (materials or products it holds, possibly new ones). */
export function editProductChildren(db: CacheDb, productId: string, children: readonly ProductChild[]): Promise<void> {
  return replaceList(db, 'productChildren', productId, children);
}

/** Replaces a product's financial values. */
export function editProductFinancialValues(db: CacheDb, productId: string, values: readonly ProductFinancialValue[]): Promise<void> {
  return replaceList(db, 'productFinancialValues', productId, values);
}

// --- decisions on parked entries --------------------------------------------------------------------------------------

async function parkedEntry(db: CacheDb, seq: number): Promise<OutboxEntry & { entity: EditedEntity }> {
  const entry = await db.outbox.get(seq);
  if (entry === undefined || entry.state !== 'parked') throw new Error(`Outbox entry ${seq} is not parked.`);
  if (entry.entity === 'files') throw new Error(`Outbox entry ${seq} changes a file, which edits never do.`);
  return entry as OutboxEntry & { entity: EditedEntity };
}

/**
 * Settles a conflict: `mine` sends the user's values over the server's, `theirs` drops the user's values of the
 * conflicting fields (the entry's other fields still go). Either way the server's row as read becomes the row's base,
 * so the server's other changes show at once.
 */
export async function resolveConflict(db: CacheDb, seq: number, choice: 'mine' | 'theirs'): Promise<void> {
  const { entity } = await parkedEntry(db, seq);
  await db.transaction('rw', [...tablesOf(entity), ...OUTBOX_TABLES], async () => {
    const entry = await parkedEntry(db, seq);
    const conflict = (await readDetail(db, seq))?.conflict;
    if (conflict == null) throw new Error(`Outbox entry ${seq} is parked for another reason than a conflict.`);
    const theirs = new Set(choice === 'theirs' ? conflict.fields.map((field) => field.path) : []);
    const fields = Object.fromEntries(Object.entries(entry.fields ?? {}).filter(([path]) => !theirs.has(path)));
    if (Object.keys(fields).length === 0) {
      await removeEntries(db, [seq]);
    } else {
      await db.outbox.update(seq, { fields, state: 'pending', lastError: null });
      await updateDetail(db, seq, { conflict: null });
    }
    await rebuildRow(db, entity, entry.key, conflict.server, now());
  });
}

/** Sends a parked entry again as it is (after the cause was fixed elsewhere, or to merge with the server again). */
export async function retryParked(db: CacheDb, seq: number): Promise<void> {
  await db.transaction('rw', ['outbox', 'syncState'], async () => {
    await parkedEntry(db, seq);
    await db.outbox.update(seq, { state: 'pending', lastError: null });
    if ((await readDetail(db, seq))?.conflict != null) await updateDetail(db, seq, { conflict: null });
  });
}

/**
 * Undoes one entry and the row goes back to the server's values, in one transaction. Discarding a create also
 * discards the later entries of its row, and, for a new portfolio, material or product, the entries that refer to it
 * (a building in the portfolio, a product holding the material …), which could never be sent without it.
 */
async function discard(db: CacheDb, entry: OutboxEntry & { entity: EditedEntity }, at: string): Promise<void> {
  const detail = await readDetail(db, entry.seq);
  const row = await getRow(db, entry.entity, entry.key);
  switch (entry.op) {
    case 'update': {
      await removeEntries(db, [entry.seq]);
      const server = detail?.conflict?.server ?? row?.base;
      if (server !== undefined) await rebuildRow(db, entry.entity, entry.key, server, at);
      // A list edited before it was ever fetched: the pull's background fill fetches it again.
      else if (isListEntity(entry.entity) && (await entriesOfRow(db, entry.entity, entry.key)).length === 0) await deleteRow(db, entry.entity, entry.key);
      return;
    }
    case 'delete': {
      await removeEntries(db, [entry.seq]);
      const removed = detail?.removedRow as StoredRow | null | undefined;
      if (removed == null) return;
      await rebuildRow(db, entry.entity, entry.key, removed.base ?? valuesOf(entry.entity, removed), at);
      return;
    }
    case 'create': {
      const ofRow = await entriesOfRow(db, entry.entity, entry.key);
      await removeEntries(
        db,
        ofRow.map((each) => each.seq),
      );
      await deleteRow(db, entry.entity, entry.key);
      if (!isLocalId(entry.key)) return;
      for (const dependant of await entriesReferringTo(db, entry.key)) {
        if (dependant.entity === 'files' || (await db.outbox.get(dependant.seq)) === undefined) continue;
        await discard(db, dependant as OutboxEntry & { entity: EditedEntity }, at);
      }
      return;
    }
    default:
      assertNever(entry.op, 'outbox op');
  }
}

/** Discards a parked entry: its change is dropped and the row holds the server's values again (see `discard`). */
export async function discardParked(db: CacheDb, seq: number): Promise<void> {
  await parkedEntry(db, seq);
  await db.transaction('rw', ALL_EDIT_TABLES, async () => {
    await discard(db, await parkedEntry(db, seq), now());
  });
}
