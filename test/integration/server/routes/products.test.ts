import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Product, ProductChild, ProductFinancialValue, ProductMatch, type Material, type Problem } from '../../../../shared/api';
import { Level } from '../../../../server/auth/principal';
import { startTestServer, type TestServer } from '../harness';
import { addSupplierDatabase, type SupplierDatabase } from './catalogue-test-data';

const API = '/api/v2.3';

/** A product request with every field set. */
const fullProduct = {
  name: { nl: 'Kozijn', en: 'Window frame', de: 'Fensterrahmen' },
  type: 30,
  description: { en: 'Timber frame with double glazing' },
  supplier: 'Frames Inc.',
  productCode: '8712345678906',
  circular: {
    recycledPercentageFeedstock: 0.2,
    rapidRenewablesPercentageFeedstock: 0.5,
    virginPercentageFeedstock: 0.3,
    recycledPercentageEndOfLife: 0.6,
    landfillPercentageEndOfLife: 0.2,
    incinerationPercentageEndOfLife: 0.2,
    efficiencyPercentageRecyclingFeedstock: 0.75,
    efficiencyPercentageRecyclingEndOfLife: 0.75,
    technicalLifetime: 60,
    functionalLifetime: 40,
    productReusedPercentageFeedstock: 0.1,
    productRecycledPercentageFeedstock: 0.2,
    productRapidRenewablesPercentageFeedstock: 0.3,
    productVirginPercentageFeedstock: 0.4,
    productReusedPercentageEndOfLife: 0.5,
    productRecycledPercentageEndOfLife: 0.3,
    productLandfillPercentageEndOfLife: 0.1,
    productIncinerationPercentageEndOfLife: 0.1,
  },
  fixedDimensions: [{ dimensionValue: 1.2, dimensionType: 1 }],
  defaultDimensions: [{ dimensionValue: 2.1, dimensionType: 2 }],
};

/** The circular block of a child relation whose request had none. */
const defaultChildCircular = {
  inheritFeedstockPercentages: false,
  recycledPercentageFeedstock: null,
  rapidRenewablesPercentageFeedstock: null,
  inheritEndOfLifePercentages: false,
  recycledPercentageEndOfLife: null,
  landfillPercentageEndOfLife: null,
  inheritEfficiencyPercentages: false,
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
/** A supplier database the local account may read. */
let supplier: SupplierDatabase;

/** Creates a product with the Write key and returns its answer. */
async function createProduct(payload: object = fullProduct): Promise<Product> {
  const response = await test.request({ method: 'POST', url: `${API}/products`, payload, key: writeKey });
  expect(response.statusCode).toBe(201);
  return response.json<Product>();
}

/** Adds a child to a product with the Write key and returns the answer. */
function addChild(productId: string, childId: string) {
  return test.request({ method: 'POST', url: `${API}/products/${productId}/children`, payload: { value: 1, childId }, key: writeKey });
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
  await supplier.makeAvailable();
});

afterAll(async () => {
  await test.close();
});

describe('GET /products', () => {
  it("lists the platform's products without databaseId, the caller's with its account id", async () => {
    const platform = await test.request({ method: 'GET', url: `${API}/products`, key: readKey });
    expect(platform.statusCode).toBe(200);
    expect(Value.Check(Type.Array(Product), platform.json())).toBe(true);

    const created = await createProduct();
    const own = await test.request({ method: 'GET', url: `${API}/products?databaseId=${test.server.localAccountId}`, key: readKey });
    expect(own.statusCode).toBe(200);
    expect(Value.Check(Type.Array(Product), own.json())).toBe(true);
    expect(own.json<Product[]>()).toContainEqual(created);
    expect(platform.json<Product[]>().map((product) => product.id)).not.toContain(created.id);
  });

  it('lists an available database and answers 404 for one that is not available', async () => {
    const available = await test.request({ method: 'GET', url: `${API}/products?databaseId=${supplier.accountId}`, key: readKey });
    expect(available.json<Product[]>().map((product) => product.id)).toEqual([supplier.productId]);
    const other = await addSupplierDatabase(test);
    expect((await test.request({ method: 'GET', url: `${API}/products?databaseId=${other.accountId}`, key: readKey })).statusCode).toBe(404);
    expect((await test.request({ method: 'GET', url: `${API}/products/${other.productId}`, key: readKey })).statusCode).toBe(404);
  });

  it('answers 401 without a key', async () => {
    expect((await test.request({ method: 'GET', url: `${API}/products`, key: null })).statusCode).toBe(401);
  });
});

