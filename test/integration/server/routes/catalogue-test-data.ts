import { randomUUID } from 'node:crypto';
import { ProductCircularInformation } from '../../../../shared/api';
import type { TestServer } from '../harness';

/** Supplier is the account type of an element database that is not the platform's (spec §2.1). */
const SUPPLIER_ACCOUNT_TYPE = 2;

/** A material as the platform's own seed writes it: every field, six languages. */
function storedMaterial(id: string, accountId: string, now: string) {
  const name = JSON.stringify({ nl: 'Hout', en: 'Wood', de: 'Holz', it: 'Legno', fr: 'Bois', es: 'Madera' });
  return {
    id,
    accountId,
    name,
    elementFamily: 'wood',
    description: JSON.stringify({}),
    supplier: 'Supplier',
    specificWeight: 500,
    lifeTime: 40,
    circular: JSON.stringify({
      recycledPercentageFeedstock: 0,
      rapidRenewablesPercentageFeedstock: 1,
      virginPercentageFeedstock: 0,
      recycledPercentageEndOfLife: 0.5,
      landfillPercentageEndOfLife: 0.5,
      incinerationPercentageEndOfLife: 0,
      efficiencyPercentageRecyclingFeedstock: null,
      efficiencyPercentageRecyclingEndOfLife: null,
    }),
    financial: JSON.stringify({
      importType: 0,
      priceSetId: null,
      transportCosts: null,
      handlingFeedstockEuroKg: null,
      handlingFeedstockPercentage: null,
    }),
    createdAt: now,
    updatedAt: now,
  };
}

/** Another element database with one material and one product, written to the store directly (no API creates one). */
export interface SupplierDatabase {
  accountId: string;
  materialId: string;
  productId: string;
  /** Lists the database among the local account's available databases. */
  makeAvailable(): Promise<void>;
}

/** Creates a supplier database that the local account cannot read until `makeAvailable`. */
export async function addSupplierDatabase(test: TestServer): Promise<SupplierDatabase> {
  const { db } = test.server.context;
  const accountId = randomUUID();
  const materialId = randomUUID();
  const productId = randomUUID();
  const now = new Date().toISOString();
  await db.insertInto('accounts').values({ id: accountId, name: 'Supplier database', accountType: SUPPLIER_ACCOUNT_TYPE, createdAt: now }).execute();
  await db.insertInto('materials').values(storedMaterial(materialId, accountId, now)).execute();
  await db
    .insertInto('products')
    .values({
      id: productId,
      accountId,
      name: JSON.stringify({ en: 'Window frame' }),
      type: 30,
      description: JSON.stringify({}),
      supplier: 'Supplier',
      productCode: null,
      circular: JSON.stringify(Object.fromEntries(Object.keys(ProductCircularInformation.properties).map((field) => [field, null]))),
      fixedDimensions: '[]',
      defaultDimensions: '[]',
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return {
    accountId,
    materialId,
    productId,
    makeAvailable: async () => {
      await db
        .insertInto('account_databases')
        .values({ accountId: test.server.localAccountId, databaseAccountId: accountId, position: 1 })
        .execute();
    },
  };
}
