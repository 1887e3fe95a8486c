/**
 * IFC import (server/imports/README.md, "IFC"): every fixture of test/fixtures/ifc imports with the element count
 * and values the rules give; units are converted (mm, feet, grams, pounds); broken files are refused with a reason;
 * abort and sink errors stop the worker; the calling thread keeps running while a model parses.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importIfc, oldGenerationMbFor } from '../../../../server/imports/ifc';
import { LineReader } from '../../../../server/imports/ifc/raw';
import { UnitReader } from '../../../../server/imports/ifc/units';
import { WebIfc } from '../../../../server/imports/ifc/web-ifc';
import { UnknownImportFileError, type ImportedElement, type ImportOutcome, type ImportSink } from '../../../../server/imports/imported-element';
import { SYNTHETIC_DENSITY, syntheticElementCount, syntheticGlobalId, writeSyntheticIfc } from '../../../bench/synthetic-ifc';
import { IFC_FIXTURES } from '../../../fixtures/files';
import { smallIfc } from '../../../fixtures/small-ifc';

const fixture = (name: string): string => path.join(IFC_FIXTURES, name);

/** A worker start (tsx + web-ifc) takes about a second on an idle machine; leave room for a busy one. */
const SLOW = 60_000;

interface Collected {
  outcome: ImportOutcome;
  elements: ImportedElement[];
  batches: number[];
  progress: [number, number][];
}

async function run(filePath: string, signal?: AbortSignal): Promise<Collected> {
  const elements: ImportedElement[] = [];
  const batches: number[] = [];
  const progress: [number, number][] = [];
  const outcome = await importIfc(
    filePath,
    {
      elements: async (batch) => {
        batches.push(batch.length);
        elements.push(...batch);
      },
      progress: (processed, total) => {
        progress.push([processed, total]);
      },
    },
    signal === undefined ? {} : { signal },
  );
  return { outcome, elements, batches, progress };
}

function byId(elements: readonly ImportedElement[], id: string): ImportedElement {
  const element = elements.find((candidate) => candidate.id === id);
  if (element === undefined) throw new Error(`no element ${id}`);
  return element;
}

function countByClass(elements: readonly ImportedElement[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const element of elements) counts[element.elementClass ?? ''] = (counts[element.elementClass ?? ''] ?? 0) + 1;
  return counts;
}

/** How many MessagePorts (a live worker holds one) the process has open. */
function openPorts(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
}

/** Polls until `condition` holds (a terminated worker releases its port asynchronously); false after `timeoutMs`. */
async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

let temporary: string;
const results = new Map<string, Collected>();
const FIXTURE_FILES = [
  'AC20-FZK-Haus.ifc',
  'ISSUE_021_Mini_Project.ifc',
  'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc',
  'SampleHouse4.ifc',
  'duplex.ifc',
  'example.ifc',
];

beforeAll(async () => {
  temporary = await mkdtemp(path.join(tmpdir(), 'ifc-import-'));
  for (const name of FIXTURE_FILES) results.set(name, await run(fixture(name)));
}, 4 * SLOW);

afterAll(async () => {
  await rm(temporary, { recursive: true, force: true });
});

function result(name: string): Collected {
  const collected = results.get(name);
  if (collected === undefined) throw new Error(`${name} was not imported`);
  return collected;
}