describe('POST /products', () => {
  it('creates a product with 201, a Location and every field as sent', async () => {
    const response = await test.request({ method: 'POST', url: `${API}/products`, payload: fullProduct, key: writeKey });
    expect(response.statusCode).toBe(201);
    const product = response.json<Product>();
    expect(Value.Check(Product, product)).toBe(true);
    expect(response.headers.location).toBe(`${API}/products/${product.id}`);
    expect(product).toEqual({ ...fullProduct, id: product.id });
    expect((await test.request({ method: 'GET', url: `${API}/products/${product.id}`, key: readKey })).json()).toEqual(product);
  });

  it('accepts enum names for the type and dimension types', async () => {
    const product = await createProduct({
      type: 'areaproduct',
      fixedDimensions: [{ dimensionValue: 0.02, dimensionType: 'Thickness' }],
    });
    expect(product.type).toBe(40);
    expect(product.fixedDimensions).toEqual([{ dimensionValue: 0.02, dimensionType: 6 }]);
  });

  it('answers 400 naming the field for a missing type and the limits of spec §8', async () => {
    const cases: [object, string][] = [
      [{ name: { en: 'No type' } }, 'type'],
      [{ type: 'Brick' }, 'type'],
      [{ type: 20, circular: { technicalLifetime: 1001 } }, 'circular.technicalLifetime'],
      [{ type: 20, circular: { functionalLifetime: -1 } }, 'circular.functionalLifetime'],
      [{ type: 20, circular: { productReusedPercentageFeedstock: 1.2 } }, 'circular.productReusedPercentageFeedstock'],
      [{ type: 20, circular: { productReusedPercentageEndOfLife: -0.5 } }, 'circular.productReusedPercentageEndOfLife'],
      [{ type: 20, defaultDimensions: [{ dimensionValue: 1, dimensionType: 9 }] }, 'defaultDimensions.0.dimensionType'],
    ];
    for (const [payload, path] of cases) {
      const response = await test.request({ method: 'POST', url: `${API}/products`, payload, key: writeKey });
      expect(response.statusCode, path).toBe(400);
      expect(errorPaths(response.json()), path).toContain(path);
    }
  });

  it('answers 403 to a Read key and to a portfolio key', async () => {
    for (const key of [readKey, portfolioKey]) {
      expect((await test.request({ method: 'POST', url: `${API}/products`, payload: fullProduct, key })).statusCode).toBe(403);
    }
  });
});

describe('GET and PUT /products/{id}', () => {
  it('replaces the product entirely: fields left out become null or empty', async () => {
    const created = await createProduct();
    const response = await test.request({
      method: 'PUT',
      url: `${API}/products/${created.id}`,
      payload: { type: 'LengthProduct', circular: { technicalLifetime: 1000 } },
      key: writeKey,
    });
    expect(response.statusCode).toBe(200);
    const replaced = response.json<Product>();
    expect(Value.Check(Product, replaced)).toBe(true);
    const unknownCircular = Object.fromEntries(Object.keys(fullProduct.circular).map((field) => [field, null]));
    expect(replaced).toEqual({
      name: {},
      type: 50,
      description: {},
      supplier: null,
      productCode: null,
      circular: { ...unknownCircular, technicalLifetime: 1000 },
      fixedDimensions: [],
      defaultDimensions: [],
      id: created.id,
    });
    expect((await test.request({ method: 'GET', url: `${API}/products/${created.id}`, key: readKey })).json()).toEqual(replaced);
  });

  it("lets a portfolio key read but not change the account's product; a Read key cannot change it either", async () => {
    const created = await createProduct();
    expect((await test.request({ method: 'GET', url: `${API}/products/${created.id}`, key: portfolioKey })).statusCode).toBe(200);
    for (const key of [portfolioKey, readKey]) {
      const put = await test.request({ method: 'PUT', url: `${API}/products/${created.id}`, payload: fullProduct, key });
      expect(put.statusCode).toBe(403);
    }
  });

  it('answers 403 for a product of a read-only database and 404 for an unknown id', async () => {
    const supplied = await test.request({ method: 'PUT', url: `${API}/products/${supplier.productId}`, payload: fullProduct, key: writeKey });
    expect(supplied.statusCode).toBe(403);
    const unknown = randomUUID();
    expect((await test.request({ method: 'GET', url: `${API}/products/${unknown}`, key: readKey })).statusCode).toBe(404);
    expect((await test.request({ method: 'PUT', url: `${API}/products/${unknown}`, payload: fullProduct, key: writeKey })).statusCode).toBe(404);
  });
});

