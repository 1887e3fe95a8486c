import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildingLevel, ElementType, MatchType, Phase, ProductType } from '../../../../shared/api/enums';
import { classificationCodeId } from '../../../../server/refine/nl-sfb';
import { FileRefinement, refineFile, type RefinedElement } from '../../../../server/refine/refine-file';
import { seedDemo } from '../../../../server/store/seed/demo';
import { ensureLocalAccount } from '../../../../server/store/seed/local-account';
import { NL_SFB_METHOD_ID, seedSystemData } from '../../../../server/store/seed/system-data';
import { openDatabase, type Database } from '../../../../server/store/store';
import type { DatabaseSchema, ElementsTable } from '../../../../server/store/tables';

/** Platform materials the seed matches by name (platform-materials.json). */
const CONCRETE_C20_25 = '7e47cdcb-cc20-46fc-800f-88945f47d909'; // Contains "C20/25", "Beton (C20/25)"
const CONCRETE = 'f042f35e-5baf-47bd-9603-2a2e079f06cc'; // Contains "Beton", "Concrete"
const AERATED_CONCRETE = 'a351f70a-47f7-4dc4-91eb-53ebbdbb7922'; // Contains "Gasbeton", "Porenbeton"

const NOW = '2024-01-01T00:00:00.000Z';

let database: Database;
let db: Kysely<DatabaseSchema>;
let accountId: string;
let buildingId: string;

beforeEach(async () => {
  database = await openDatabase(':memory:');
  db = database.db;
  await seedSystemData(db);
  ({ accountId } = await ensureLocalAccount(db));
  await seedDemo(db, accountId);
  buildingId = (await db.selectFrom('buildings').select('id').executeTakeFirstOrThrow()).id;
});

afterEach(async () => {
  await database.close();
});

async function createFile(preferredAccountIds: string[] = []): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('building_files')
    .values({
      id,
      buildingId,
      type: 0,
      fileName: 'model.ifc',
      fileSize: 1,
      status: 4,
      statusMessage: null,
      isActive: 0,
      isDirty: 0,
      lastModifiedDate: NOW,
      tags: '[]',
      preferredAccountIds: JSON.stringify(preferredAccountIds),
      validation: null,
      elementProcessedCount: 0,
      elementCount: 0,
      blobKey: null,
      contentType: null,
      language: null,
      createdAt: NOW,
      rejectedRows: '[]',
      rejectedCount: 0,
    })
    .execute();
  return id;
}

interface ElementInput {
  id: string;
  materialName?: string | null;
  typeName?: string | null;
  materialId?: string | null;
  classification?: string[];
  phase?: string[];
  mappingType?: number | null;
  mappingId?: string | null;
  elementClass?: string | null;
  hints?: { source: 'model' | 'layer' | 'inferred'; code: string }[];
  materialHints?: string[];
  /** Whether a user set the element's classification lookup. */
  lookupsByUser?: boolean;
}

function elementRow(fileId: string, input: ElementInput): Insertable<ElementsTable> {
  return {
    buildingFileId: fileId,
    id: input.id,
    name: null,
    materialName: input.materialName ?? null,
    materialId: input.materialId ?? null,
    typeName: input.typeName ?? null,
    elementClass: input.elementClass ?? null,
    volume: 1,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    mappingType: input.mappingType ?? null,
    mappingId: input.mappingId ?? null,
    phaseMatchId: null,
    phaseMatchName: null,
    brandLayerMatchId: null,
    brandLayerMatchName: null,
    classificationMatchId: null,
    classificationMatchName: null,
    classificationMatchCode: null,
    phaseLookup: JSON.stringify(input.phase ?? []),
    classificationLookup: JSON.stringify(input.classification ?? []),
    floor: null,
    classificationHints: JSON.stringify(input.hints ?? []),
    materialHints: JSON.stringify(input.materialHints ?? []),
    userEdited: input.lookupsByUser === true ? 1 : 0,
    userFields: input.lookupsByUser === true ? JSON.stringify({ classificationLookup: { model: [] } }) : null,
    quantitySource: 'model',
    geometryIssue: null,
    classificationSource: null,
    mappingSource: null,
  };
}

