import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Material, MaterialFinancialValue, MaterialMatch, type Problem } from '../../../../shared/api';
import { Level } from '../../../../server/auth/principal';
import { PLATFORM_DATABASE_ACCOUNT_ID } from '../../../../server/store/seed/system-data';
import { startTestServer, type TestServer } from '../harness';
import { addSupplierDatabase, type SupplierDatabase } from './catalogue-test-data';

const API = '/api/v2.3';

/** A material request with every field set. */
const fullMaterial = {
  name: { nl: 'Gerecycled staal', en: 'Recycled steel' },
  elementFamily: 'metal',
  description: { en: 'Steel from scrap' },
  supplier: 'Steelworks',
  specificWeight: 7850,
  lifeTime: 80,
  circular: {
    recycledPercentageFeedstock: 0.6,
    rapidRenewablesPercentageFeedstock: 0,
    virginPercentageFeedstock: 0.4,
    recycledPercentageEndOfLife: 0.9,
    landfillPercentageEndOfLife: 0.05,
    incinerationPercentageEndOfLife: 0.05,
    efficiencyPercentageRecyclingFeedstock: 0.8,
    efficiencyPercentageRecyclingEndOfLife: 0.85,
  },
  financial: {
    importType: 10,
    priceSetId: 'steel',
    transportCosts: 0.07,
    handlingFeedstockEuroKg: 0.01,
    handlingFeedstockPercentage: 0.35,
  },
};

/** The circular block of a material whose request had none. */
const unknownCircular = {
  recycledPercentageFeedstock: null,
  rapidRenewablesPercentageFeedstock: null,
  virginPercentageFeedstock: null,
  recycledPercentageEndOfLife: null,
  landfillPercentageEndOfLife: null,
  incinerationPercentageEndOfLife: null,
  efficiencyPercentageRecyclingFeedstock: null,
  efficiencyPercentageRecyclingEndOfLife: null,
};

let test: TestServer;
/** An account-scope Write key: may change the account's catalogue. */
let writeKey: string;
/** An account-scope Read key. */
let readKey: string;
/** A portfolio-scope Write key: may read catalogues, not change them (decisions §5). */
let portfolioKey: string;
let platformMaterialId: string;
let supplier: SupplierDatabase;

/** Creates a material with the Write key and returns its answer. */
async function createMaterial(payload: object = fullMaterial): Promise<Material> {
  const response = await test.request({ method: 'POST', url: `${API}/materials`, payload, key: writeKey });
  expect(response.statusCode).toBe(201);
  return response.json<Material>();
}

/** The field paths a 400 answer names. */
function errorPaths(body: unknown): string[] {
  return (body as Problem).errors.map((error) => error.path);
}

beforeAll(async () => {
  test = await startTestServer();
  writeKey = await test.key('account', null, Level.Write);
  readKey = await test.key('account', null, Level.Read);
  // The portfolio need not exist: catalogue access depends on the key's scope kind and account only.
  portfolioKey = await test.key('portfolio', randomUUID(), Level.Write);
  const platform = await test.request({ method: 'GET', url: `${API}/materials`, key: readKey });
  platformMaterialId = platform.json<Material[]>()[0]?.id ?? '';
  supplier = await addSupplierDatabase(test);
});

afterAll(async () => {
  await test.close();
});