describe('/products/{id}/matches', () => {
  it('adds with 201 (enum names accepted) and replaces all with 200', async () => {
    const { id } = await createProduct();
    const url = `${API}/products/${id}/matches`;
    const added = await test.request({ method: 'POST', url, payload: { value: '8712345678906', matchType: 'Ean' }, key: writeKey });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ value: '8712345678906', matchType: 20 });

    const replaced = await test.request({ method: 'PUT', url, payload: [{ value: 'kozijn', matchType: 'equals' }], key: writeKey });
    expect(replaced.statusCode).toBe(200);
    const listed = await test.request({ method: 'GET', url, key: readKey });
    expect(Value.Check(Type.Array(ProductMatch), listed.json())).toBe(true);
    expect(listed.json()).toEqual([{ value: 'kozijn', matchType: 11 }]);
  });

  it('answers 400 for a bad match and 403 for a product of a read-only database', async () => {
    const { id } = await createProduct();
    const bad = await test.request({ method: 'POST', url: `${API}/products/${id}/matches`, payload: { value: 'x', matchType: 99 }, key: writeKey });
    expect(bad.statusCode).toBe(400);
    expect(errorPaths(bad.json())).toContain('matchType');
    const readOnly = await test.request({
      method: 'POST',
      url: `${API}/products/${supplier.productId}/matches`,
      payload: { value: 'x', matchType: 10 },
      key: writeKey,
    });
    expect(readOnly.statusCode).toBe(403);
  });
});

describe('/products/{id}/financialvalues', () => {
  it('adds with 200 and replaces all with 200', async () => {
    const { id } = await createProduct();
    const url = `${API}/products/${id}/financialvalues`;
    const added = await test.request({ method: 'POST', url, payload: { value: 250, currency: 'eur', unit: 'index' }, key: writeKey });
    expect(added.statusCode).toBe(200);
    expect(Value.Check(ProductFinancialValue, added.json())).toBe(true);
    expect(added.json()).toMatchObject({ value: 250, currency: 'EUR', unit: 5 });

    const prices = [{ value: 260, valueDate: '2025-01-01T00:00:00.000Z', currency: 'EUR', unit: 0 }];
    const replaced = await test.request({ method: 'PUT', url, payload: prices, key: writeKey });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual(prices);
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual(prices);
  });

  it('answers 400 for a currency that is not an ISO 4217 code of three letters', async () => {
    const { id } = await createProduct();
    const response = await test.request({
      method: 'POST',
      url: `${API}/products/${id}/financialvalues`,
      payload: { value: 1, currency: 'E1R' },
      key: writeKey,
    });
    expect(response.statusCode).toBe(400);
    expect(errorPaths(response.json())).toEqual(['currency']);
  });
});