async function insertElements(fileId: string, inputs: ElementInput[]): Promise<void> {
  for (let first = 0; first < inputs.length; first += 500) {
    await db
      .insertInto('elements')
      .values(inputs.slice(first, first + 500).map((input) => elementRow(fileId, input)))
      .execute();
  }
}

async function elements(fileId: string): Promise<Map<string, Selectable<ElementsTable>>> {
  const rows = await db.selectFrom('elements').selectAll().where('buildingFileId', '=', fileId).orderBy('id').execute();
  return new Map(rows.map((row) => [row.id, row]));
}

async function element(fileId: string, id: string): Promise<Selectable<ElementsTable>> {
  const row = (await elements(fileId)).get(id);
  if (row === undefined) throw new Error(`no element ${id}`);
  return row;
}

/** A database of the account's own, with a material, a product with a rule and a product with an EAN. */
async function ownDatabase(): Promise<{ material: string; frame: string; panel: string }> {
  const material = randomUUID();
  const frame = randomUUID();
  const panel = randomUUID();
  await db
    .insertInto('materials')
    .values({
      id: material,
      accountId,
      name: JSON.stringify({ nl: 'Eigen beton', en: 'Own concrete', de: '', it: '', fr: '', es: '' }),
      elementFamily: null,
      description: '{}',
      supplier: null,
      specificWeight: 2400,
      lifeTime: null,
      circular: '{}',
      financial: '{}',
      createdAt: NOW,
      updatedAt: NOW,
    })
    .execute();
  const product = (id: string, type: number, productCode: string | null) => ({
    id,
    accountId,
    name: 'product',
    type,
    description: '{}',
    supplier: null,
    productCode,
    circular: '{}',
    fixedDimensions: '[]',
    defaultDimensions: '[]',
    createdAt: NOW,
    updatedAt: NOW,
  });
  await db
    .insertInto('products')
    .values([product(frame, ProductType.QuantityProduct, null), product(panel, ProductType.AreaProduct, '8712345678906')])
    .execute();
  await db.insertInto('material_matches').values({ materialId: material, position: 0, value: 'C20/25', matchType: MatchType.Contains }).execute();
  await db.insertInto('product_matches').values({ productId: frame, position: 0, value: 'Kozijn hardhout', matchType: MatchType.Equals }).execute();
  return { material, frame, panel };
}

/** A database the account may not use, with a material matching everything concrete. */
async function foreignDatabase(): Promise<{ databaseId: string; material: string }> {
  const databaseId = randomUUID();
  const material = randomUUID();
  await db.insertInto('accounts').values({ id: databaseId, name: 'Other', accountType: 2, createdAt: NOW }).execute();
  await db
    .insertInto('materials')
    .values({
      id: material,
      accountId: databaseId,
      name: '{}',
      elementFamily: null,
      description: '{}',
      supplier: null,
      specificWeight: null,
      lifeTime: null,
      circular: '{}',
      financial: '{}',
      createdAt: NOW,
      updatedAt: NOW,
    })
    .execute();
  await db.insertInto('material_matches').values({ materialId: material, position: 0, value: 'beton', matchType: MatchType.Contains }).execute();
  return { databaseId, material };
}

const noProgress = (): void => {};