describe('GET /materials', () => {
  it("lists the platform's materials without databaseId, each valid with a name in six languages", async () => {
    const response = await test.request({ method: 'GET', url: `${API}/materials`, key: readKey });
    expect(response.statusCode).toBe(200);
    const materials = response.json<Material[]>();
    expect(materials.length).toBeGreaterThan(0);
    expect(Value.Check(Type.Array(Material), materials)).toBe(true);
    for (const material of materials) expect(Object.keys(material.name).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'nl']);
  });

  it('lets every key read the platform database, a building key too', async () => {
    const buildingKey = await test.key('building', randomUUID(), Level.Read);
    const response = await test.request({ method: 'GET', url: `${API}/materials?databaseId=${PLATFORM_DATABASE_ACCOUNT_ID}`, key: buildingKey });
    expect(response.statusCode).toBe(200);
    expect(response.json<Material[]>().length).toBeGreaterThan(0);
  });

  it("lists the caller's own database by its account id", async () => {
    const created = await createMaterial();
    const response = await test.request({ method: 'GET', url: `${API}/materials?databaseId=${test.server.localAccountId}`, key: readKey });
    expect(response.statusCode).toBe(200);
    expect(response.json<Material[]>()).toContainEqual(created);
  });

  it('answers 404 for a database that does not exist or is not available, and lists it once available', async () => {
    const unknown = await test.request({ method: 'GET', url: `${API}/materials?databaseId=${randomUUID()}`, key: readKey });
    expect(unknown.statusCode).toBe(404);
    const other = await addSupplierDatabase(test);
    const unavailable = await test.request({ method: 'GET', url: `${API}/materials?databaseId=${other.accountId}`, key: readKey });
    expect(unavailable.statusCode).toBe(404);
    const hiddenItem = await test.request({ method: 'GET', url: `${API}/materials/${other.materialId}`, key: readKey });
    expect(hiddenItem.statusCode).toBe(404);

    await other.makeAvailable();
    const available = await test.request({ method: 'GET', url: `${API}/materials?databaseId=${other.accountId}`, key: readKey });
    expect(available.statusCode).toBe(200);
    expect(available.json<Material[]>().map((material) => material.id)).toEqual([other.materialId]);
  });

  it('answers 400 for a databaseId that is not a uuid and 401 without a key', async () => {
    expect((await test.request({ method: 'GET', url: `${API}/materials?databaseId=nope`, key: readKey })).statusCode).toBe(400);
    expect((await test.request({ method: 'GET', url: `${API}/materials`, key: null })).statusCode).toBe(401);
  });
});

describe('POST /materials', () => {
  it('answers 400 for numbers no JSON can carry, which type coercion would read from "Infinity"', async () => {
    for (const lifeTime of ['-Infinity', 'Infinity']) {
      const response = await test.request({ method: 'POST', url: `${API}/materials`, payload: { ...fullMaterial, lifeTime }, key: writeKey });
      expect(response.statusCode).toBe(400);
      expect(response.json<Problem>().errors).toEqual([{ path: 'lifeTime', message: 'must be a finite number' }]);
    }
  });

  it('creates a material with 201, a Location and every field as sent; the id is the server’s', async () => {
    const sentId = randomUUID();
    const response = await test.request({ method: 'POST', url: `${API}/materials`, payload: { ...fullMaterial, id: sentId }, key: writeKey });
    expect(response.statusCode).toBe(201);
    const material = response.json<Material>();
    expect(Value.Check(Material, material)).toBe(true);
    expect(material.id).not.toBe(sentId);
    expect(response.headers.location).toBe(`${API}/materials/${material.id}`);
    expect(material).toEqual({ ...fullMaterial, id: material.id });

    const read = await test.request({ method: 'GET', url: `${API}/materials/${material.id}`, key: readKey });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(material);
  });

  it('answers every documented field for an empty request: null, empty texts, import type None', async () => {
    const material = await createMaterial({});
    expect(Value.Check(Material, material)).toBe(true);
    expect(material).toEqual({
      name: {},
      elementFamily: null,
      description: {},
      supplier: null,
      specificWeight: null,
      lifeTime: null,
      circular: unknownCircular,
      financial: { importType: 0, priceSetId: null, transportCosts: null, handlingFeedstockEuroKg: null, handlingFeedstockPercentage: null },
      id: material.id,
    });
  });

  it('accepts enum names in any letter case and leaves out null languages', async () => {
    const material = await createMaterial({ name: { en: 'Oak', nl: null }, financial: { importType: 'automaticIndex' } });
    expect(material.financial.importType).toBe(30);
    expect(material.name).toEqual({ en: 'Oak' });
  });

  it('answers 400 naming the field for values outside the limits of spec §8', async () => {
    const cases: [object, string][] = [
      [{ circular: { recycledPercentageFeedstock: 1.5 } }, 'circular.recycledPercentageFeedstock'],
      [{ circular: { efficiencyPercentageRecyclingEndOfLife: -0.1 } }, 'circular.efficiencyPercentageRecyclingEndOfLife'],
      [{ financial: { importType: 'Imported' } }, 'financial.importType'],
      [{ lifeTime: 1.5 }, 'lifeTime'],
      [{ name: 'Steel' }, 'name'],
    ];
    for (const [payload, path] of cases) {
      const response = await test.request({ method: 'POST', url: `${API}/materials`, payload, key: writeKey });
      expect(response.statusCode, path).toBe(400);
      expect(errorPaths(response.json()), path).toContain(path);
    }
  });

  it('accepts virgin and incineration shares beyond 1, which spec §8 leaves unbounded', async () => {
    const material = await createMaterial({ circular: { virginPercentageFeedstock: 1.2, incinerationPercentageEndOfLife: 1.1 } });
    expect(material.circular.virginPercentageFeedstock).toBe(1.2);
  });

  it('answers 403 to a Read key and to a portfolio key, 401 without a key', async () => {
    for (const key of [readKey, portfolioKey]) {
      const response = await test.request({ method: 'POST', url: `${API}/materials`, payload: fullMaterial, key });
      expect(response.statusCode).toBe(403);
    }
    expect((await test.request({ method: 'POST', url: `${API}/materials`, payload: fullMaterial, key: null })).statusCode).toBe(401);
  });
});