describe('fixtures', () => {
  it.each([
    // 82 IfcElements, none aggregates another; its layer sets have one layer each.
    ['AC20-FZK-Haus.ifc', 82, 82],
    // 3687 IfcElements: 1051 IfcElementAssembly, 3 of them without parts (kept), 1048 replaced by their 2636 parts.
    ['ISSUE_021_Mini_Project.ifc', 2639, 2639],
    // One wall split into 7 parts: only the wall has quantities, so the wall counts whole.
    ['ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc', 1, 1],
    // 60 IfcElements: 2 curtain walls replaced by their plates and members; 28 elements of a layer set or a material
    // list become their 73 layers and materials.
    ['SampleHouse4.ifc', 58, 103],
    // 218 IfcElements: 2 stairs replaced by their flights, members and railings (5 parts each, counted already); the
    // roof counts whole (its slab has no quantities), so the slab is not counted; 79 walls and floors of a layer set
    // become their 246 layers.
    ['duplex.ifc', 215, 382],
    ['example.ifc', 115, 115],
  ])('%s: %i elements of the model import as %i, each id once, nothing rejected', (name, modelElements, count) => {
    const { outcome, elements, batches, progress } = result(name);
    expect(outcome).toMatchObject({ imported: count, rejected: [] });
    expect(elements).toHaveLength(count);
    expect(new Set(elements.map((element) => element.id)).size).toBe(count);
    expect(new Set(elements.map((element) => element.part?.of ?? element.id)).size).toBe(modelElements);
    expect(batches.every((size) => size > 0 && size <= 500)).toBe(true);
    // Progress counts the model's elements, a split one once.
    expect(progress[0]).toEqual([0, modelElements]);
    expect(progress.at(-1)).toEqual([modelElements, modelElements]);
    for (const element of elements) {
      expect(element.id).toMatch(element.part === null ? /^[0-9A-Za-z_$]{22}$/ : /^[0-9A-Za-z_$]{22}-[LC][1-9]\d*$/);
      expect(element.elementClass).toMatch(/^Ifc/);
      for (const quantity of [element.volume, element.area, element.length, element.width, element.height, element.weight]) {
        if (quantity !== null) expect(quantity).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('class counts follow the assembly rule', () => {
    expect(countByClass(result('ISSUE_021_Mini_Project.ifc').elements)).toEqual({
      IfcBeam: 1949,
      IfcColumn: 26,
      IfcDiscreteAccessory: 409,
      IfcElementAssembly: 3,
      IfcMember: 228,
      IfcSlab: 24,
    });
    const house = countByClass(result('SampleHouse4.ifc').elements);
    expect(house['IfcCurtainWall']).toBeUndefined();
    expect(house['IfcPlate']).toBe(6);
    expect(house['IfcMember']).toBe(20);
    const duplex = countByClass(result('duplex.ifc').elements);
    expect(duplex['IfcStair']).toBeUndefined();
    expect(duplex['IfcStairFlight']).toBe(2);
    expect(duplex['IfcRoof']).toBe(1);
    expect(countByClass(result('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc').elements)).toEqual({ IfcWall: 1 });
  });

  it('ArchiCAD (IFC4, German): Qto base quantities, layered material, storey, Umbau-Status', () => {
    const wall = byId(result('AC20-FZK-Haus.ifc').elements, '2XPyKWY018sA1ygZKgQPtU');
    expect(wall).toEqual({
      id: '2XPyKWY018sA1ygZKgQPtU',
      name: 'Wand-Int-ERDG-4',
      materialName: 'Leichtbeton 102890359',
      typeName: 'Leichtbeton 102890359 240',
      elementClass: 'IfcWallStandardCase',
      volume: 2.49624,
      area: 10.425,
      height: 2.5,
      width: 0.24,
      length: 4.17,
      weight: null,
      phaseLookup: ['Bestand'],
      classificationLookup: [],
      floor: 'Erdgeschoss',
      // An internal wall (Pset_WallCommon IsExternal false, not load-bearing): 22, from its class.
      classificationHints: [{ source: 'inferred', code: '22' }],
      materialHints: [],
      quantitySource: 'model',
      geometryIssue: null,
      // Its layer set has one layer: nothing to split.
      part: null,
    });
    const floors = new Set(result('AC20-FZK-Haus.ifc').elements.map((element) => element.floor));
    expect(floors).toEqual(new Set(['Erdgeschoss', 'Dachgeschoss']));
  });

  it('ArchiCAD: the project mass unit is the gram (factor 0.001 to kg), the others SI', async () => {
    const api = new WebIfc.IfcAPI();
    await api.Init(undefined, true);
    api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
    const modelId = api.OpenModel(await readFile(fixture('AC20-FZK-Haus.ifc')));
    try {
      expect(new UnitReader(new LineReader(api, modelId)).projectFactors()).toEqual({ length: 1, area: 1, volume: 1, mass: 0.001 });
    } finally {
      api.CloseModel(modelId);
    }
    // Tekla declares FOOT units but assigns millimetres: only the assignment counts.
    const tekla = api.OpenModel(await readFile(fixture('ISSUE_021_Mini_Project.ifc')));
    try {
      expect(new UnitReader(new LineReader(api, tekla)).projectFactors()).toEqual({ length: 0.001, area: 1, volume: 1, mass: 1 });
    } finally {
      api.CloseModel(tekla);
    }
  }, SLOW);

  it('Tekla (IFC2X3): millimetres to metres, NetWeight, integer phase, storey "Undefined"', () => {
    const member = byId(result('ISSUE_021_Mini_Project.ifc').elements, '1CSYMQ0000234oE38rD3an');
    expect(member).toMatchObject({ name: 'KOKER', materialName: 'STEEL/S235JR', typeName: 'PL15*120', elementClass: 'IfcMember' });
    expect(member.length).toBeCloseTo(0.23, 9);
    expect(member.width).toBeCloseTo(0.015, 12);
    expect(member.height).toBeCloseTo(0.12, 12);
    expect(member.weight).toBeCloseTo(3.312, 9);
    expect(member.volume).toBeCloseTo(0.000414, 12);
    expect(member.phaseLookup).toEqual(['1']);
    expect(member.floor).toBe('Undefined');
  });

  it('ArchiCAD (IFC2X3, French): a wall counted whole carries its quantities, classification, phase and its parts’ materials', () => {
    const [wall] = result('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc').elements;
    expect(wall).toEqual({
      id: '26aI5fmBWBJABaLrRFxgWH',
      name: null,
      // Parts ranked by how many there are of each (3 × Cloison), ties in file order.
      materialName:
        'Cloison - Stratifié / Divers - Vide / Struct. - Béton Mur Porteur # / Finition int - Carrelage DragonGrey 30x60 CASALGRANDE / Etanchéité - Pare pluie',
      typeName: '000-TEST cloisonSMS80sur talon béton 86 x 2240',
      elementClass: 'IfcWall',
      volume: 0.249286723059,
      area: 2.91563478924,
      height: 2.24,
      width: 0.0855,
      length: 1.30162267373,
      weight: null,
      phaseLookup: ['New'],
      classificationLookup: ['Mur'],
      floor: 'N0 Vaporarium',
      // "Mur" of ArchiCAD's own classification says nothing in NL-SfB; the class does.
      classificationHints: [{ source: 'inferred', code: '22' }],
      materialHints: [],
      quantitySource: 'model',
      geometryIssue: null,
      // An assembly taken whole is never split.
      part: null,
    });
  });

  it('Revit (IFC4): mm quantities, a material list in equal shares, layer sets by thickness, IFC4 Identification, curtain wall parts', () => {
    const { elements } = result('SampleHouse4.ifc');
    // An IfcMaterialList on the wall: one element per material, equal shares of its volume, marked assumed.
    const wall = elements.filter((element) => element.part?.of === '3cUkl32yn9qRSPvBJVyWw5');
    expect(wall.map((part) => [part.id, part.materialName])).toEqual([
      ['3cUkl32yn9qRSPvBJVyWw5-C1', 'Brick, Common'],
      ['3cUkl32yn9qRSPvBJVyWw5-C2', 'Fiberglass Batt'],
      ['3cUkl32yn9qRSPvBJVyWw5-C3', 'Concrete Masonry Units _Low Density'],
      ['3cUkl32yn9qRSPvBJVyWw5-C4', 'Plaster'],
    ]);
    for (const part of wall) {
      expect(part).toMatchObject({
        typeName: 'Basic Wall:Wall-Ext_102Bwk-75Ins-100LBlk-12P',
        elementClass: 'IfcWall',
        phaseLookup: ['New Construction'],
        floor: 'Ground Floor',
        part: { of: '3cUkl32yn9qRSPvBJVyWw5', kind: 'list', shareAssumed: true },
      });
      expect(part.length).toBeCloseTo(14, 9);
      expect(part.width).toBeCloseTo(0.29, 9);
      expect(part.volume).toBeCloseTo(7.69014560122734 / 4, 9);
    }
    // A layer set usage of a partition, thicknesses in mm: 12.5 + 70 + 12.5 over its side area.
    const partition = elements.filter((element) => element.part?.of === '3cUkl32yn9qRSPvBJVyWXt');
    expect(partition.map((part) => [part.id, part.materialName, part.part?.kind])).toEqual([
      ['3cUkl32yn9qRSPvBJVyWXt-L1', 'Plaster', 'layer'],
      ['3cUkl32yn9qRSPvBJVyWXt-L2', 'Metal Stud Layer', 'layer'],
      ['3cUkl32yn9qRSPvBJVyWXt-L3', 'Plaster', 'layer'],
    ]);
    expect(partition.map((part) => part.width)).toEqual([0.0125, 0.07, 0.0125]);
    for (const part of partition) expect(part.volume).toBeCloseTo((part.area ?? 0) * (part.width ?? 0), 12);
    // Furniture of a material list: its parts keep its class and classification.
    const furniture = elements.filter((element) => element.part?.of === '3cUkl32yn9qRSPvBJVyYGp');
    expect(furniture.length).toBeGreaterThan(1);
    for (const part of furniture) expect(part).toMatchObject({ elementClass: 'IfcFurniture', classificationLookup: ['E2020200'] });
    expect(byId(elements, '3cUkl32yn9qRSPvBJVyW$Y')).toMatchObject({ elementClass: 'IfcPlate', materialName: 'Glass', floor: 'Ground Floor' });
  });

  it('Revit (IFC2X3 duplex): quantities from Revit property sets, Phase Created, storeys, a layered wall by its layers', () => {
    const { elements } = result('duplex.ifc');
    const wall = elements.filter((element) => element.part?.of === '2O2Fr$t4X7Zf8NOew3FNtn');
    expect(wall.map((part) => [part.id.slice(-3), part.materialName, part.width])).toEqual([
      ['-L1', 'Masonry - Brick', 0.092],
      ['-L2', 'Misc. Air Layers - Air Space', 0.025],
      ['-L3', 'Insulation / Thermal Barriers - Rigid insulation', 0.05],
      ['-L4', 'Masonry - Concrete Block', 0.193],
      ['-L5', 'Metal - Stud Layer', 0.041],
      ['-L6', 'Plasterboard', 0.016],
    ]);
    for (const part of wall) {
      expect(part.area).toBeCloseTo(13.61184, 6);
      expect(part.length).toBeCloseTo(8.383, 9);
      expect(part.volume).toBeCloseTo(13.61184 * (part.width ?? 0), 9);
      expect(part).toMatchObject({ phaseLookup: ['New Construction'], floor: 'Level 1', elementClass: 'IfcWallStandardCase' });
    }
    // Its layers make up its volume: 13.61184 m² × 0.417 m.
    expect(wall.reduce((sum, part) => sum + (part.volume ?? 0), 0)).toBeCloseTo(5.67613728, 6);
    expect(elements.every((element) => element.phaseLookup.length > 0)).toBe(true);
    expect(new Set(elements.map((element) => element.floor)).size).toBe(4);
  });

  it('Revit (IFC2X3 example): Uniformat ItemReference, material only on the type', () => {
    const { elements } = result('example.ifc');
    expect(byId(elements, '20hzUDJSj9yPeKYPrwcR7N')).toMatchObject({ classificationLookup: ['B10'], materialName: 'Concrete, Cast-in-Place gray', floor: 'Level 1' });
    // IfcSlab #2238 has no material association; its IfcSlabType #2241 has.
    expect(byId(elements, '03RdpMwXDAcxzTBzSbZ5CU')).toMatchObject({
      materialName: 'Concrete, Cast-in-Place gray',
      typeName: 'Footing-Rectangular:1524x1524x228.6',
      classificationLookup: ['A1010100'],
    });
    expect(elements.filter((element) => element.classificationLookup.length > 0)).toHaveLength(52);
  });
});

describe('synthetic files (units, duplicates, batches)', () => {
  it('IFC4 walls in millimetres: every field as the generator wrote it, a wall of several layers as its layers', async () => {
    const file = path.join(temporary, 'walls-mm.ifc');
    await writeSyntheticIfc(file, { walls: 1_200, storeys: 3 });
    const { outcome, elements, batches, progress } = await run(file);
    // Three types of three layers, one of one: every 4 walls give 10 elements.
    expect(syntheticElementCount(1_200)).toBe(3_000);
    expect(outcome).toMatchObject({ imported: 3_000, rejected: [], parts: { elementsSplit: 900, partsMade: 2_700, layersLeftOut: 0 } });
    expect(batches).toEqual([500, 500, 500, 500, 500, 500]);
    // Progress counts walls: each batch of 500 elements holds 200 walls whole.
    expect(progress).toEqual([0, 200, 400, 600, 800, 1_000, 1_200].map((walls) => [walls, 1_200]));
    const wall = elements.filter((element) => element.part?.of === syntheticGlobalId(7));
    const thickness = [0.15, 0.018, 0.032];
    expect(wall.map((part) => [part.id, part.materialName])).toEqual([
      [`${syntheticGlobalId(7)}-L1`, 'Vuren hout'],
      [`${syntheticGlobalId(7)}-L2`, 'OSB'],
      [`${syntheticGlobalId(7)}-L3`, 'Gipskartonplaat'],
    ]);
    wall.forEach((part, index) => {
      expect(part).toMatchObject({
        name: 'Wall 7',
        elementClass: 'IfcWall',
        typeName: 'Basic Wall:HSB 200',
        phaseLookup: ['Existing'],
        classificationLookup: ['22.21'],
        floor: 'Level 0',
        part: { of: syntheticGlobalId(7), kind: 'layer', shareAssumed: false },
      });
      expect(part.length).toBeCloseTo(1.7, 9);
      expect(part.height).toBeCloseTo(2.7, 9);
      expect(part.width).toBeCloseTo(thickness[index] ?? 0, 9);
      expect(part.area).toBeCloseTo(1.7 * 2.7 * 0.95, 9);
      expect(part.volume).toBeCloseTo(1.7 * 2.7 * 0.95 * (thickness[index] ?? 0), 9);
      expect(part.weight).toBeCloseTo((1.7 * 2.7 * 0.2 * 0.95 * SYNTHETIC_DENSITY * (thickness[index] ?? 0)) / 0.2, 6);
    });
    expect(elements.filter((element) => element.part?.of === syntheticGlobalId(1_199)).map((part) => part.floor)).toEqual(['Level 2', 'Level 2', 'Level 2']);
    expect(elements.filter((element) => element.part?.of === syntheticGlobalId(0)).map((part) => part.materialName)).toEqual(['Baksteen', 'Minerale wol', 'Kalkzandsteen']);
    // A wall of one layer stays whole.
    expect(byId(elements, syntheticGlobalId(2))).toMatchObject({ materialName: 'Beton C30/37', part: null, typeName: 'Basic Wall:Beton 250' });
  }, SLOW);

  it('feet and pounds (a US project) are converted to metres and kilograms', async () => {
    const file = path.join(temporary, 'walls-ft.ifc');
    await writeSyntheticIfc(file, { walls: 10, lengthUnit: 'foot', massUnit: 'pound' });
    const { elements } = await run(file);
    const wall = elements.filter((element) => element.part?.of === syntheticGlobalId(3));
    // Written as 4.26509186352 ft long, 8.85826771654 ft high, layers of 0.492125984252, 0.0590551181102 and
    // 0.104986876640 ft (HSB 200); 2,646.47308772 lb.
    expect(wall.map((part) => part.width ?? 0).map((width) => Number(width.toFixed(9)))).toEqual([0.15, 0.018, 0.032]);
    for (const part of wall) {
      expect(part.length).toBeCloseTo(1.3, 9);
      expect(part.height).toBeCloseTo(2.7, 9);
    }
    expect(wall.reduce((sum, part) => sum + (part.weight ?? 0), 0)).toBeCloseTo(1.3 * 2.7 * 0.2 * 0.95 * SYNTHETIC_DENSITY, 6);
  }, SLOW);

  it('grams are converted to kilograms', async () => {
    const file = path.join(temporary, 'walls-g.ifc');
    await writeSyntheticIfc(file, { walls: 4, lengthUnit: 'metre', massUnit: 'gram' });
    const text = await readFile(file, 'latin1');
    expect(text).toContain('IFCSIUNIT(*,.MASSUNIT.,$,.GRAM.)');
    const { elements } = await run(file);
    const wall = byId(elements, syntheticGlobalId(2));
    expect(wall.weight).toBeCloseTo(1.2 * 2.7 * 0.25 * 0.95 * SYNTHETIC_DENSITY, 6);
    expect(wall.length).toBeCloseTo(1.2, 9);
  }, SLOW);

  it('a duplicate GlobalId keeps the first element and names the others in rejected', async () => {
    const file = path.join(temporary, 'duplicates.ifc');
    await writeSyntheticIfc(file, { walls: 5 });
    const text = await readFile(file, 'latin1');
    await writeFile(file, text.replace(`'${syntheticGlobalId(3)}'`, `'${syntheticGlobalId(1)}'`), 'latin1');
    const { outcome, elements } = await run(file);
    // Walls 0, 1, 2 and 4: three, three, one and three layers.
    expect(outcome.imported).toBe(10);
    expect(outcome.rejected).toHaveLength(1);
    expect(outcome.rejected[0]).toMatch(new RegExp(`^#\\d+ IfcWall 'Wall 3': duplicate GlobalId ${syntheticGlobalId(1).replace('$', '\\$')} \\(kept #\\d+\\)$`));
    expect(elements.filter((element) => element.part?.of === syntheticGlobalId(1)).map((part) => part.name)).toEqual(['Wall 1', 'Wall 1', 'Wall 1']);
  }, SLOW);
});

describe('files that are not importable', () => {
  async function refusal(name: string, content: string | Uint8Array): Promise<unknown> {
    const file = path.join(temporary, name);
    await writeFile(file, content);
    return run(file).then(
      () => new Error('imported'),
      (error: unknown) => error,
    );
  }

  it.each([
    ['empty.ifc', '', /empty/],
    ['random.ifc', Uint8Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 256), /binary/],
    ['zip.ifc', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), /ZIP/],
    ['xml.ifc', '<?xml version="1.0"?><ifcXML/>', /XML/],
    ['text.ifc', 'Hello, this is not a model.\n', /ISO-10303-21/],
    ['no-end.ifc', "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('x'),'2;1');\n", /ENDSEC/],
    ['no-schema.ifc', "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('x'),'2;1');\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n", /FILE_SCHEMA/],
  ])('%s → UnknownImportFileError', async (name, content, message) => {
    const error = await refusal(name, content);
    expect(error).toBeInstanceOf(UnknownImportFileError);
    expect((error as Error).message).toMatch(message);
  });

  it('an unknown schema (a STEP file of another kind) → UnknownImportFileError naming it', async () => {
    const text = await readFile(fixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc'), 'latin1');
    expect(text).toContain("FILE_SCHEMA(('IFC2X3'))");
    for (const schema of ['IFC2X2_FINAL', 'AP214_AUTOMOTIVE_DESIGN', 'IFC4X1']) {
      const error = await refusal(`${schema}.ifc`, Buffer.from(text.replace("FILE_SCHEMA(('IFC2X3'))", `FILE_SCHEMA(('${schema}'))`), 'latin1'));
      expect(error).toBeInstanceOf(UnknownImportFileError);
      expect((error as Error).message).toContain(schema);
    }
  });

  it('a truncated copy of a fixture → UnknownImportFileError (web-ifc would read it half)', async () => {
    const file = path.join(temporary, 'truncated.ifc');
    const bytes = await readFile(fixture('duplex.ifc'));
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = await run(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownImportFileError);
    expect((error as Error).message).toMatch(/truncated/);
  });

  it('a missing file → an Error with the path, not an UnknownImportFileError', async () => {
    const error = await run(path.join(temporary, 'missing.ifc')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnknownImportFileError);
    expect((error as Error).message).toContain('missing.ifc');
  });

  it('garbage between a valid header and end settles (no crash, no hang): nothing or an error with a message', async () => {
    const file = path.join(temporary, 'garbage.ifc');
    const lines = [
      'ISO-10303-21;',
      'HEADER;',
      "FILE_DESCRIPTION(('x'),'2;1');",
      "FILE_NAME('g','2024-01-01',(''),(''),'','','');",
      "FILE_SCHEMA(('IFC4'));",
      'ENDSEC;',
      'DATA;',
      "#1=IFCWALL('0SynthIfc0000000000000',#99,'broken',$,$,#,#,'',.NOPE.);",
      '#2=IFCRELCONTAINEDINSPATIALSTRUCTURE(((((;',
      "#3=IFCPROPERTYSET('x',$,'y',$,(#1,#2,#3));",
      '#4=IFCRELDEFINESBYPROPERTIES($,$,$,$,(#1),#3);',
      'this is not STEP at all ;;; )))',
      'ENDSEC;',
      'END-ISO-10303-21;',
    ];
    await writeFile(file, lines.join('\n'));
    const settled = await run(file).then(
      (collected) => collected.outcome,
      (error: unknown) => error,
    );
    if (settled instanceof Error) expect(settled.message.length).toBeGreaterThan(0);
    else expect((settled as ImportOutcome).imported).toBeLessThanOrEqual(1);
  }, SLOW);
});

describe('what makes an element count (server/imports/README.md, "What counts")', () => {
  it('a classification reference of another system becomes a model hint through its table (Uniformat on Revit models)', () => {
    const element = byId(result('example.ifc').elements, '20hzUDJSj9yPeKYPrwcR7N');
    expect(element.classificationLookup).toEqual(['B10']);
    expect(element.classificationHints[0]).toEqual({ source: 'model', code: '28' });
    const furniture = result('SampleHouse4.ifc').elements.filter((candidate) => candidate.elementClass === 'IfcFurniture');
    expect(furniture.length).toBeGreaterThan(0);
    // Uniformat E20 (furnishings) is NL-SfB 8- on those that carry it (IFC4 Identification).
    expect(furniture.filter((item) => item.classificationHints.some((hint) => hint.source === 'model' && hint.code === '8-')).length).toBeGreaterThan(0);
  });

  it('the class, its PredefinedType and Pset_*Common give the inferred hint', () => {
    const { elements } = result('AC20-FZK-Haus.ifc');
    const slab = elements.find((candidate) => candidate.name === 'Bodenplatte');
    expect(slab?.classificationHints).toEqual([{ source: 'inferred', code: '13' }]);
    const rafter = elements.find((candidate) => candidate.name === 'Sparren-1');
    // Pset_BeamCommon LoadBearing on a member of the roof: the main load-bearing structure.
    expect(rafter?.classificationHints).toEqual([{ source: 'inferred', code: '28' }]);
    // Every element but the proxies of a model gets a hint of some kind.
    expect(elements.every((element) => element.classificationHints.length > 0)).toBe(true);
  });

  it('material properties of CAD tools become material hints: ArchiCAD’s surface, Revit’s "… Material" parameters', () => {
    const rafter = result('AC20-FZK-Haus.ifc').elements.find((candidate) => candidate.name === 'Sparren-1');
    expect(rafter).toMatchObject({ materialName: 'Solid', materialHints: ['Kiefer'] });
    const window = result('duplex.ifc').elements.find((candidate) => candidate.elementClass === 'IfcWindow' && candidate.materialHints.includes('Glass'));
    expect(window).toBeDefined();
  });

  it('an element without a volume in its sets gets one from its geometry; one with a volume keeps it', () => {
    const { elements } = result('duplex.ifc');
    const fromGeometry = elements.filter((element) => element.quantitySource === 'geometry');
    expect(fromGeometry.length).toBeGreaterThan(50);
    for (const element of fromGeometry) expect(element.volume).toBeGreaterThan(0);
    const wall = elements.filter((element) => element.part?.of === '2O2Fr$t4X7Zf8NOew3FNtn');
    expect(wall).toHaveLength(6);
    for (const part of wall) expect(part).toMatchObject({ quantitySource: 'model', geometryIssue: null });
    expect(wall.reduce((sum, part) => sum + (part.volume ?? 0), 0)).toBeCloseTo(5.67613728, 6);
    // What the geometry cannot close is named, and gives no volume.
    for (const element of elements.filter((candidate) => candidate.geometryIssue !== null)) expect(element.quantitySource === 'geometry').toBe(false);
  });

  it('models that carry their volumes are never tessellated', () => {
    const { elements } = result('ISSUE_021_Mini_Project.ifc');
    expect(elements.filter((element) => element.quantitySource === 'geometry' || element.geometryIssue !== null).length).toBeLessThan(10);
  });

  it('a presentation layer named with an NL-SfB code, and references of a system named in the model, give their hints', async () => {
    const file = path.join(temporary, 'hints.ifc');
    await writeFile(
      file,
      smallIfc([
        { entity: 'IFCWALL', name: 'By layer', body: 'box', layer: '21.1_Buitenwanden', material: 'Beton' },
        { entity: 'IFCWALL', name: 'By NS 3451', body: 'box', classification: { system: 'NS 3451', code: '23' } },
        { entity: 'IFCWALL', name: 'By NL-SfB', body: 'box', classification: { system: 'NL-SfB', code: '22.1' } },
        { entity: 'IFCBUILDINGELEMENTPROXY', name: 'Nothing', body: 'box', layer: 'A-WALL' },
      ]),
      'latin1',
    );
    const { elements } = await run(file);
    const hints = (name: string) => elements.find((element) => element.name === name)?.classificationHints;
    expect(hints('By layer')).toEqual([
      { source: 'layer', code: '21.1' },
      { source: 'inferred', code: '22' },
    ]);
    // NS 3451 23 is an external wall; its lookup keeps what the model said.
    expect(hints('By NS 3451')?.[0]).toEqual({ source: 'model', code: '21' });
    expect(elements.find((element) => element.name === 'By NS 3451')?.classificationLookup).toEqual(['23']);
    expect(hints('By NL-SfB')?.[0]).toEqual({ source: 'model', code: '22.1' });
    expect(hints('Nothing')).toEqual([]);
    // Boxes without quantity sets: volumes from the geometry.
    expect(elements.every((element) => element.quantitySource === 'geometry')).toBe(true);
    expect(elements[0]?.volume).toBeCloseTo(2.4, 6);
  }, SLOW);
});

describe('the worker', () => {
  let large: string;
  beforeAll(async () => {
    large = path.join(temporary, 'large.ifc');
    await writeSyntheticIfc(large, { walls: 30_000 });
  }, SLOW);

  it('an abort terminates the worker and rejects with the abort reason, even while the sink is busy', async () => {
    const portsBefore = openPorts();
    const controller = new AbortController();
    let batches = 0;
    const sink: ImportSink = {
      elements: () => {
        batches++;
        controller.abort();
        // A sink that never finishes: only the abort can end the import.
        return new Promise<void>(() => undefined);
      },
      progress: () => undefined,
    };
    const started = Date.now();
    const error = await importIfc(large, sink, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(SLOW);
    expect(await eventually(() => openPorts() <= portsBefore)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(batches).toBe(1);
  }, SLOW);

  it('an abort during parsing stops at once; an already aborted signal never starts a worker', async () => {
    const portsBefore = openPorts();
    const controller = new AbortController();
    const pending = run(large, controller.signal).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const aborted = Date.now();
    controller.abort(new Error('stop now'));
    const error = await pending;
    expect((error as Error).message).toBe('stop now');
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(await eventually(() => openPorts() <= portsBefore)).toBe(true);

    const before = openPorts();
    await expect(run(fixture('example.ifc'), AbortSignal.abort())).rejects.toThrow();
    expect(openPorts()).toBe(before);
  }, SLOW);

  it('a failing sink ends the import with its error; backpressure keeps one batch in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    const failing = new Error('database is full');
    const error = await importIfc(large, {
      elements: async () => {
        calls++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        if (calls === 4) throw failing;
      },
      progress: () => undefined,
    }).catch((caught: unknown) => caught);
    expect(error).toBe(failing);
    expect(calls).toBe(4);
    expect(maxInFlight).toBe(1);
  }, SLOW);

  it('the calling thread is not blocked while a model parses', async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 10);
    try {
      const { outcome } = await run(large);
      expect(outcome.imported).toBe(syntheticElementCount(30_000));
    } finally {
      clearInterval(timer);
    }
    // Parsing 30,000 walls takes seconds; the timer kept ticking through it. (A blocked thread would show one gap as
    // long as the parse; the bound leaves room for a busy machine's scheduling.)
    expect(gaps.length).toBeGreaterThan(50);
    expect(Math.max(...gaps)).toBeLessThan(1_500);
  }, SLOW);

  it('a file can be imported by several imports at once', async () => {
    const copy = path.join(temporary, 'copy.ifc');
    await copyFile(fixture('example.ifc'), copy);
    const [first, second] = await Promise.all([run(copy), run(fixture('example.ifc'))]);
    expect(first.outcome.imported).toBe(115);
    expect(second.elements).toEqual(first.elements);
  }, SLOW);

  it('a model without elements imports nothing, and says so through progress', async () => {
    const file = path.join(temporary, 'no-elements.ifc');
    await writeSyntheticIfc(file, { walls: 0 });
    const { outcome, progress, batches } = await run(file);
    expect(outcome).toMatchObject({ imported: 0, rejected: [] });
    expect(progress).toEqual([[0, 0]]);
    expect(batches).toEqual([]);
  }, SLOW);

  it('gives the worker an old generation of at least 1 GiB and of twice the file plus 256 MB for a large one', () => {
    const mib = 1024 * 1024;
    expect(oldGenerationMbFor(0)).toBe(1_024);
    expect(oldGenerationMbFor(120 * mib)).toBe(1_024);
    expect(oldGenerationMbFor(500 * mib)).toBe(1_256);
    expect(oldGenerationMbFor(2 * 1024 * mib)).toBe(4_352);
  });
});
