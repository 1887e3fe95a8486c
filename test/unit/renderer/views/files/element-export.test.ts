import 'fake-indexeddb/auto';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ElementType } from '../../../../../shared/api/enums';
import type { BuildingFileElementResponse, BuildingFileResponse, Material, Product } from '../../../../../shared/api/schemas';
import { applyServerBuildings, applyServerFiles, applyServerList, beginElementPull, finishElementPull, writeElementPage } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { elementsCsv, elementsXlsx, EXPORT_FIELDS, exportHeader, exportQuantity, exportRow } from '../../../../../renderer/views/files/element-export';

const BUILDING = '11111111-1111-4111-8111-111111111111';
const FILE = '22222222-2222-4222-8222-222222222222';
const CONCRETE = '33333333-3333-4333-8333-333333333333';
const WINDOW = '44444444-4444-4444-8444-444444444444';
const NEW = { id: 'ff9ff42a-3742-4a8f-88a4-0ea54a7fe4f4', name: 'New' };

/** An element as the server answers it, every field empty but those given. */
function element(fields: Partial<BuildingFileElementResponse> & { id: string }): BuildingFileElementResponse {
  return {
    name: null,
    buildingFileId: FILE,
    materialName: null,
    typeName: null,
    elementClass: null,
    volume: null,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    mapping: null,
    phaseMatch: null,
    brandLayerMatch: null,
    classificationMatch: null,
    phaseLookup: null,
    classificationLookup: null,
    floor: null,
    ...fields,
  };
}

const wall = element({
  id: '2O2Fr$t4X7Zf8NOew3FLOH',
  name: 'Basic Wall: Exterior, 300',
  materialName: 'Concrete, Cast In Situ',
  typeName: 'Exterior - 300',
  elementClass: 'IfcWallStandardCase',
  volume: 0.023856000000000002,
  area: 0.1 + 0.2,
  height: 3,
  width: 0.3,
  length: 12.000000000000002,
  weight: null,
  mapping: { type: ElementType.Material, id: CONCRETE },
  phaseMatch: NEW,
  classificationMatch: { id: '55555555-5555-4555-8555-555555555555', code: '21.22', name: 'Buitenwanden; massief' },
  phaseLookup: ['Nieuwbouw'],
  classificationLookup: [],
  floor: 'Level 1',
});

describe('an export row', () => {
  it('holds the import template’s columns, headed in the language asked for, with the mapping’s name beside its id', () => {
    expect(exportHeader('en')).toEqual([
      'Id', 'Name', 'Description', 'Material/Product', 'Mapped to', 'Material/Product id', 'Classification code', 'Floor',
      'Volume', 'Area', 'Length', 'Width', 'Height', 'Weight', 'Phase', 'IFC class',
    ]);
    expect(exportHeader('fr')).toEqual([
      'Id', 'Nom', 'Description', 'Matériau/Produit', 'Associé à', 'Id matériau/produit', 'Code de classification', 'Étage',
      'Volume', 'Surface', 'Longueur', 'Largeur', 'Hauteur', 'Poids', 'Phase', 'Classe IFC',
    ]);
    expect(exportRow(wall, 'Beton')).toEqual([
      '2O2Fr$t4X7Zf8NOew3FLOH', 'Basic Wall: Exterior, 300', 'Exterior - 300', 'Concrete, Cast In Situ', 'Beton', CONCRETE, '21.22',
      'Level 1', 0.023856, 0.3, 12, 0.3, 3, null, 'New', 'IfcWallStandardCase',
    ]);
  });

  it('of an unmapped, unrefined element: empty cells, and the lookups where there is no match', () => {
    const bare = element({ id: 'E1', phaseLookup: ['Bestaand'], classificationLookup: ['21.1', 'NL-SfB 22'] });
    expect(exportRow(bare, '')).toEqual(['E1', null, null, null, null, null, '21.1, NL-SfB 22', null, null, null, null, null, null, null, 'Bestaand', null]);
  });

  it('says the classification and phase the user chose here, before the server has matched them', () => {
    const edited: ElementRow = { ...wall, classificationLookup: ['22.1'], phaseLookup: ['Sloop'], base: wall };
    const cells = exportRow(edited, 'Beton');
    expect(cells[EXPORT_FIELDS.indexOf('classification')]).toBe('22.1');
    expect(cells[EXPORT_FIELDS.indexOf('phase')]).toBe('Sloop');
    const renamed: ElementRow = { ...wall, name: 'Renamed', base: wall };
    expect(exportRow(renamed, 'Beton')[EXPORT_FIELDS.indexOf('classification')]).toBe('21.22');
    expect(exportRow(renamed, 'Beton')[EXPORT_FIELDS.indexOf('phase')]).toBe('New');
  });

  it('writes quantities as the decimals they stand for, without binary tails', () => {
    const cases: [number, string][] = [
      [0.1 + 0.2, '0.3'],
      [0.023856000000000002, '0.023856'],
      [12.000000000000002, '12'],
      [1 / 3, '0.333333333333333'],
      [2 / 3, '0.666666666666667'],
      [1234567.891, '1234567.891'],
      [0, '0'],
      [1e-7, '1e-7'],
      [123456789012345680, '123456789012346000'],
    ];
    for (const [value, text] of cases) expect(String(exportQuantity(value)), String(value)).toBe(text);
    expect(exportQuantity(null)).toBeNull();
    // What the 15 digits keep: every decimal of up to 15 significant digits comes back as itself.
    for (const text of ['0.023856', '2.49624', '10.425', '0.000125', '98765.4321']) expect(String(exportQuantity(Number(text)))).toBe(text);
  });
});