describe('GET and PUT /materials/{id}', () => {
  it('replaces the material entirely: fields left out become null or empty', async () => {
    const created = await createMaterial();
    const response = await test.request({
      method: 'PUT',
      url: `${API}/materials/${created.id}`,
      payload: { name: { en: 'Steel' }, circular: { recycledPercentageFeedstock: 0.2 } },
      key: writeKey,
    });
    expect(response.statusCode).toBe(200);
    const replaced = response.json<Material>();
    expect(Value.Check(Material, replaced)).toBe(true);
    expect(replaced).toEqual({
      name: { en: 'Steel' },
      elementFamily: null,
      description: {},
      supplier: null,
      specificWeight: null,
      lifeTime: null,
      circular: { ...unknownCircular, recycledPercentageFeedstock: 0.2 },
      financial: { importType: 0, priceSetId: null, transportCosts: null, handlingFeedstockEuroKg: null, handlingFeedstockPercentage: null },
      id: created.id,
    });
    expect((await test.request({ method: 'GET', url: `${API}/materials/${created.id}`, key: readKey })).json()).toEqual(replaced);
  });

  it('reads platform materials and materials of available databases', async () => {
    const platform = await test.request({ method: 'GET', url: `${API}/materials/${platformMaterialId}`, key: readKey });
    expect(platform.statusCode).toBe(200);
    expect(Value.Check(Material, platform.json())).toBe(true);
    await supplier.makeAvailable();
    const supplied = await test.request({ method: 'GET', url: `${API}/materials/${supplier.materialId}`, key: readKey });
    expect(supplied.statusCode).toBe(200);
  });

  it('lets a portfolio key read but not change the account’s material', async () => {
    const created = await createMaterial();
    expect((await test.request({ method: 'GET', url: `${API}/materials/${created.id}`, key: portfolioKey })).statusCode).toBe(200);
    const put = await test.request({ method: 'PUT', url: `${API}/materials/${created.id}`, payload: fullMaterial, key: portfolioKey });
    expect(put.statusCode).toBe(403);
  });

  it('answers 403 for a Read key and for writing a read-only database (the platform’s, a supplier’s)', async () => {
    const created = await createMaterial();
    const readOnlyKey = await test.request({ method: 'PUT', url: `${API}/materials/${created.id}`, payload: fullMaterial, key: readKey });
    expect(readOnlyKey.statusCode).toBe(403);
    for (const id of [platformMaterialId, supplier.materialId]) {
      const response = await test.request({ method: 'PUT', url: `${API}/materials/${id}`, payload: fullMaterial, key: writeKey });
      expect(response.statusCode).toBe(403);
    }
  });

  it('answers 404 for an unknown id, also to a key whose level is too low', async () => {
    const id = randomUUID();
    expect((await test.request({ method: 'GET', url: `${API}/materials/${id}`, key: readKey })).statusCode).toBe(404);
    expect((await test.request({ method: 'PUT', url: `${API}/materials/${id}`, payload: fullMaterial, key: writeKey })).statusCode).toBe(404);
    expect((await test.request({ method: 'PUT', url: `${API}/materials/${id}`, payload: fullMaterial, key: readKey })).statusCode).toBe(404);
  });

  it('answers 400 for a bad body on replace', async () => {
    const created = await createMaterial();
    const response = await test.request({
      method: 'PUT',
      url: `${API}/materials/${created.id}`,
      payload: { specificWeight: -1 },
      key: writeKey,
    });
    expect(response.statusCode).toBe(400);
    expect(errorPaths(response.json())).toContain('specificWeight');
  });
});

