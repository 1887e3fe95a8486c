import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import type { MaterialsTable, ProductsTable } from '../store/tables';
import { scheduleRecount } from './catalogue-recount';
import { readableCatalogueItem, readableDatabaseId, requireCatalogueWriter, writableCatalogueItem, type CatalogueTable } from './catalogue-access';

/** The stored row of each catalogue table. */
interface CatalogueRows {
  materials: MaterialsTable;
  products: ProductsTable;
}

/** The columns a request sets: everything but identity, database and timestamps. */
export type CatalogueColumns<Table extends CatalogueTable> = Omit<CatalogueRows[Table], 'id' | 'accountId' | 'createdAt' | 'updatedAt'>;

/** How one catalogue (materials or products) stores and answers its items; the rest is the same for both. */
export interface CatalogueKind<Table extends CatalogueTable, Wire, Request> {
  readonly table: Table;
  toWire(row: CatalogueRows[Table]): Wire;
  /** The columns of a request; a field left out is null (or empty), so a replace replaces everything. */
  columns(request: Request): CatalogueColumns<Table>;
}

/**
 * The table of a kind, typed as `materials` for Kysely: its query builder cannot take a table that is a type
 * parameter, and every column used here (id, accountId, createdAt, updatedAt) is in both tables.
 */
function asQueryTable(table: CatalogueTable): 'materials' {
  return table as 'materials';
}

/** A stored item by id; the caller has checked access. */
async function itemRow<Table extends CatalogueTable>(ctx: ServerContext, table: Table, id: string): Promise<CatalogueRows[Table]> {
  const row = await ctx.db.selectFrom(asQueryTable(table)).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return row as CatalogueRows[Table];
}

/** The items of a database the caller may read: the platform's when `databaseId` is absent. */
export async function listCatalogueItems<Table extends CatalogueTable, Wire, Request>(
  ctx: ServerContext,
  principal: Principal,
  kind: CatalogueKind<Table, Wire, Request>,
  databaseId: string | undefined,
): Promise<Wire[]> {
  const accountId = await readableDatabaseId(ctx, principal, databaseId);
  const rows = await ctx.db.selectFrom(asQueryTable(kind.table)).selectAll().where('accountId', '=', accountId).orderBy('createdAt').orderBy('id').execute();
  return (rows as unknown as CatalogueRows[Table][]).map((row) => kind.toWire(row));
}

/** An item of a database the caller may read, else 404. */
export async function getCatalogueItem<Table extends CatalogueTable, Wire, Request>(
  ctx: ServerContext,
  principal: Principal,
  kind: CatalogueKind<Table, Wire, Request>,
  id: string,
): Promise<Wire> {
  await readableCatalogueItem(ctx, principal, kind.table, id);
  return kind.toWire(await itemRow(ctx, kind.table, id));
}

/** Creates an item in the caller's own database; the id is the server's, whatever the request says. */
export async function createCatalogueItem<Table extends CatalogueTable, Wire, Request>(
  ctx: ServerContext,
  principal: Principal,
  kind: CatalogueKind<Table, Wire, Request>,
  request: Request,
): Promise<Wire> {
  requireCatalogueWriter(principal);
  const now = ctx.now().toISOString();
  const row = { ...kind.columns(request), id: randomUUID(), accountId: principal.accountId, createdAt: now, updatedAt: now } as CatalogueRows[Table];
  await ctx.db.insertInto(asQueryTable(kind.table)).values(row as unknown as MaterialsTable).execute();
  return kind.toWire(row);
}

/**
 * Replaces every field of an item of the caller's database (its lists have their own endpoints); the files that reach
 * it are counted again.
 */
export async function replaceCatalogueItem<Table extends CatalogueTable, Wire, Request>(
  ctx: ServerContext,
  principal: Principal,
  kind: CatalogueKind<Table, Wire, Request>,
  id: string,
  request: Request,
): Promise<Wire> {
  await writableCatalogueItem(ctx, principal, kind.table, id);
  const columns = { ...kind.columns(request), updatedAt: ctx.now().toISOString() };
  await ctx.db
    .updateTable(asQueryTable(kind.table))
    .set(columns as unknown as Partial<MaterialsTable>)
    .where('id', '=', id)
    .execute();
  await scheduleRecount(ctx.db, id, ctx.now());
  return kind.toWire(await itemRow(ctx, kind.table, id));
}
