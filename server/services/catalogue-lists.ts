import type { InsertObject, Kysely } from 'kysely';
import type { MaterialMatch, MaterialMatchRequest } from '../../shared/api';
import type { DatedPrice, DatedPriceRequest } from '../../shared/api/schemas/dated-price';
import { MatchType, PriceUnit } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import type { DatabaseSchema } from '../store/tables';
import { readableCatalogueItem, writableCatalogueItem, type CatalogueTable } from './catalogue-access';
import { checkedEnum, invalidField, itemPath } from './catalogue-fields';
import { utcDateTime } from './utc-date-time';

/** A match rule of a material or product (ProductMatch has the same shape). */
export type CatalogueMatch = MaterialMatch;
/** A match rule as sent (ProductMatchRequest has the same shape). */
export type CatalogueMatchRequest = MaterialMatchRequest;
/** A dated price of a material or product. */
export type CatalogueFinancialValue = DatedPrice;
/** A dated price as sent. */
export type CatalogueFinancialValueRequest = DatedPriceRequest;

/** An ordered list that belongs to a material or product: its table and the column naming the item a row belongs to. */
export interface OwnedList<Table extends ListTable = ListTable> {
  readonly table: Table;
  readonly ownerColumn: 'materialId' | 'productId';
}

/** The tables of the ordered lists of materials and products. */
export type ListTable = 'material_matches' | 'product_matches' | 'material_financial_values' | 'product_financial_values' | 'product_children';

/** What a price defaults to when the request leaves it out (the schemas document these defaults). */
const DEFAULT_CURRENCY = 'EUR';
const DEFAULT_PRICE_UNIT = PriceUnit.mt;

/** ISO 4217 codes are three letters; which codes are assigned changes over time, so the shape is what is checked. */
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

// Stays well under SQLite's limit on bound parameters per statement, whatever the length of a replace-all body.
const ROWS_PER_INSERT = 500;

/** A list row's own columns, without its owner and position (for a union of tables: the columns they share). */
export type ListRow<Table extends ListTable> = Omit<DatabaseSchema[Table], 'position' | 'materialId' | 'productId'>;

/** A check run inside the write's transaction, with a context whose `db` is that transaction. */
export type ListWriteCheck = (transactionCtx: ServerContext) => Promise<void>;

/** The position after the last row of an item's list (0 for an empty list). */
async function nextPosition(db: Kysely<DatabaseSchema>, list: OwnedList, ownerId: string): Promise<number> {
  const { last } = await db
    .selectFrom(list.table)
    .select((eb) => eb.fn.max<number | null>('position').as('last'))
    .where(db.dynamic.ref(list.ownerColumn), '=', ownerId)
    .executeTakeFirstOrThrow();
  return last === null ? 0 : Number(last) + 1;
}

/** Inserts rows at consecutive positions from `firstPosition`, in the order given. */
async function insertRows<Table extends ListTable>(
  db: Kysely<DatabaseSchema>,
  list: OwnedList<Table>,
  ownerId: string,
  firstPosition: number,
  rows: readonly ListRow<Table>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT).map((row, index) => ({
      ...row,
      [list.ownerColumn]: ownerId,
      position: firstPosition + start + index,
    }));
    // Each list table holds its rows' own columns plus owner and position; Kysely cannot follow that through a union of tables.
    const table: ListTable = list.table;
    await db.insertInto(table).values(chunk as InsertObject<DatabaseSchema, ListTable>[]).execute();
  }
}

/** Runs `work` in a transaction, handing it a context whose queries go through that transaction. */
async function inTransaction(ctx: ServerContext, work: (transactionCtx: ServerContext) => Promise<void>): Promise<void> {
  // A query on ctx.db inside the transaction would wait for the one SQLite connection the transaction holds.
  await ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}

/** Appends one row to an item's list at the next position, after `check` passed in the same transaction. */
export async function appendListRow<Table extends ListTable>(
  ctx: ServerContext,
  list: OwnedList<Table>,
  ownerId: string,
  row: ListRow<Table>,
  check?: ListWriteCheck,
): Promise<void> {
  await inTransaction(ctx, async (transactionCtx) => {
    await check?.(transactionCtx);
    await insertRows(transactionCtx.db, list, ownerId, await nextPosition(transactionCtx.db, list, ownerId), [row]);
  });
}

/** Replaces an item's whole list in one transaction, after `check` passed in it: no reader sees it half written. */
export async function replaceListRows<Table extends ListTable>(
  ctx: ServerContext,
  list: OwnedList<Table>,
  ownerId: string,
  rows: readonly ListRow<Table>[],
  check?: ListWriteCheck,
): Promise<void> {
  await inTransaction(ctx, async (transactionCtx) => {
    await check?.(transactionCtx);
    const table: ListTable = list.table;
    await transactionCtx.db.deleteFrom(table).where(transactionCtx.db.dynamic.ref(list.ownerColumn), '=', ownerId).execute();
    await insertRows(transactionCtx.db, list, ownerId, 0, rows);
  });
}

/** How the items of one kind of list are written: the list of each catalogue, the check of a sent item, its wire shape. */
interface ItemList<Table extends ListTable, Request, Item> {
  readonly lists: Readonly<Record<CatalogueTable, OwnedList<Table>>>;
  checked(request: Request, now: Date, index?: number): ListRow<Table>;
  toItem(row: ListRow<Table>): Item;
}

