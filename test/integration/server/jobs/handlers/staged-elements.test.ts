/**
 * Staging an import's elements (server/jobs/handlers/staged-elements.ts): a batch stages exactly the rows its elements
 * staged one by one would, whatever its size, however the parts of split elements fall in it, and where ids collide —
 * on SQLite and on PostgreSQL. The later parts of a split element are written as copies of their first sibling's row,
 * so these compare every column of every row with the rows of the same elements staged alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedElement, PartKind } from '../../../../../server/imports/imported-element';
import { partRow } from '../../../../../server/imports/part-batches';
import { ReportElementColumns } from '../../../../../server/jobs/handlers/report-element-columns';
import { STAGED_ROWS_PER_INSERT, stageElementBatch } from '../../../../../server/jobs/handlers/staged-elements';
import { FileRefinement } from '../../../../../server/refine/refine-file';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../../harness';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
});

/** A new source file of a new building. */
async function newFile(): Promise<string> {
  const { buildingId } = await createPortfolioWithBuilding(test);
  const created = await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files`, payload: { type: 0 } });
  return (created.json() as { id: string }).id;
}

/** An element as the IFC importer reads it. */
function element(id: string, fields: Partial<ImportedElement> = {}): ImportedElement {
  return {
    id,
    name: `Wall ${id}`,
    materialName: 'Beton',
    typeName: 'Basic Wall:Spouwmuur 300',
    elementClass: 'IfcWall',
    volume: 2.4,
    area: 8,
    height: 2.7,
    width: 0.3,
    length: 3,
    weight: null,
    phaseLookup: ['New Construction'],
    classificationLookup: ['21.12'],
    floor: 'Level 1',
    classificationHints: [{ source: 'inferred', code: '21' }],
    materialHints: ['Steen'],
    quantitySource: 'model',
    geometryIssue: null,
    part: null,
    ...fields,
  };
}

/** The parts of `whole` as element-parts.ts makes them: the first with the element's fields, the others from it. */
function parts(whole: ImportedElement, kind: PartKind, materials: readonly (string | null)[]): ImportedElement[] {
  const suffix = kind === 'layer' ? 'L' : 'C';
  const owns = materials.map((materialName, index) => ({
    id: `${whole.id}-${suffix}${index + 1}`,
    materialName,
    volume: index + 0.5,
    width: 0.1 * (index + 1),
    weight: index === 1 ? null : 100 * (index + 1),
    quantitySource: 'model' as const,
  }));
  const [own, ...others] = owns;
  if (own === undefined) return [whole];
  const first: ImportedElement = { ...whole, ...own, part: { of: whole.id, kind, shareAssumed: kind !== 'layer' } };
  return [first, ...others.map((other) => partRow(first, other))];
}

/** Stages `elements` into a new file in batches of the given sizes, in turn; answers the file's staged rows and report. */
async function stage(elements: readonly ImportedElement[], sizes: readonly number[]): Promise<{ rows: Record<string, unknown>[]; report: unknown[] }> {
  const { db } = test.server.context;
  const fileId = await newFile();
  const refinement = await FileRefinement.load(db, fileId);
  const report = new ReportElementColumns();
  let start = 0;
  for (let turn = 0; start < elements.length; turn++) {
    const size = sizes[turn % sizes.length] ?? 1;
    await stageElementBatch(db, fileId, elements.slice(start, start + size), refinement, report);
    start += size;
  }
  const rows = await db.selectFrom('staged_elements').selectAll().where('buildingFileId', '=', fileId).orderBy('id').execute();
  return { rows: rows.map(({ buildingFileId: _file, ...row }) => row), report: report.toElements() };
}

/** What each element staged alone gives, against what the batches of `sizes` give. */
async function expectStagedAsAlone(elements: readonly ImportedElement[], sizes: readonly number[]): Promise<void> {
  const alone = await stage(elements, [1]);
  const batched = await stage(elements, sizes);
  expect(batched.rows).toEqual(alone.rows);
  expect(batched.report).toEqual(alone.report);
}

/** For each field a part shares with its element, a value other than `element`'s. */
const otherThanFirst: { [Field in Exclude<keyof ImportedElement, 'id' | 'materialName' | 'volume' | 'width' | 'weight' | 'quantitySource'>]-?: ImportedElement[Field] } = {
  name: 'Other',
  typeName: null,
  elementClass: 'IfcColumn',
  area: 3,
  height: null,
  length: 2,
  phaseLookup: ['Existing'],
  classificationLookup: ['22.11'],
  floor: null,
  classificationHints: [],
  materialHints: ['Hout'],
  geometryIssue: 'open',
  materialId: 'no-such-material',
  // The element of this field is `other-part`: the same element, another share.
  part: { of: 'other-part', kind: 'layer', shareAssumed: true },
};

describe('staging a batch of elements', () => {
  it('stages the rows of split elements as each element alone would, however the batches fall', async () => {
    const layered = Array.from({ length: 180 }, (_, index) =>
      parts(element(`wall${String(index).padStart(3, '0')}`, { volume: index % 7 === 0 ? null : 2.4, area: index % 5 === 0 ? null : 8 }), 'layer', [
        'Beton',
        index % 3 === 0 ? null : 'Minerale wol',
        'Kalkzandsteen',
      ]),
    ).flat();
    const elements = [
      element('whole'),
      ...layered,
      ...parts(element('door', { elementClass: 'IfcDoor', materialHints: [] }), 'list', ['Hout', 'Glas', 'Staal', 'Aluminium']),
      ...parts(element('slab', { elementClass: 'IfcSlab', phaseLookup: [], classificationLookup: [] }), 'constituent', ['Beton', 'Wapening']),
      // Equal fields in arrays of their own: the same row.
      ...parts(element('copy'), 'layer', ['Beton', 'Gips']).map((part) => ({ ...part, phaseLookup: [...part.phaseLookup], materialHints: [...part.materialHints] })),
      // A part with any field not its first sibling's (other than its own) is its own row.
      ...Object.entries(otherThanFirst).flatMap(([field, value]) =>
        parts(element(`other-${field}`), 'layer', ['Beton', 'Gips', 'Hout']).map((part, index) => (index === 2 ? { ...part, [field]: value } : part)),
      ),
      ...parts(element('other-kind'), 'layer', ['Beton', 'Gips']).map((part, index) => (index === 1 ? { ...part, part: { of: 'other-kind', kind: 'list' as const, shareAssumed: false } } : part)),
      ...parts(element('other-of'), 'layer', ['Beton', 'Gips']).map((part, index) => (index === 1 ? { ...part, part: { of: 'elsewhere', kind: 'layer' as const, shareAssumed: false } } : part)),
      // U+0000 is not stored, in ids and texts alike.
      ...parts(element('nul\0id', { name: 'a\0b' }), 'layer', ['Beton', 'Gi\0ps']),
      element('last'),
    ];
    expect(elements.length).toBeGreaterThan(STAGED_ROWS_PER_INSERT);
    await expectStagedAsAlone(elements, [STAGED_ROWS_PER_INSERT]);
    await expectStagedAsAlone(elements, [7, 1, 64, 333, 2]);
  });

  it('keeps the first row of an id where a part of a split element has an id an earlier element took', async () => {
    const elements = [
      // Taken in an earlier batch: the first part's id, so its siblings have no row to copy; and a later part's own id.
      element('W-L1', { name: 'Not a layer' }),
      element('V-L2', { name: 'Not a layer either' }),
      ...parts(element('W'), 'layer', ['Beton', 'Minerale wol', 'Kalkzandsteen']),
      ...parts(element('V'), 'layer', ['Beton', 'Minerale wol', 'Kalkzandsteen']),
      // In the same batch, after the parts: the parts' rows are kept.
      ...parts(element('U'), 'layer', ['Beton', 'Minerale wol', 'Kalkzandsteen']),
      element('U-L2', { name: 'Later' }),
      element('U-L1', { name: 'Later' }),
    ];
    await expectStagedAsAlone(elements, [2, 6, 5]);
    await expectStagedAsAlone(elements, [STAGED_ROWS_PER_INSERT]);
  });
});
