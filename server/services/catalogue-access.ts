import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { forbidden, notFound } from '../errors';
import { PLATFORM_DATABASE_ACCOUNT_ID } from '../store/seed/system-data';
import { canReadDatabase } from './accounts';

/** A catalogue table: materials or products. */
export type CatalogueTable = 'materials' | 'products';

/** The ownership facts of a catalogue item that access checks need; `accountId` is the item's database. */
export interface CatalogueItemOwnership {
  id: string;
  accountId: string;
}

/** How a catalogue item is named in answers. */
const itemNames: Readonly<Record<CatalogueTable, string>> = { materials: 'Material', products: 'Product' };

/** Whether the caller may read database `databaseId`: the platform's (open to every key), its own or an available one. */
async function isReadableDatabase(ctx: ServerContext, principal: Principal, databaseId: string): Promise<boolean> {
  return databaseId === PLATFORM_DATABASE_ACCOUNT_ID || (await canReadDatabase(ctx, principal, databaseId));
}

/** The database a catalogue list reads: `databaseId` if the caller may read it (else 404), the platform's when absent. */
export async function readableDatabaseId(
  ctx: ServerContext,
  principal: Principal,
  databaseId: string | undefined,
): Promise<string> {
  if (databaseId === undefined) return PLATFORM_DATABASE_ACCOUNT_ID;
  if (!(await isReadableDatabase(ctx, principal, databaseId))) throw notFound('Database', databaseId);
  return databaseId;
}

/** A material or product of a database the caller may read, or undefined when it is unknown or outside. */
export async function findReadableCatalogueItem(
  ctx: ServerContext,
  principal: Principal,
  table: CatalogueTable,
  id: string,
): Promise<CatalogueItemOwnership | undefined> {
  const item = await ctx.db.selectFrom(table).select(['id', 'accountId']).where('id', '=', id).executeTakeFirst();
  if (item === undefined || !(await isReadableDatabase(ctx, principal, item.accountId))) return undefined;
  return item;
}

/** A material or product of a database the caller may read, else 404. */
export async function readableCatalogueItem(
  ctx: ServerContext,
  principal: Principal,
  table: CatalogueTable,
  id: string,
): Promise<CatalogueItemOwnership> {
  const item = await findReadableCatalogueItem(ctx, principal, table, id);
  if (item === undefined) throw notFound(itemNames[table], id);
  return item;
}

/** 403 unless the key may change its account's catalogue: catalogues belong to the account (decisions §5). */
export function requireCatalogueWriter(principal: Principal): void {
  if (principal.scopeKind !== 'account') {
    throw forbidden(`Only an account key can change the account's catalogue; this key is limited to a ${principal.scopeKind}.`);
  }
}

/**
 * A material or product the caller may change: readable (else 404), in the caller's own database and asked with an
 * account key (else 403). Other databases, the platform's among them, are read-only.
 */
export async function writableCatalogueItem(
  ctx: ServerContext,
  principal: Principal,
  table: CatalogueTable,
  id: string,
): Promise<CatalogueItemOwnership> {
  const item = await readableCatalogueItem(ctx, principal, table, id);
  if (item.accountId !== principal.accountId) {
    throw forbidden(`${itemNames[table]} '${id}' belongs to a database that is read-only for this account.`);
  }
  requireCatalogueWriter(principal);
  return item;
}