describe('/products/{id}/children', () => {
  it('adds materials and products of readable databases with 201, in order, with every documented field', async () => {
    const parent = await createProduct();
    const part = await createProduct({ type: 20 });
    const url = `${API}/products/${parent.id}/children`;
    const material = await test.request({ method: 'POST', url, payload: { childId: platformMaterialId }, key: writeKey });
    expect(material.statusCode).toBe(201);
    expect(material.json()).toEqual({ value: 0, childId: platformMaterialId, circular: defaultChildCircular });

    const circular = { ...defaultChildCircular, inheritFeedstockPercentages: true, recycledPercentageEndOfLife: 0.4 };
    const product = await test.request({ method: 'POST', url, payload: { value: 2.5, childId: part.id, circular }, key: writeKey });
    expect(product.statusCode).toBe(201);
    expect((await addChild(parent.id, supplier.materialId)).statusCode).toBe(201);

    const listed = await test.request({ method: 'GET', url, key: readKey });
    expect(listed.statusCode).toBe(200);
    expect(Value.Check(Type.Array(ProductChild), listed.json())).toBe(true);
    expect(listed.json()).toEqual([
      { value: 0, childId: platformMaterialId, circular: defaultChildCircular },
      { value: 2.5, childId: part.id, circular },
      { value: 1, childId: supplier.materialId, circular: defaultChildCircular },
    ]);
  });

  it('answers 400 naming childId for a child that does not exist or is in a database the key cannot read', async () => {
    const parent = await createProduct();
    const hidden = await addSupplierDatabase(test);
    for (const childId of [randomUUID(), hidden.materialId, hidden.productId]) {
      const response = await addChild(parent.id, childId);
      expect(response.statusCode).toBe(400);
      expect(errorPaths(response.json())).toEqual(['childId']);
    }
  });

  it('answers 400 when a product would contain itself, directly or through its descendants', async () => {
    const top = await createProduct();
    const middle = await createProduct();
    const bottom = await createProduct();
    expect((await addChild(top.id, middle.id)).statusCode).toBe(201);
    expect((await addChild(middle.id, bottom.id)).statusCode).toBe(201);

    for (const [parentId, childId] of [
      [top.id, top.id],
      [middle.id, top.id],
      [bottom.id, top.id],
    ] as const) {
      const response = await addChild(parentId, childId);
      expect(response.statusCode).toBe(400);
      expect(errorPaths(response.json())).toEqual(['childId']);
    }
    // A product may hold the same descendant along two paths: that is sharing, not a cycle.
    expect((await addChild(top.id, bottom.id)).statusCode).toBe(201);
  });

  it('replaces all children with 200, and a rejected list changes nothing', async () => {
    const parent = await createProduct();
    const child = await createProduct();
    const url = `${API}/products/${parent.id}/children`;
    expect((await addChild(parent.id, platformMaterialId)).statusCode).toBe(201);
    expect((await addChild(child.id, parent.id)).statusCode).toBe(201);

    const cyclic = await test.request({
      method: 'PUT',
      url,
      payload: [{ value: 3, childId: supplier.materialId }, { value: 1, childId: child.id }],
      key: writeKey,
    });
    expect(cyclic.statusCode).toBe(400);
    expect(errorPaths(cyclic.json())).toEqual(['1.childId']);
    const unchanged = await test.request({ method: 'GET', url, key: readKey });
    expect(unchanged.json<ProductChild[]>().map((row) => row.childId)).toEqual([platformMaterialId]);

    const replacement = [
      { value: 3, childId: supplier.materialId, circular: defaultChildCircular },
      { value: 4, childId: supplier.productId, circular: { ...defaultChildCircular, inheritEfficiencyPercentages: true } },
    ];
    const replaced = await test.request({ method: 'PUT', url, payload: replacement, key: writeKey });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual(replacement);
    expect((await test.request({ method: 'GET', url, key: readKey })).json()).toEqual(replacement);

    expect((await test.request({ method: 'PUT', url, payload: [], key: writeKey })).json()).toEqual([]);
  });

  it('answers 400 for a childId that is not a uuid, 403 for a read-only product, 404 for an unknown one', async () => {
    const parent = await createProduct();
    const badId = await test.request({ method: 'POST', url: `${API}/products/${parent.id}/children`, payload: { childId: 'x' }, key: writeKey });
    expect(badId.statusCode).toBe(400);
    expect(errorPaths(badId.json())).toContain('childId');
    expect((await addChild(supplier.productId, platformMaterialId)).statusCode).toBe(403);
    expect((await addChild(randomUUID(), platformMaterialId)).statusCode).toBe(404);
    const readOnly = await test.request({
      method: 'POST',
      url: `${API}/products/${parent.id}/children`,
      payload: { childId: platformMaterialId },
      key: readKey,
    });
    expect(readOnly.statusCode).toBe(403);
  });
});
