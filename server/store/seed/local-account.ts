import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../tables';
import { LOCAL_WORKSPACE_ACCOUNT_NAME } from '../../../shared/embedded-server';
import { PLATFORM_DATABASE_ACCOUNT_ID } from './system-data';

/** Id of the one General account a server serves (the embedded server's is named "Local workspace"). */
export const LOCAL_ACCOUNT_ID = 'b988b19a-1228-42b6-98a2-e27d0836d259';

/** Id of the one user of the local account. */
export const LOCAL_USER_ID = '0eef6caa-5033-4e54-8051-119db66a53c2';

const GENERAL_ACCOUNT_TYPE = 3;

/**
 * The account's name: given to the account when it is created, and with `rename` also to an account that exists (an
 * administrator naming a server that was first started, or copied from a Local workspace, under another name).
 */
export interface AccountNaming {
  name: string;
  rename: boolean;
}

/** Creates what is missing of the local account, its user and its databases; run after `seedSystemData`. */
export async function ensureLocalAccount(
  db: Kysely<DatabaseSchema>,
  naming: AccountNaming = { name: LOCAL_WORKSPACE_ACCOUNT_NAME, rename: false },
): Promise<{ accountId: string }> {
  // Insert-or-ignore keeps it idempotent and leaves what exists (a renamed account, a changed user) as it is.
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    await trx
      .insertInto('accounts')
      .values({ id: LOCAL_ACCOUNT_ID, name: naming.name, accountType: GENERAL_ACCOUNT_TYPE, createdAt: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    if (naming.rename) await trx.updateTable('accounts').set({ name: naming.name }).where('id', '=', LOCAL_ACCOUNT_ID).execute();
    await trx
      .insertInto('users')
      .values({ id: LOCAL_USER_ID, accountId: LOCAL_ACCOUNT_ID, name: 'Local user', email: null, createdAt: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await trx
      .insertInto('account_databases')
      .values({ accountId: LOCAL_ACCOUNT_ID, databaseAccountId: PLATFORM_DATABASE_ACCOUNT_ID, position: 0 })
      .onConflict((oc) => oc.columns(['accountId', 'databaseAccountId']).doNothing())
      .execute();
  });
  return { accountId: LOCAL_ACCOUNT_ID };
}
