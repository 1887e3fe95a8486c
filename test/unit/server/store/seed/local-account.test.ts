import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../../server/store/store';
import { LOCAL_ACCOUNT_ID, LOCAL_USER_ID, ensureLocalAccount } from '../../../../../server/store/seed/local-account';
import { PLATFORM_DATABASE_ACCOUNT_ID, seedSystemData } from '../../../../../server/store/seed/system-data';

let database: Database;

beforeEach(async () => {
  database = await openDatabase(':memory:');
  await seedSystemData(database.db);
});

afterEach(async () => {
  await database.close();
});

async function localRows(db: Database['db']) {
  return {
    account: await db.selectFrom('accounts').selectAll().where('id', '=', LOCAL_ACCOUNT_ID).execute(),
    users: await db.selectFrom('users').selectAll().execute(),
    databases: await db.selectFrom('account_databases').selectAll().execute(),
  };
}

describe('ensureLocalAccount', () => {
  it('creates the local General account with its user and the platform database', async () => {
    expect(await ensureLocalAccount(database.db)).toEqual({ accountId: LOCAL_ACCOUNT_ID });
    const rows = await localRows(database.db);
    expect(rows.account).toEqual([expect.objectContaining({ name: 'Local workspace', accountType: 3 })]);
    expect(rows.users).toEqual([
      expect.objectContaining({ id: LOCAL_USER_ID, accountId: LOCAL_ACCOUNT_ID, name: 'Local user', email: null }),
    ]);
    expect(rows.databases).toEqual([
      { accountId: LOCAL_ACCOUNT_ID, databaseAccountId: PLATFORM_DATABASE_ACCOUNT_ID, position: 0 },
    ]);
  });

  it('names a new account as told, and renames an existing one only when asked to', async () => {
    await ensureLocalAccount(database.db, { name: 'Circularity Desk on build-7', rename: false });
    await ensureLocalAccount(database.db, { name: 'Someone else', rename: false });
    expect((await localRows(database.db)).account).toEqual([expect.objectContaining({ name: 'Circularity Desk on build-7' })]);
    await ensureLocalAccount(database.db, { name: 'Team Noord', rename: true });
    expect((await localRows(database.db)).account).toEqual([expect.objectContaining({ name: 'Team Noord' })]);
  });

  it('is idempotent', async () => {
    await ensureLocalAccount(database.db);
    const first = await localRows(database.db);
    expect(await ensureLocalAccount(database.db)).toEqual({ accountId: LOCAL_ACCOUNT_ID });
    expect(await localRows(database.db)).toEqual(first);
  });
});