async function cacheWith(elements: BuildingFileElementResponse[]): Promise<CacheDb> {
  const db = new CacheDb(`export-${Math.random()}`);
  await applyServerBuildings(db, [{ id: BUILDING, portfolioId: BUILDING, name: 'School' } as never]);
  const stamp = '2026-01-01T00:00:00.000Z';
  await applyServerFiles(db, BUILDING, [{ id: FILE, buildingId: BUILDING, type: 0, status: 3, lastModifiedDate: stamp } as BuildingFileResponse]);
  await applyServerList(db, 'materials', [{ id: CONCRETE, name: { en: 'Concrete', nl: 'Beton' } } as unknown as Material]);
  await applyServerList(db, 'products', [{ id: WINDOW, name: { en: 'Window, triple glazed' } } as unknown as Product]);
  const cursor = await beginElementPull(
    db,
    { key: `elements:${FILE}`, kind: 'element-cursor', buildingId: BUILDING, fileId: FILE, stamp, pageSize: 10, nextSkip: 3, pagesDone: 1, expectedCount: 3, startedAt: stamp },
    null,
  );
  await writeElementPage(db, cursor, elements, { phase: 'lists', collection: 'x' });
  await finishElementPull(db, cursor);
  return db;
}

const elements = [
  wall,
  element({ id: 'W-2', name: 'Window, east', mapping: { type: ElementType.QuantityProduct, id: WINDOW }, phaseMatch: NEW, volume: 0.1 + 0.7 }),
  element({ id: 'X-3', name: '=HYPERLINK("x")', mapping: { type: ElementType.Material, id: '66666666-6666-4666-8666-666666666666' }, phaseMatch: NEW }),
];

describe('exporting the view', () => {
  it('writes the view in its order to XLSX: a bold header in the language, mapped names from the cache, quantities as plain numbers', async () => {
    const db = await cacheWith(elements);
    const written: number[] = [];
    const blob = await elementsXlsx(db, FILE, ['X-3', 'W-2', wall.id], 'nl', 'school.ifc', (done) => written.push(done));

    const bytes = await blob.arrayBuffer();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('school.ifc');
    expect(sheet?.getRow(1).font?.bold).toBe(true);
    const rows = sheet?.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1)) ?? [];
    expect(rows[0]).toEqual(exportHeader('nl'));
    const at = (row: unknown[] | undefined, field: (typeof EXPORT_FIELDS)[number]) => row?.[EXPORT_FIELDS.indexOf(field)];
    expect(rows.slice(1).map((row) => [at(row, 'id'), at(row, 'mappedTo'), at(row, 'materialId'), at(row, 'volume')])).toEqual([
      // Mapped to an item the cache does not hold: its id, no name.
      ['X-3', undefined, '66666666-6666-4666-8666-666666666666', undefined],
      ['W-2', 'Window, triple glazed', WINDOW, 0.8],
      [wall.id, 'Beton', CONCRETE, 0.023856],
    ]);
    const sheetXml = await (await JSZip.loadAsync(bytes)).file('xl/worksheets/sheet1.xml')?.async('string');
    expect(sheetXml).toContain('<v>0.023856</v>');
    expect(sheetXml).not.toMatch(/0\.0238560000|0\.30000000|0\.79999999/u);
    expect(written).toEqual([3]);
  });

  it('writes CSV in UTF-8 with a byte order mark, headed in the language, quoting and guarding text where needed', async () => {
    const db = await cacheWith(elements);
    const bytes = new Uint8Array(await (await elementsCsv(db, FILE, [wall.id, 'W-2', 'X-3'], 'de')).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).split('\r\n');
    expect(lines).toEqual([
      'Id,Name,Beschreibung,Material/Produkt,Zugeordnet zu,Material/Produkt-ID,Klassifikationscode,Geschoss,Volumen,Fläche,Länge,Breite,Höhe,Gewicht,Phase,IFC-Klasse',
      `2O2Fr$t4X7Zf8NOew3FLOH,"Basic Wall: Exterior, 300",Exterior - 300,"Concrete, Cast In Situ",Concrete,${CONCRETE},21.22,Level 1,0.023856,0.3,12,0.3,3,,New,IfcWallStandardCase`,
      `W-2,"Window, east",,,"Window, triple glazed",${WINDOW},,,0.8,,,,,,New,`,
      `X-3,"'=HYPERLINK(""x"")",,,,66666666-6666-4666-8666-666666666666,,,,,,,,,New,`,
      '',
    ]);
  });
});