describe('/materials/{id}/matches', () => {
  it("lists the platform material's matches", async () => {
    const response = await test.request({ method: 'GET', url: `${API}/materials/${platformMaterialId}/matches`, key: readKey });
    expect(response.statusCode).toBe(200);
    expect(Value.Check(Type.Array(MaterialMatch), response.json())).toBe(true);
  });

  it('adds with 200 at the end, accepts match type names, and replaces all', async () => {
    const { id } = await createMaterial();
    const url = `${API}/materials/${id}/matches`;
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([]);

    const first = await test.request({ method: 'POST', url, payload: { value: 'steel', matchType: 'contains' }, key: writeKey });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ value: 'steel', matchType: 10 });
    await test.request({ method: 'POST', url, payload: { value: 'S235', matchType: 11 }, key: writeKey });
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([
      { value: 'steel', matchType: 10 },
      { value: 'S235', matchType: 11 },
    ]);

    const replaced = await test.request({
      method: 'PUT',
      url,
      payload: [
        { value: 'staal', matchType: 'StartWith' },
        { value: 'beam', matchType: 'ENDSWITH' },
      ],
      key: writeKey,
    });
    expect(replaced.statusCode).toBe(200);
    const expected = [
      { value: 'staal', matchType: 12 },
      { value: 'beam', matchType: 13 },
    ];
    expect(replaced.json()).toEqual(expected);
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual(expected);

    await test.request({ method: 'POST', url, payload: { value: 'ijzer', matchType: 10 }, key: writeKey });
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([...expected, { value: 'ijzer', matchType: 10 }]);

    const emptied = await test.request({ method: 'PUT', url, payload: [], key: writeKey });
    expect(emptied.json()).toEqual([]);
  });

  it('answers 400 naming the field of a bad match, and changes nothing', async () => {
    const { id } = await createMaterial();
    const url = `${API}/materials/${id}/matches`;
    const badType = await test.request({ method: 'POST', url, payload: { value: 'x', matchType: 'Fuzzy' }, key: writeKey });
    expect(badType.statusCode).toBe(400);
    expect(errorPaths(badType.json())).toContain('matchType');
    const emptyValue = await test.request({ method: 'POST', url, payload: { value: '', matchType: 10 }, key: writeKey });
    expect(errorPaths(emptyValue.json())).toContain('value');
    const badList = await test.request({
      method: 'PUT',
      url,
      payload: [{ value: 'a', matchType: 10 }, { value: 'b' }],
      key: writeKey,
    });
    expect(badList.statusCode).toBe(400);
    expect(errorPaths(badList.json())).toContain('1.matchType');
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([]);
  });

  it('answers 403 for matches of a platform material and 404 for an unknown material', async () => {
    const forbidden = await test.request({
      method: 'POST',
      url: `${API}/materials/${platformMaterialId}/matches`,
      payload: { value: 'x', matchType: 10 },
      key: writeKey,
    });
    expect(forbidden.statusCode).toBe(403);
    const unknown = await test.request({ method: 'GET', url: `${API}/materials/${randomUUID()}/matches`, key: readKey });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('/materials/{id}/financialvalues', () => {
  it("lists the platform material's prices", async () => {
    const response = await test.request({ method: 'GET', url: `${API}/materials/${platformMaterialId}/financialvalues`, key: readKey });
    expect(response.statusCode).toBe(200);
    expect(Value.Check(Type.Array(MaterialFinancialValue), response.json())).toBe(true);
  });

  it('adds with 200, filling defaults and normalising date, currency and unit names', async () => {
    const { id } = await createMaterial();
    const url = `${API}/materials/${id}/financialvalues`;
    const defaulted = await test.request({ method: 'POST', url, payload: { value: 120 }, key: writeKey });
    expect(defaulted.statusCode).toBe(200);
    const price = defaulted.json<MaterialFinancialValue>();
    expect(Value.Check(MaterialFinancialValue, price)).toBe(true);
    expect(price).toMatchObject({ value: 120, currency: 'EUR', unit: 0 });
    expect(Number.isNaN(Date.parse(price.valueDate))).toBe(false);

    const named = await test.request({
      method: 'POST',
      url,
      payload: { value: 0.25, valueDate: '2024-01-15T10:00:00+01:00', currency: 'usd', unit: 'KG' },
      key: writeKey,
    });
    expect(named.json()).toEqual({ value: 0.25, valueDate: '2024-01-15T09:00:00.000Z', currency: 'USD', unit: 1 });
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([price, named.json()]);
  });

  it('replaces all prices with 200', async () => {
    const { id } = await createMaterial();
    const url = `${API}/materials/${id}/financialvalues`;
    await test.request({ method: 'POST', url, payload: { value: 1 }, key: writeKey });
    const prices = [
      { value: 300, valueDate: '2023-06-01T00:00:00Z', currency: 'EUR', unit: 2 },
      { value: 1800, valueDate: '2024-06-01T00:00:00.000Z', currency: 'GBP', unit: 'toz' },
    ];
    const replaced = await test.request({ method: 'PUT', url, payload: prices, key: writeKey });
    expect(replaced.statusCode).toBe(200);
    const expected = [
      { value: 300, valueDate: '2023-06-01T00:00:00.000Z', currency: 'EUR', unit: 2 },
      { value: 1800, valueDate: '2024-06-01T00:00:00.000Z', currency: 'GBP', unit: 4 },
    ];
    expect(replaced.json()).toEqual(expected);
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual(expected);
  });

  it('answers 400 for a currency that is not three letters or a date that is not a date, and changes nothing', async () => {
    const { id } = await createMaterial();
    const url = `${API}/materials/${id}/financialvalues`;
    const badCurrency = await test.request({ method: 'POST', url, payload: { value: 1, currency: 'EURO' }, key: writeKey });
    expect(badCurrency.statusCode).toBe(400);
    expect(errorPaths(badCurrency.json())).toEqual(['currency']);
    const badDate = await test.request({ method: 'POST', url, payload: { value: 1, valueDate: 'yesterday' }, key: writeKey });
    expect(badDate.statusCode).toBe(400);
    expect(errorPaths(badDate.json())).toContain('valueDate');
    const badUnit = await test.request({ method: 'POST', url, payload: { value: 1, unit: 9 }, key: writeKey });
    expect(badUnit.statusCode).toBe(400);
    const badList = await test.request({
      method: 'PUT',
      url,
      payload: [{ value: 1 }, { value: 2, currency: '€' }],
      key: writeKey,
    });
    expect(badList.statusCode).toBe(400);
    expect(errorPaths(badList.json())).toEqual(['1.currency']);
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual([]);
  });

  it('answers 403 for prices of a platform material or with a Read key', async () => {
    const platform = await test.request({
      method: 'PUT',
      url: `${API}/materials/${platformMaterialId}/financialvalues`,
      payload: [],
      key: writeKey,
    });
    expect(platform.statusCode).toBe(403);
    const { id } = await createMaterial();
    const readOnly = await test.request({ method: 'POST', url: `${API}/materials/${id}/financialvalues`, payload: { value: 1 }, key: readKey });
    expect(readOnly.statusCode).toBe(403);
  });
});
