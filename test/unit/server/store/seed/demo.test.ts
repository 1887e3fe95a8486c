import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../../server/store/store';
import { DEMO_PORTFOLIO_NAME, seedDemo } from '../../../../../server/store/seed/demo';
import { ensureLocalAccount } from '../../../../../server/store/seed/local-account';
import { NL_SFB_METHOD_ID, seedSystemData } from '../../../../../server/store/seed/system-data';

let database: Database;
let accountId: string;

beforeEach(async () => {
  database = await openDatabase(':memory:');
  await seedSystemData(database.db);
  ({ accountId } = await ensureLocalAccount(database.db));
});

afterEach(async () => {
  await database.close();
});

describe('seedDemo', () => {
  it('creates a portfolio with one building in the account', async () => {
    await seedDemo(database.db, accountId);
    const portfolios = await database.db.selectFrom('portfolios').selectAll().execute();
    expect(portfolios).toEqual([expect.objectContaining({ accountId, name: DEMO_PORTFOLIO_NAME })]);
    const buildings = await database.db.selectFrom('buildings').selectAll().execute();
    expect(buildings).toEqual([
      expect.objectContaining({
        accountId,
        portfolioId: portfolios[0]?.id,
        name: 'Demo office, Utrecht',
        addressCity: 'Utrecht',
        expectedLifespan: 75,
        classificationType: NL_SFB_METHOD_ID,
        images: '[]',
        isDirty: 0,
        hasDirtyElements: 0,
      }),
    ]);
    expect(Number.isNaN(Date.parse(buildings[0]?.completionDate ?? ''))).toBe(false);
  });

  it('is idempotent', async () => {
    await seedDemo(database.db, accountId);
    const portfolios = await database.db.selectFrom('portfolios').selectAll().execute();
    const buildings = await database.db.selectFrom('buildings').selectAll().execute();
    await seedDemo(database.db, accountId);
    expect(await database.db.selectFrom('portfolios').selectAll().execute()).toEqual(portfolios);
    expect(await database.db.selectFrom('buildings').selectAll().execute()).toEqual(buildings);
  });
});