describe('refineFile', () => {
  it('records what classified and mapped each element: the model, a layer, the class; materialId, a rule, a keyword', async () => {
    const fileId = await createFile();
    await insertElements(fileId, [
      { id: 'by-reference', classification: ['23'], hints: [{ source: 'model', code: '21' }, { source: 'inferred', code: '22' }], materialName: 'Beton' },
      { id: 'user-lookup', classification: ['22.1'], hints: [{ source: 'model', code: '21' }], lookupsByUser: true, materialId: CONCRETE },
      { id: 'by-layer', hints: [{ source: 'layer', code: '21.1' }, { source: 'inferred', code: '22' }], materialName: 'Hochlochziegel' },
      { id: 'by-class', elementClass: 'IfcColumn', materialName: 'Solid', materialHints: ['Kiefer'] },
      { id: 'nothing', elementClass: 'IfcBuildingElementProxy', materialName: 'Default' },
    ]);
    await refineFile(db, fileId, noProgress);
    const sources = (id: string) => element(fileId, id).then((row) => [row.classificationMatchCode, row.classificationSource, row.mappingSource]);
    expect(await sources('by-reference')).toEqual(['21', 'model', 'rule']);
    expect(await sources('user-lookup')).toEqual(['22.1', 'model', 'model']);
    expect(await sources('by-layer')).toEqual(['21.1', 'layer', 'keyword']);
    expect(await sources('by-class')).toEqual(['28', 'inferred', 'keyword']);
    expect(await sources('nothing')).toEqual([null, null, null]);
  });

  it('maps, classifies and phases elements against the seeded platform data', async () => {
    const fileId = await createFile();
    await insertElements(fileId, [
      { id: 'a-c2025', materialName: 'Beton C20/25', classification: ['21.24'], phase: ['Nieuw'] },
      { id: 'b-concrete', materialName: 'Beton', classification: ['NL-SfB 22.12'], phase: ['Sloop'] },
      { id: 'c-aerated', materialName: 'Onbekend', typeName: 'Porenbeton 100mm', classification: ['(13)'], phase: ['Bestand'] },
      { id: 'd-nothing', materialName: 'Onbekend', typeName: 'Iets', classification: ['Wall'], phase: [] },
    ]);
    const outcome = await refineFile(db, fileId, noProgress);
    expect(outcome).toEqual({ mapped: 3, unmapped: 1, classified: 3 });

    expect(await element(fileId, 'a-c2025')).toMatchObject({
      mappingType: ElementType.Material,
      mappingId: CONCRETE_C20_25,
      classificationMatchCode: '21.2',
      classificationMatchName: 'buitenwanden; constructief',
      classificationMatchId: classificationCodeId(NL_SFB_METHOD_ID, '21.2'),
      brandLayerMatchId: BuildingLevel.Structure.id,
      brandLayerMatchName: 'Structure',
      phaseMatchId: Phase.New.id,
      phaseMatchName: 'New',
    });
    expect(await element(fileId, 'b-concrete')).toMatchObject({
      mappingId: CONCRETE,
      classificationMatchCode: '22.12',
      brandLayerMatchName: 'Space plan',
      phaseMatchName: 'Demolition',
    });
    expect(await element(fileId, 'c-aerated')).toMatchObject({
      mappingId: AERATED_CONCRETE,
      classificationMatchCode: '13',
      brandLayerMatchId: BuildingLevel.Structure.id,
      // "Bestand" (German) is not one of the words: unmatched → Existing.
      phaseMatchId: Phase.Existing.id,
    });
    expect(await element(fileId, 'd-nothing')).toMatchObject({
      mappingType: null,
      mappingId: null,
      classificationMatchId: null,
      classificationMatchName: null,
      classificationMatchCode: null,
      brandLayerMatchId: BuildingLevel.Unknown.id,
      brandLayerMatchName: 'Unknown',
      phaseMatchName: 'Existing',
    });
  });

  it('prefers the file’s preferred databases, maps products with their type and keeps a readable materialId', async () => {
    const own = await ownDatabase();
    const foreign = await foreignDatabase();
    // The foreign database is listed but the account may not use it: ignored.
    const fileId = await createFile([foreign.databaseId, accountId]);
    await insertElements(fileId, [
      { id: 'own-material', materialName: 'Beton C20/25' },
      { id: 'own-frame', materialName: 'kozijn HARDHOUT' },
      { id: 'own-panel', materialName: 'Paneel', typeName: '0 8712345 678906' },
      { id: 'platform-fallback', materialName: 'Gasbeton' },
      { id: 'explicit', materialName: 'Beton C20/25', materialId: CONCRETE.toUpperCase() },
      { id: 'explicit-product', materialName: 'Beton', materialId: own.panel },
      { id: 'explicit-unreadable', materialName: 'Gasbeton', materialId: foreign.material },
      { id: 'explicit-unknown', materialName: 'Gasbeton', materialId: randomUUID() },
    ]);
    await refineFile(db, fileId, noProgress);
    const rows = await elements(fileId);
    const mapping = (id: string) => ({ type: rows.get(id)?.mappingType, id: rows.get(id)?.mappingId });
    expect(mapping('own-material')).toEqual({ type: ElementType.Material, id: own.material });
    expect(mapping('own-frame')).toEqual({ type: ElementType.QuantityProduct, id: own.frame });
    expect(mapping('own-panel')).toEqual({ type: ElementType.AreaProduct, id: own.panel });
    expect(mapping('platform-fallback')).toEqual({ type: ElementType.Material, id: AERATED_CONCRETE });
    expect(mapping('explicit')).toEqual({ type: ElementType.Material, id: CONCRETE });
    expect(mapping('explicit-product')).toEqual({ type: ElementType.AreaProduct, id: own.panel });
    expect(mapping('explicit-unreadable')).toEqual({ type: ElementType.Material, id: AERATED_CONCRETE });
    expect(mapping('explicit-unknown')).toEqual({ type: ElementType.Material, id: AERATED_CONCRETE });
  });

  it('maps an element an import reads by the id its source names, exactly as a stored element’s materialId', async () => {
    const own = await ownDatabase();
    const foreign = await foreignDatabase();
    const fileId = await createFile([accountId]);
    const inputs: ElementInput[] = [
      { id: 'named', materialName: 'Beton C20/25', materialId: CONCRETE.toUpperCase() },
      { id: 'named-product', materialName: 'Beton', materialId: own.panel },
      { id: 'unreadable', materialName: 'Gasbeton', materialId: foreign.material },
      { id: 'unknown', materialName: 'Gasbeton', materialId: 'not an id' },
      { id: 'none', materialName: 'Beton C20/25' },
    ];
    const refinement = await FileRefinement.load(db, fileId);
    const readable = await refinement.readableItems(db, inputs.map((input) => input.materialId ?? null));
    const imported = new Map(
      inputs.map((input) => {
        const lookups = { phaseLookup: '[]', classificationLookup: '[]', classificationHints: '[]', materialHints: '[]', elementClass: null };
        const element = { materialName: input.materialName ?? null, typeName: input.typeName ?? null, materialId: input.materialId ?? null, ...lookups };
        return [input.id, refinement.ofImported(element, readable)];
      }),
    );
    expect(imported.get('named')).toMatchObject({ mappingType: ElementType.Material, mappingId: CONCRETE, mappingSource: 'model' });
    expect(imported.get('named-product')).toMatchObject({ mappingType: ElementType.AreaProduct, mappingId: own.panel, mappingSource: 'model' });
    expect(imported.get('unreadable')).toMatchObject({ mappingId: AERATED_CONCRETE, mappingSource: 'rule' });
    expect(imported.get('unknown')).toMatchObject({ mappingId: AERATED_CONCRETE, mappingSource: 'rule' });
    expect(imported.get('none')).toMatchObject({ mappingId: own.material, mappingSource: 'rule' });

    await insertElements(fileId, inputs);
    await refineFile(db, fileId, noProgress);
    const stored = await elements(fileId);
    // A run over the stored elements derives the same columns, field by field.
    for (const [id, derived] of imported) {
      const row = stored.get(id);
      expect(Object.fromEntries(Object.keys(derived).map((column) => [column, row?.[column as keyof typeof derived]])), id).toEqual(derived);
    }
  });

  it('without preferred databases only the platform is searched', async () => {
    const own = await ownDatabase();
    const fileId = await createFile();
    await insertElements(fileId, [
      { id: 'e', materialName: 'Beton C20/25' },
      { id: 'f', materialName: 'Kozijn hardhout' },
      { id: 'g', materialName: '8712345678906' },
    ]);
    await refineFile(db, fileId, noProgress);
    expect((await element(fileId, 'e')).mappingId).toBe(CONCRETE_C20_25);
    // The platform's hardwood, not the own database's frame.
    expect((await element(fileId, 'f')).mappingId).not.toBe(own.frame);
    expect((await element(fileId, 'g')).mappingId).toBeNull();
  });

  it('clears a mapping that no materialId and no rule supports any more', async () => {
    const fileId = await createFile();
    await insertElements(fileId, [
      { id: 'stale', materialName: 'Iets anders', mappingType: ElementType.Material, mappingId: CONCRETE },
      { id: 'remapped', materialName: 'Gasbeton', mappingType: ElementType.Material, mappingId: CONCRETE },
    ]);
    const outcome = await refineFile(db, fileId, noProgress);
    expect(outcome).toMatchObject({ mapped: 1, unmapped: 1 });
    expect(await element(fileId, 'stale')).toMatchObject({ mappingType: null, mappingId: null });
    expect(await element(fileId, 'remapped')).toMatchObject({ mappingId: AERATED_CONCRETE });
  });

  describe('on a few hundred elements', () => {
    const names = ['Beton C20/25', 'Gasbeton', 'Baksteen', 'Glas', 'Onbekend', 'Staal', 'Gips', 'Hout', 'Kozijn hardhout'];
    const classifications = [['21.24'], ['22.1'], ['31'], ['52.21'], ['90.12'], ['Wall'], [], ['0-.10'], ['27.2']];
    const phases = [['New'], ['Bestaand'], ['Sloop'], ['Rückbau'], [], ['Einbau']];
    const inputs: ElementInput[] = Array.from({ length: 350 }, (_, index) => ({
      id: `el-${String(index).padStart(4, '0')}`,
      materialName: names[index % names.length] ?? null,
      typeName: index % 7 === 0 ? 'Porenbeton' : null,
      classification: classifications[index % classifications.length] ?? [],
      phase: phases[index % phases.length] ?? [],
      materialId: index % 50 === 0 ? CONCRETE : null,
    }));

    it('reports progress per batch, monotonically, up to the total', async () => {
      const fileId = await createFile();
      await insertElements(fileId, inputs);
      const reports: [number, number][] = [];
      const outcome = await refineFile(db, fileId, (processed, total) => void reports.push([processed, total]), { batchSize: 100 });
      expect(reports).toEqual([
        [0, 350],
        [100, 350],
        [200, 350],
        [300, 350],
        [350, 350],
      ]);
      expect(outcome.mapped + outcome.unmapped).toBe(350);
      const rows = [...(await elements(fileId)).values()];
      expect(rows.filter((row) => row.mappingId !== null)).toHaveLength(outcome.mapped);
      expect(rows.filter((row) => row.classificationMatchId !== null)).toHaveLength(outcome.classified);
      expect(rows.every((row) => row.phaseMatchId !== null && row.brandLayerMatchId !== null)).toBe(true);
      expect(rows.filter((row) => row.materialId !== null).every((row) => row.mappingId === CONCRETE)).toBe(true);
    });

    it('hands every element over as it was written, once each, in id order', async () => {
      const fileId = await createFile();
      await insertElements(fileId, inputs);
      const handed: RefinedElement[] = [];
      await refineFile(db, fileId, noProgress, { batchSize: 100, refined: (element) => handed.push(element) });
      const stored = await elements(fileId);
      expect(handed.map((element) => element.id)).toEqual([...stored.keys()].sort());
      for (const element of handed) expect(stored.get(element.id)).toMatchObject(element);
    });

    it('is idempotent: a second run changes nothing and reports the same outcome', async () => {
      const fileId = await createFile();
      await insertElements(fileId, inputs);
      const first = await refineFile(db, fileId, noProgress, { batchSize: 64 });
      const after = await elements(fileId);
      const second = await refineFile(db, fileId, noProgress, { batchSize: 1000 });
      expect(second).toEqual(first);
      expect(await elements(fileId)).toEqual(after);
    });

    it('is restartable: a run that stops between batches, then a rerun, gives the result of one clean run', async () => {
      const clean = await createFile();
      await insertElements(clean, inputs);
      const expected = await refineFile(db, clean, noProgress, { batchSize: 100 });
      const expectedRows = [...(await elements(clean)).values()].map(({ buildingFileId: _, ...row }) => row);

      const crashed = await createFile();
      await insertElements(crashed, inputs);
      const crash = new Error('worker stopped');
      await expect(
        refineFile(db, crashed, (processed) => {
          if (processed === 200) throw crash;
        }, { batchSize: 100 }),
      ).rejects.toBe(crash);
      const partial = [...(await elements(crashed)).values()];
      expect(partial.filter((row) => row.phaseMatchId !== null)).toHaveLength(200);

      expect(await refineFile(db, crashed, noProgress, { batchSize: 100 })).toEqual(expected);
      expect([...(await elements(crashed)).values()].map(({ buildingFileId: _, ...row }) => row)).toEqual(expectedRows);
    });
  });

  it('refines an empty file', async () => {
    const fileId = await createFile();
    const reports: [number, number][] = [];
    expect(await refineFile(db, fileId, (processed, total) => void reports.push([processed, total]))).toEqual({
      mapped: 0,
      unmapped: 0,
      classified: 0,
    });
    expect(reports).toEqual([[0, 0]]);
  });

  it('fails for an unknown file', async () => {
    await expect(refineFile(db, randomUUID(), noProgress)).rejects.toThrow(/does not exist/);
  });

  it('speed: 100k elements against the platform’s rules and 300 more of a preferred database (printed)', { timeout: 300_000 }, async () => {
    // 300 extra rules of every match type in the account's own database.
    const extra = Array.from({ length: 100 }, () => randomUUID());
    await db
      .insertInto('materials')
      .values(
        extra.map((id) => ({
          id,
          accountId,
          name: '{}',
          elementFamily: null,
          description: '{}',
          supplier: null,
          specificWeight: null,
          lifeTime: null,
          circular: '{}',
          financial: '{}',
          createdAt: NOW,
          updatedAt: NOW,
        })),
      )
      .execute();
    await db
      .insertInto('material_matches')
      .values(
        extra.flatMap((materialId, index) => [
          { materialId, position: 0, value: `eigen materiaal ${index}`, matchType: MatchType.Equals },
          { materialId, position: 1, value: `merk${index}-`, matchType: MatchType.StartWith },
          { materialId, position: 2, value: `-serie${index}`, matchType: MatchType.EndsWith },
        ]),
      )
      .execute();
    const rules = Number(
      (await db.selectFrom('material_matches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
    );
    const fileId = await createFile([accountId]);
    const bases = ['Beton C20/25', 'Gasbeton wand', 'Baksteen rood', 'Isolatie glaswol', 'Onbekend materiaal', 'merk7-plaat', 'Staal S235', 'Kozijn hardhout'];
    const count = 100_000;
    let started = performance.now();
    await insertElements(
      fileId,
      Array.from({ length: count }, (_, index) => ({
        id: `E${String(index).padStart(6, '0')}`,
        // Every name distinct, so no result can be reused: the worst case for matching.
        materialName: `${bases[index % bases.length] ?? ''} ${index}`,
        typeName: `Type ${index % 977}`,
        classification: [`${21 + (index % 60)}.${index % 30}`],
        phase: [index % 3 === 0 ? 'Nieuw' : 'Bestaand'],
      })),
    );
    const insertSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const outcome = await refineFile(db, fileId, noProgress);
    const firstSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await refineFile(db, fileId, noProgress);
    const rerunSeconds = (performance.now() - started) / 1000;

    console.log(
      `refineFile: ${count} elements, ${rules} material rules: first run ${firstSeconds.toFixed(2)} s ` +
        `(${Math.round(count / firstSeconds)} elements/s), rerun without changes ${rerunSeconds.toFixed(2)} s; ` +
        `insert ${insertSeconds.toFixed(2)} s; mapped ${outcome.mapped}, unmapped ${outcome.unmapped}, classified ${outcome.classified}`,
    );
    expect(outcome.mapped + outcome.unmapped).toBe(count);
    expect((await element(fileId, 'E000005')).mappingId).toBe(extra[7]);
  });
});
