import type { AccountResponse } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import type { AccountsTable } from '../store/tables';

/** The wire shape of an account. */
function toAccountResponse(row: Pick<AccountsTable, 'id' | 'name' | 'accountType'>): AccountResponse {
  return { id: row.id, name: row.name, accountType: row.accountType as AccountResponse['accountType'] };
}

/** The account of the caller's token. */
export async function currentAccount(ctx: ServerContext, principal: Principal): Promise<AccountResponse> {
  const row = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'name', 'accountType'])
    .where('id', '=', principal.accountId)
    .executeTakeFirstOrThrow();
  return toAccountResponse(row);
}

/** The element databases the caller's account may use, in preference order. */
export async function availableDatabases(ctx: ServerContext, principal: Principal): Promise<AccountResponse[]> {
  const rows = await ctx.db
    .selectFrom('account_databases')
    .innerJoin('accounts', 'accounts.id', 'account_databases.databaseAccountId')
    .select(['accounts.id', 'accounts.name', 'accounts.accountType'])
    .where('account_databases.accountId', '=', principal.accountId)
    .orderBy('account_databases.position')
    .execute();
  return rows.map(toAccountResponse);
}

/** Whether the caller may read the catalogue of database `databaseId`: its own account or an available database. */
export async function canReadDatabase(ctx: ServerContext, principal: Principal, databaseId: string): Promise<boolean> {
  if (databaseId === principal.accountId) return true;
  const row = await ctx.db
    .selectFrom('account_databases')
    .select('databaseAccountId')
    .where('accountId', '=', principal.accountId)
    .where('databaseAccountId', '=', databaseId)
    .executeTakeFirst();
  return row !== undefined;
}
