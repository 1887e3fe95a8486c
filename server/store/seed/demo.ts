import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BuildingsTable, DatabaseSchema, PortfoliosTable } from '../tables';
import { newBuildingState } from '../../services/buildings';
import { NL_SFB_METHOD_ID } from './system-data';

/** Name of the sample portfolio; its presence in an account means the demo was seeded there. */
export const DEMO_PORTFOLIO_NAME = 'Demo portfolio';

/** Name of the sample building (demo-model.ts gives it its model). */
export const DEMO_BUILDING_NAME = 'Demo office, Utrecht';

/** Creates the sample portfolio with one office building in `accountId`, unless the account already has it. */
export async function seedDemo(db: Kysely<DatabaseSchema>, accountId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('portfolios')
      .select('id')
      .where('accountId', '=', accountId)
      .where('name', '=', DEMO_PORTFOLIO_NAME)
      .executeTakeFirst();
    if (existing !== undefined) {
      return;
    }
    const now = new Date().toISOString();
    const portfolio: PortfoliosTable = {
      id: randomUUID(),
      accountId,
      name: DEMO_PORTFOLIO_NAME,
      logo: null,
      logoBlobKey: null,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto('portfolios').values(portfolio).execute();
    await trx.insertInto('buildings').values(demoBuilding(accountId, portfolio.id, now)).execute();
  });
}

function demoBuilding(accountId: string, portfolioId: string, now: string): BuildingsTable {
  return {
    id: randomUUID(),
    accountId,
    portfolioId,
    name: DEMO_BUILDING_NAME,
    cadastralDesignation: null,
    cadastralArea: 2150,
    parcelnumber: null,
    publicLawRestriction: null,
    completionDate: '2014-06-30T00:00:00.000Z',
    lastRenovationDate: null,
    addressStreet: 'Europalaan',
    addressHousenumber: '40',
    addressHousenumberAddition: null,
    addressZipcode: '3526 KS',
    addressCity: 'Utrecht',
    addressCountry: 'NL',
    // One of the platform's building usage types.
    buildingUsage: 'Offices Large',
    grossSurfaceArea: 6400,
    energyLabel: 'A',
    energyPerformanceCoefficient: null,
    energyIndex: null,
    // Years: the industry averages of decisions §6, except the structure, which lasts as long as the building.
    expectedLifespan: 75,
    expectedLifespanStructure: 75,
    expectedLifespanSkin: 20,
    expectedLifespanServices: 15,
    expectedLifespanSpacePlan: 10,
    expectedLifespanStuff: 5,
    breeamLabel: null,
    gprLabel: null,
    mpgLabel: null,
    leedLabel: null,
    wellScoreBuilding: null,
    wellScoreInterior: null,
    wellScoreCoreAndShell: null,
    classificationType: NL_SFB_METHOD_ID,
    ...newBuildingState(now),
    geoLatitude: 52.0797,
    geoLongtitude: 5.1077,
  };
}