/** The three operations on one kind of list of a material or product: read it, append to it, replace it. */
function itemListOperations<Table extends ListTable, Request, Item>(kind: ItemList<Table, Request, Item>) {
  return {
    /** The items of a readable material's or product's list, in their order. */
    list: async (ctx: ServerContext, principal: Principal, table: CatalogueTable, id: string): Promise<Item[]> => {
      await readableCatalogueItem(ctx, principal, table, id);
      const list: OwnedList = kind.lists[table];
      const rows = await ctx.db.selectFrom(list.table).selectAll().where(ctx.db.dynamic.ref(list.ownerColumn), '=', id).orderBy('position').execute();
      // Each list table holds its rows' own columns plus owner and position; Kysely cannot follow that through a union of tables.
      return rows.map((row) => kind.toItem(row as unknown as ListRow<Table>));
    },
    /** Appends an item to a writable material's or product's list. */
    add: async (ctx: ServerContext, principal: Principal, table: CatalogueTable, id: string, request: Request): Promise<Item> => {
      await writableCatalogueItem(ctx, principal, table, id);
      const row = kind.checked(request, ctx.now());
      await appendListRow(ctx, kind.lists[table], id, row);
      return kind.toItem(row);
    },
    /** Replaces a writable material's or product's whole list. */
    replace: async (ctx: ServerContext, principal: Principal, table: CatalogueTable, id: string, requests: readonly Request[]): Promise<Item[]> => {
      await writableCatalogueItem(ctx, principal, table, id);
      const now = ctx.now();
      const rows = requests.map((request, index) => kind.checked(request, now, index));
      await replaceListRows(ctx, kind.lists[table], id, rows);
      return rows.map((row) => kind.toItem(row));
    },
  };
}

// --- matches ----------------------------------------------------------------------------------------------------------

/** The stored columns of a match rule, the same in both catalogues. */
type MatchRow = ListRow<'material_matches' | 'product_matches'>;

/** The stored values of a match rule, its enum normalised. */
function checkedMatch(request: CatalogueMatchRequest, index?: number): MatchRow {
  return { value: request.value, matchType: checkedEnum(MatchType, request.matchType, itemPath(index, 'matchType')) };
}

/** The wire shape of a stored match rule. */
function toMatch(row: MatchRow): CatalogueMatch {
  return { value: row.value, matchType: row.matchType as MatchType };
}

/** The match rules of materials and products. */
const matchList: ItemList<'material_matches' | 'product_matches', CatalogueMatchRequest, CatalogueMatch> = {
  lists: {
    materials: { table: 'material_matches', ownerColumn: 'materialId' },
    products: { table: 'product_matches', ownerColumn: 'productId' },
  },
  checked: (request, _now, index) => checkedMatch(request, index),
  toItem: toMatch,
};

// --- financial values -------------------------------------------------------------------------------------------------

/** The stored columns of a price, the same in both catalogues. */
type FinancialValueRow = ListRow<'material_financial_values' | 'product_financial_values'>;

/** A price as this server writes it: always with its date and currency. */
type CheckedFinancialValueRow = FinancialValueRow & { valueDate: string; currency: string };

/** The stored values of a price: defaults filled in, the date in UTC, the currency upper case, the unit normalised. */
function checkedFinancialValue(request: CatalogueFinancialValueRequest, now: Date, index?: number): CheckedFinancialValueRow {
  const valueDate = utcDateTime(request.valueDate ?? now.toISOString(), itemPath(index, 'valueDate'));
  const currency = request.currency ?? DEFAULT_CURRENCY;
  if (!CURRENCY_CODE.test(currency)) {
    throw invalidField(itemPath(index, 'currency'), `'${currency}' is not an ISO 4217 currency code of three letters`);
  }
  const unit = request.unit ?? DEFAULT_PRICE_UNIT;
  return {
    value: request.value,
    valueDate,
    currency: currency.toUpperCase(),
    unit: checkedEnum(PriceUnit, unit, itemPath(index, 'unit')),
  };
}

/** The wire shape of a stored price; a price without date or currency was not written by this server. */
function toFinancialValue(row: FinancialValueRow): CatalogueFinancialValue {
  if (row.valueDate === null || row.currency === null) throw new Error('A stored financial value has no valueDate or currency');
  return { value: row.value, valueDate: row.valueDate, currency: row.currency, unit: row.unit as PriceUnit };
}

/** The prices of materials and products. */
const financialValueList: ItemList<'material_financial_values' | 'product_financial_values', CatalogueFinancialValueRequest, CatalogueFinancialValue> = {
  lists: {
    materials: { table: 'material_financial_values', ownerColumn: 'materialId' },
    products: { table: 'product_financial_values', ownerColumn: 'productId' },
  },
  checked: checkedFinancialValue,
  toItem: toFinancialValue,
};

/** The match rules of a material or product: read, append to and replace. */
export const { list: listMatches, add: addMatch, replace: replaceMatches } = itemListOperations(matchList);

/** The prices of a material or product: read, append to and replace. */
export const { list: listFinancialValues, add: addFinancialValue, replace: replaceFinancialValues } = itemListOperations(financialValueList);
