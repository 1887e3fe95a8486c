import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingResponse as BuildingSchema } from '../../../../shared/api/schemas';
import type { BuildingFileElementResponse, BuildingFileResponse, BuildingResponse, Material, MaterialMatch, PortfolioResponse, Product } from '../../../../shared/api/schemas';
import { CacheDb } from '../../../../renderer/db/cache-db';
import {
  createBuilding,
  createElement,
  createMaterial,
  createPortfolio,
  createProduct,
  deleteBuilding,
  deleteElements,
  discardParked,
  editBuilding,
  editElements,
  editMaterial,
  editMaterialMatches,
  editProductChildren,
  resolveConflict,
  retryParked,
} from '../../../../renderer/db/edits';
import { isEditConflict, readConflict } from '../../../../renderer/db/outbox';
import { appendBlocks, ELEMENT_TABLES, startBlockSet } from '../../../../renderer/db/element-blocks';
import { parkEntry } from '../../../../renderer/db/push-writes';
import { elementCount, elementsByIds, scanElements } from '../../../../renderer/db/reads';
import { elementKey, isLocalId, outboxDetailKey, type EditConflict, type ElementRow, type OutboxEntry } from '../../../../renderer/db/schema';

const P1 = '11111111-1111-4111-8111-111111111111';
const B1 = '21111111-1111-4111-8111-111111111111';
const F1 = '31111111-1111-4111-8111-111111111111';
const M1 = '41111111-1111-4111-8111-111111111111';
const PR1 = '51111111-1111-4111-8111-111111111111';

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function open(): CacheDb {
  const db = new CacheDb('unit', { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

function building(changes: Partial<BuildingResponse> = {}): BuildingResponse {
  const nulls = Object.fromEntries(Object.keys(BuildingSchema.properties).map((name) => [name, null]));
  return { ...nulls, id: B1, portfolioId: P1, name: 'Server name', images: [], isDirty: false, hasDirtyElements: false, classificationType: P1, ...changes } as BuildingResponse;
}

function element(id: string, changes: Partial<BuildingFileElementResponse> = {}): BuildingFileElementResponse {
  return {
    id,
    name: `element ${id}`,
    buildingFileId: F1,
    materialName: 'Beton',
    typeName: null,
    elementClass: 'IfcWall',
    volume: 1,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    mapping: null,
    phaseMatch: null,
    brandLayerMatch: null,
    classificationMatch: null,
    phaseLookup: ['Nieuw'],
    classificationLookup: [],
    floor: '00',
    ...changes,
  };
}

function material(changes: Partial<Material> = {}): Material {
  return {
    id: M1,
    name: { nl: 'Beton', en: 'Concrete' },
    elementFamily: 'stone',
    description: {},
    supplier: null,
    specificWeight: 2400,
    lifeTime: 100,
    circular: {
      recycledPercentageFeedstock: 0.1,
      rapidRenewablesPercentageFeedstock: null,
      virginPercentageFeedstock: 0.9,
      recycledPercentageEndOfLife: null,
      landfillPercentageEndOfLife: null,
      incinerationPercentageEndOfLife: null,
      efficiencyPercentageRecyclingFeedstock: null,
      efficiencyPercentageRecyclingEndOfLife: null,
    },
    financial: { importType: 0, priceSetId: null, transportCosts: null, handlingFeedstockEuroKg: null, handlingFeedstockPercentage: null },
    ...changes,
  };
}

/** A cache holding a portfolio, a building, a file with 60 elements, a material and a product, as a pull leaves it. */
async function seeded(): Promise<CacheDb> {
  const db = open();
  await db.portfolios.put({ id: P1, name: 'Portfolio', logo: null } satisfies PortfolioResponse);
  await db.buildings.put(building());
  await db.files.put({ id: F1, buildingId: B1, elementsStamp: '2025-01-01T00:00:00.000Z' } as BuildingFileResponse & { elementsStamp: string });
  await db.transaction('rw', ELEMENT_TABLES, async () => {
    await startBlockSet(db, F1, '2025-01-01T00:00:00.000Z', 'shown');
    await appendBlocks(db, F1, 'shown', Array.from({ length: 60 }, (_, index) => element(`E${String(index).padStart(3, '0')}`)));
  });
  await db.materials.put(material());
  await db.materialMatches.put({ ownerId: M1, items: [{ value: 'Beton', matchType: 10 }], fetchedAt: '2025-01-01T00:00:00.000Z' });
  await db.products.put({ id: PR1, type: 20, name: { nl: 'Kozijn' } } as Product);
  return db;
}

async function entries(db: CacheDb): Promise<OutboxEntry[]> {
  return db.outbox.orderBy('seq').toArray();
}

const ids = (count: number): string[] => Array.from({ length: count }, (_, index) => `E${String(index).padStart(3, '0')}`);

describe('editing a row', () => {
  it('writes the row with the server values as base, and one update entry of the changed fields', async () => {
    const db = await seeded();

    await editBuilding(db, B1, { name: 'Mine', addressCity: 'Delft' });

    const row = await db.buildings.get(B1);
    expect(row).toEqual({ ...building({ name: 'Mine', addressCity: 'Delft' }), base: building() });
    expect(await entries(db)).toEqual([
      expect.objectContaining({ entity: 'buildings', key: B1, op: 'update', fields: { name: 'Mine', addressCity: 'Delft' }, state: 'pending', attempts: 0, lastError: null, aggregate: `building:${B1}` }),
    ]);
  });

  it('keeps the first base across edits: later changes are relative to the same server values', async () => {
    const db = await seeded();

    await editBuilding(db, B1, { name: 'First' });
    await editBuilding(db, B1, { name: 'Second', grossSurfaceArea: 120.5 });

    expect((await db.buildings.get(B1))?.base).toEqual(building());
    expect((await db.buildings.get(B1))?.name).toBe('Second');
    expect((await entries(db)).map((entry) => entry.fields)).toEqual([{ name: 'First' }, { name: 'Second', grossSurfaceArea: 120.5 }]);
  });

  it('records nested fields by path, so one language of a name is one field', async () => {
    const db = await seeded();

    await editMaterial(db, M1, { name: { nl: 'Gewapend beton' }, circular: { recycledPercentageFeedstock: 0.3 } });

    const row = await db.materials.get(M1);
    expect(row?.name).toEqual({ nl: 'Gewapend beton', en: 'Concrete' });
    expect(row?.circular.recycledPercentageFeedstock).toBe(0.3);
    expect(row?.circular.virginPercentageFeedstock).toBe(0.9);
    expect((await entries(db))[0]?.fields).toEqual({ 'name.nl': 'Gewapend beton', 'circular.recycledPercentageFeedstock': 0.3 });
  });

  it('writes nothing for an empty change, and refuses a row the cache does not hold', async () => {
    const db = await seeded();

    await editBuilding(db, B1, { name: undefined });
    await expect(editBuilding(db, 'missing', { name: 'x' })).rejects.toThrow(/no buildings row missing/);

    expect(await db.outbox.count()).toBe(0);
  });

  it('replaces a catalogue list whole, with the fetched list as base', async () => {
    const db = await seeded();
    const matches: MaterialMatch[] = [{ value: 'Beton C20/25', matchType: 10 }];

    await editMaterialMatches(db, M1, matches);

    expect(await db.materialMatches.get(M1)).toMatchObject({ ownerId: M1, items: matches, base: [{ value: 'Beton', matchType: 10 }] });
    expect((await entries(db))[0]).toMatchObject({ entity: 'materialMatches', key: M1, fields: { items: matches }, aggregate: `material:${M1}` });
  });
});

describe('creating and deleting', () => {
  it('gives new server-side rows a temporary id and a create entry, with every field of the resource', async () => {
    const db = await seeded();

    const portfolioId = await createPortfolio(db, { name: 'New portfolio' });
    const buildingId = await createBuilding(db, portfolioId, { name: 'New building', addressCity: 'Gouda' });

    expect(isLocalId(portfolioId) && isLocalId(buildingId)).toBe(true);
    const row = await db.buildings.get(buildingId);
    expect(Object.keys(row ?? {}).sort()).toEqual(Object.keys(BuildingSchema.properties).sort());
    expect(row).toMatchObject({ id: buildingId, portfolioId, name: 'New building', addressCity: 'Gouda', images: [], isDirty: false });
    expect(row?.base).toBeUndefined();
    expect(await entries(db)).toEqual([
      expect.objectContaining({ entity: 'portfolios', key: portfolioId, op: 'create', fields: null, aggregate: `portfolio:${portfolioId}` }),
      expect.objectContaining({ entity: 'buildings', key: buildingId, op: 'create', fields: null, aggregate: `building:${buildingId}` }),
    ]);
  });

  it('refuses a building in a portfolio the cache does not hold, writing nothing', async () => {
    const db = await seeded();

    await expect(createBuilding(db, 'local:none', { name: 'Orphan' })).rejects.toThrow(/no portfolios row/);

    expect(await db.buildings.count()).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('edits a new row without giving it a base: the server has no values for it yet', async () => {
    const db = await seeded();
    const id = await createMaterial(db, { name: { nl: 'Kalkzandsteen' }, lifeTime: 75 });

    await editMaterial(db, id, { lifeTime: 80 });

    const row = await db.materials.get(id);
    expect(row).toMatchObject({ name: { nl: 'Kalkzandsteen' }, lifeTime: 80, financial: { importType: 0 } });
    expect(row?.base).toBeUndefined();
  });

  it('creates a product of its type with empty dimensions, and its children may name new materials', async () => {
    const db = await seeded();
    const materialId = await createMaterial(db, { name: { nl: 'Hout' } });
    const productId = await createProduct(db, { type: 30, name: { nl: 'Deur' } });
    const children = [{ childId: materialId, value: 2, circular: { inheritFeedstockPercentages: true, recycledPercentageFeedstock: null, rapidRenewablesPercentageFeedstock: null, inheritEndOfLifePercentages: true, recycledPercentageEndOfLife: null, landfillPercentageEndOfLife: null, inheritEfficiencyPercentages: true, efficiencyPercentageRecyclingFeedstock: null, efficiencyPercentageRecyclingEndOfLife: null } }];

    await editProductChildren(db, productId, children);

    expect(await db.products.get(productId)).toMatchObject({ type: 30, name: { nl: 'Deur' }, fixedDimensions: [], defaultDimensions: [] });
    expect(await db.productChildren.get(productId)).toMatchObject({ items: children });
    expect((await db.productChildren.get(productId))?.base).toBeUndefined();
    expect((await entries(db)).map((entry) => entry.aggregate)).toEqual([`material:${materialId}`, `product:${productId}`, `product:${productId}`]);
  });

  it('deletes a row with an entry that keeps the row, for a discard', async () => {
    const db = await seeded();

    await deleteBuilding(db, B1);

    expect(await db.buildings.get(B1)).toBeUndefined();
    const [entry] = await entries(db);
    expect(entry).toMatchObject({ op: 'delete', key: B1, fields: null });
    expect(await db.syncState.get(outboxDetailKey(entry?.seq ?? 0))).toMatchObject({ kind: 'outbox-detail', removedRow: building() });
  });
});

describe('elements', () => {
  it('creates an element with a uuid of its own, its lookups as the server stores them', async () => {
    const db = await seeded();

    const id = await createElement(db, F1, { name: 'Nieuw kozijn', volume: 0.3, phaseLookup: 'Nieuw', materialId: PR1 });

    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.elements.get([F1, id])).toMatchObject({
      id,
      buildingFileId: F1,
      name: 'Nieuw kozijn',
      volume: 0.3,
      phaseLookup: ['Nieuw'],
      classificationLookup: [],
      // A product id maps with the product's type.
      mapping: { type: 20, id: PR1 },
    });
    expect((await entries(db))[0]).toMatchObject({ entity: 'elements', key: elementKey(F1, id), op: 'create', aggregate: `file:${F1}` });
    await expect(createElement(db, F1, { id })).rejects.toThrow(/already holds/);
  });

  it('edits 50 elements in one go: every row with its base and one entry each', async () => {
    const db = await seeded();

    await editElements(db, F1, ids(50), { floor: '03', materialId: M1 });

    const rows: ElementRow[] = [];
    await scanElements(db, F1, (chunk) => rows.push(...chunk));
    expect(rows).toHaveLength(60);
    expect(rows.filter((row) => row.floor === '03')).toHaveLength(50);
    expect(rows.find((row) => row.id === 'E000')).toMatchObject({ mapping: { type: 10, id: M1 }, base: element('E000') });
    expect(rows.find((row) => row.id === 'E050')?.base).toBeUndefined();
    const written = await entries(db);
    expect(written).toHaveLength(50);
    expect(new Set(written.map((entry) => entry.aggregate))).toEqual(new Set([`file:${F1}`]));
    expect(written[0]?.fields).toEqual({ floor: '03', materialId: M1 });
  });

  it('writes all of a bulk edit or nothing: a failure midway leaves rows and outbox as they were', async () => {
    const db = await seeded();
    let added = 0;
    db.outbox.hook('creating', () => {
      added += 1;
      if (added === 30) throw new Error('Disk full');
    });

    await expect(editElements(db, F1, ids(50), { floor: '09' })).rejects.toThrow('Disk full');

    expect(await db.outbox.count()).toBe(0);
    const rows = await db.elements.toArray();
    expect(rows.filter((row) => row.floor === '09' || row.base !== undefined)).toEqual([]);
  });

  it('refuses a bulk edit naming an element the file does not hold, writing nothing', async () => {
    const db = await seeded();

    await expect(editElements(db, F1, ['E001', 'nope'], { floor: '01' })).rejects.toThrow(/nope/);

    expect((await elementsByIds(db, F1, ['E001']))[0]?.floor).toBe('00');
    expect(await db.outbox.count()).toBe(0);
  });

  it('deletes elements in one transaction, each with its delete entry', async () => {
    const db = await seeded();

    await deleteElements(db, F1, ['E001', 'E002']);

    expect(await elementsByIds(db, F1, ['E001', 'E002', 'E003'])).toEqual([undefined, undefined, element('E003')]);
    expect(await elementCount(db, F1)).toBe(58);
    expect((await entries(db)).map((entry) => [entry.op, entry.key])).toEqual([
      ['delete', elementKey(F1, 'E001')],
      ['delete', elementKey(F1, 'E002')],
    ]);
  });
});

describe('parked entries', () => {
  const server = building({ name: 'Their name', addressCity: 'Leiden', addressStreet: 'Breestraat' });
  const conflict: EditConflict = {
    fields: [{ path: 'addressCity', base: null, mine: 'Delft', theirs: 'Leiden' }],
    server,
    at: '2025-01-02T00:00:00.000Z',
  };
  const issue = {
    at: '2025-01-02T00:00:00.000Z',
    where: 'replaceBuilding',
    failure: {
      kind: 'problem' as const,
      status: 409,
      problem: { type: 'urn:circularity-desk:edit-conflict', title: 'Edit conflict', status: 409, detail: 'addressCity', instance: '', errors: [], message: 'addressCity' },
    },
  };

  /** A building edit parked as a conflict on addressCity, and a later edit of the same building waiting behind it. */
  async function conflicted(): Promise<{ db: CacheDb; seq: number }> {
    const db = await seeded();
    await editBuilding(db, B1, { addressCity: 'Delft', energyLabel: 'A' });
    await editBuilding(db, B1, { grossSurfaceArea: 99 });
    const [first] = await entries(db);
    await parkEntry(db, first?.seq ?? 0, issue, conflict);
    return { db, seq: first?.seq ?? 0 };
  }

  it('describes a conflict per field', async () => {
    const { db, seq } = await conflicted();

    const [entry] = await entries(db);
    expect(entry && isEditConflict(entry)).toBe(true);
    expect(await readConflict(db, seq)).toEqual(conflict);
  });

  it('keeps mine: the entry goes again as it is, relative to the server row as read', async () => {
    const { db, seq } = await conflicted();

    await resolveConflict(db, seq, 'mine');

    expect(await db.outbox.get(seq)).toMatchObject({ state: 'pending', lastError: null, fields: { addressCity: 'Delft', energyLabel: 'A' } });
    expect(await readConflict(db, seq)).toBeNull();
    // The server's other changes show at once; the user's changes stay on top.
    expect(await db.buildings.get(B1)).toEqual({ ...server, addressCity: 'Delft', energyLabel: 'A', grossSurfaceArea: 99, base: server });
  });

  it("takes theirs: the conflicting fields are dropped from the entry, the user's other fields still go", async () => {
    const { db, seq } = await conflicted();

    await resolveConflict(db, seq, 'theirs');

    expect(await db.outbox.get(seq)).toMatchObject({ state: 'pending', fields: { energyLabel: 'A' } });
    expect(await db.buildings.get(B1)).toEqual({ ...server, energyLabel: 'A', grossSurfaceArea: 99, base: server });
  });

  it('takes theirs for every field of the entry: the entry goes, and without other entries the row is the server row', async () => {
    const db = await seeded();
    await editBuilding(db, B1, { addressCity: 'Delft' });
    const [entry] = await entries(db);
    await parkEntry(db, entry?.seq ?? 0, issue, conflict);

    await resolveConflict(db, entry?.seq ?? 0, 'theirs');

    expect(await db.outbox.count()).toBe(0);
    expect(await db.buildings.get(B1)).toEqual(server);
  });

  it('refuses to resolve an entry that is not a parked conflict', async () => {
    const db = await seeded();
    await editBuilding(db, B1, { addressCity: 'Delft' });
    const [entry] = await entries(db);

    await expect(resolveConflict(db, entry?.seq ?? 0, 'mine')).rejects.toThrow(/not parked/);
    await parkEntry(db, entry?.seq ?? 0, { ...issue, failure: { kind: 'network', reason: 'unreachable', message: 'x' } });
    await expect(resolveConflict(db, entry?.seq ?? 0, 'mine')).rejects.toThrow(/another reason/);
  });

  it('retries a parked entry as it is', async () => {
    const { db, seq } = await conflicted();

    await retryParked(db, seq);

    expect(await db.outbox.get(seq)).toMatchObject({ state: 'pending', lastError: null, fields: { addressCity: 'Delft', energyLabel: 'A' } });
    expect(await readConflict(db, seq)).toBeNull();
  });

  it('discards an update: the row holds the server values with the later entries on top, in one transaction', async () => {
    const { db, seq } = await conflicted();

    await discardParked(db, seq);

    expect(await db.outbox.get(seq)).toBeUndefined();
    expect(await db.syncState.get(outboxDetailKey(seq))).toBeUndefined();
    expect(await db.buildings.get(B1)).toEqual({ ...server, grossSurfaceArea: 99, base: server });
  });

  it('discards a delete: the row is back', async () => {
    const db = await seeded();
    await deleteElements(db, F1, ['E007']);
    const [entry] = await entries(db);
    await parkEntry(db, entry?.seq ?? 0, issue);

    await discardParked(db, entry?.seq ?? 0);

    expect(await db.elements.get([F1, 'E007'])).toEqual(element('E007'));
    expect(await db.outbox.count()).toBe(0);
  });

  it('discards a create with what depends on it: a new portfolio takes its new buildings along', async () => {
    const db = await seeded();
    const portfolioId = await createPortfolio(db, { name: 'Refused' });
    const buildingId = await createBuilding(db, portfolioId, { name: 'In it' });
    await editBuilding(db, buildingId, { addressCity: 'Delft' });
    await editBuilding(db, B1, { addressCity: 'Utrecht' });
    const [create] = await entries(db);
    await parkEntry(db, create?.seq ?? 0, issue);

    await discardParked(db, create?.seq ?? 0);

    expect(await db.portfolios.get(portfolioId)).toBeUndefined();
    expect(await db.buildings.get(buildingId)).toBeUndefined();
    expect((await entries(db)).map((entry) => entry.key)).toEqual([B1]);
  });

  it('refuses to decide on an entry that is not parked', async () => {
    const db = await seeded();
    await editBuilding(db, B1, { addressCity: 'Delft' });
    const [entry] = await entries(db);

    await expect(discardParked(db, entry?.seq ?? 0)).rejects.toThrow(/not parked/);
    await expect(retryParked(db, 12345)).rejects.toThrow(/not parked/);
  });
});
