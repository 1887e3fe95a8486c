/**
 * Elements of a layered or composite material split into one element per part (server/imports/ifc/material-splits.ts,
 * element-parts.ts; server/imports/README.md, "Materials"), through `importIfc`: on small models made for the tests
 * (layer sets on the element and on the type, bare and through a usage, in metres and millimetres, constituents with
 * and without fractions, a material list, layers without material or with a bad thickness, Pset_Madaster), and on the
 * fixtures that carry layer sets, each split element's parts against a reading of the same file through web-ifc's own
 * API (its properties helper and `GetLine`), which shares nothing with the import's STEP reader and extraction.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportPartsFindings } from '../../../../../shared/api';
import { importIfc } from '../../../../../server/imports/ifc';
import { WebIfc, type IfcAPI } from '../../../../../server/imports/ifc/web-ifc';
import type { ImportedElement, ImportOutcome } from '../../../../../server/imports/imported-element';
import { ifcFixture, type IfcFixtureName } from '../../../../fixtures/files';
import { smallIfc, type SmallIfcElement, type SmallIfcOptions } from '../../../../fixtures/small-ifc';

/** A worker start (tsx + web-ifc) takes about a second on an idle machine; leave room for a busy one. */
const SLOW = 60_000;

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'element-parts-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function importFile(file: string): Promise<{ outcome: ImportOutcome; elements: ImportedElement[] }> {
  const elements: ImportedElement[] = [];
  const outcome = await importIfc(file, {
    elements: async (batch) => {
      elements.push(...batch);
    },
    progress: () => undefined,
  });
  return { outcome, elements };
}

let models = 0;
async function importSmall(elements: readonly SmallIfcElement[], options: SmallIfcOptions = {}) {
  const file = path.join(directory, `small-${models++}.ifc`);
  await writeFile(file, smallIfc(elements, options), 'latin1');
  return importFile(file);
}

/** The rows of the element named `name`: its parts in order, or itself. */
function rowsOf(elements: readonly ImportedElement[], name: string): ImportedElement[] {
  return elements.filter((element) => element.name === name);
}

/** What a test compares of a part. */
function summary(rows: readonly ImportedElement[]) {
  return rows.map((row) => ({
    id: row.id,
    materialName: row.materialName,
    volume: row.volume === null ? null : Number(row.volume.toFixed(9)),
    width: row.width === null ? null : Number(row.width.toFixed(9)),
    weight: row.weight === null ? null : Number(row.weight.toFixed(9)),
    part: row.part,
  }));
}

const wall = (name: string, fields: Omit<SmallIfcElement, 'entity' | 'name' | 'body'>): SmallIfcElement => ({
  entity: 'IFCWALL',
  name,
  body: 'box',
  ...fields,
});

describe('layer sets', () => {
  let imported: Awaited<ReturnType<typeof importSmall>>;
  beforeAll(async () => {
    imported = await importSmall([
      wall('By area', {
        materials: {
          kind: 'layers',
          on: 'element',
          usage: true,
          layers: [
            { material: 'Baksteen', thickness: 0.1 },
            { material: 'Minerale wol', thickness: 0.1 },
            { material: null, thickness: 0.05 },
            { material: 'Kalkzandsteen', thickness: 0.05 },
          ],
        },
        netSideArea: 10,
        netVolume: 2.7,
        netWeight: 600,
      }),
      wall('By volume, set on the type', {
        materials: { kind: 'layers', on: 'type', usage: false, layers: [{ material: 'Beton', thickness: 0.2 }, { material: 'Stucwerk', thickness: 0.05 }] },
        netVolume: 2,
      }),
      wall('Usage on the type', {
        materials: { kind: 'layers', on: 'type', usage: true, layers: [{ material: 'Beton', thickness: 0.15 }, { material: 'Stucwerk', thickness: 0.05 }] },
        netSideArea: 4,
        netVolume: 0.8,
      }),
      wall('Set on the type, usage on the element', {
        materials: { kind: 'layers', on: 'both', usage: true, layers: [{ material: 'Gips', thickness: 0.0125 }, { material: 'Stijl', thickness: 0.075 }, { material: 'Gips', thickness: 0.0125 }] },
        netSideArea: 8,
      }),
      wall('Bad thicknesses', {
        materials: {
          kind: 'layers',
          on: 'element',
          usage: true,
          layers: [
            { material: 'Baksteen', thickness: 0.1 },
            { material: 'Folie', thickness: 0 },
            { material: 'Lucht', thickness: -0.01 },
            { material: 'Gips', thickness: null },
            { material: 'Minerale wol', thickness: 0.1 },
          ],
        },
        netVolume: 1,
      }),
      wall('One layer with a thickness', {
        materials: { kind: 'layers', on: 'element', usage: true, layers: [{ material: 'Beton', thickness: 0.2 }, { material: 'Folie', thickness: 0 }] },
        netVolume: 1,
      }),
      wall('Named by Pset_Madaster', {
        materials: { kind: 'layers', on: 'element', usage: true, layers: [{ material: 'Beton', thickness: 0.2 }, { material: 'Stucwerk', thickness: 0.05 }] },
        madasterMaterial: 'Kalkzandsteen',
        netVolume: 1,
      }),
      wall('Single material', { material: 'Beton', netVolume: 1 }),
    ]);
  }, SLOW);

  it('a layer set of the element: one element per layer, its volume the area × its thickness, its width the thickness', () => {
    const rows = rowsOf(imported.elements, 'By area');
    const of = rows[0]?.part?.of ?? '';
    expect(of).toMatch(/^[0-9A-Za-z_$]{22}$/);
    const part = { of, kind: 'layer', shareAssumed: false };
    // 10 m² × 0.3 m is 3 m³, not the element's 2.7 m³: the platform's rule, area × thickness. The weight goes by thickness.
    expect(summary(rows)).toEqual([
      { id: `${of}-L1`, materialName: 'Baksteen', volume: 1, width: 0.1, weight: 200, part },
      { id: `${of}-L2`, materialName: 'Minerale wol', volume: 1, width: 0.1, weight: 200, part },
      { id: `${of}-L3`, materialName: null, volume: 0.5, width: 0.05, weight: 100, part },
      { id: `${of}-L4`, materialName: 'Kalkzandsteen', volume: 0.5, width: 0.05, weight: 100, part },
    ]);
    // Everything else is the element's.
    for (const row of rows) {
      expect(row).toMatchObject({ name: 'By area', elementClass: 'IfcWall', area: 10, floor: 'Level 0', quantitySource: 'model', classificationLookup: [], phaseLookup: [] });
      expect(row.classificationHints).toEqual([{ source: 'inferred', code: '22' }]);
    }
    expect(imported.elements.some((element) => element.id === of)).toBe(false);
  });

  it('without an area the volume is shared by thickness; a set on the type splits the element, bare or through a usage', () => {
    const byVolume = rowsOf(imported.elements, 'By volume, set on the type');
    const of = byVolume[0]?.part?.of ?? '';
    expect(summary(byVolume).map(({ id, materialName, volume, width }) => ({ id, materialName, volume, width }))).toEqual([
      { id: `${of}-L1`, materialName: 'Beton', volume: 1.6, width: 0.2 },
      { id: `${of}-L2`, materialName: 'Stucwerk', volume: 0.4, width: 0.05 },
    ]);
    expect(byVolume.every((row) => row.typeName === 'By volume, set on the type type')).toBe(true);
    expect(summary(rowsOf(imported.elements, 'Usage on the type')).map((row) => [row.materialName, row.volume])).toEqual([
      ['Beton', 0.6],
      ['Stucwerk', 0.2],
    ]);
    // Revit's way: the set on the type, a usage of it on the element.
    expect(summary(rowsOf(imported.elements, 'Set on the type, usage on the element')).map((row) => [row.id.slice(-3), row.materialName, row.volume])).toEqual([
      ['-L1', 'Gips', 0.1],
      ['-L2', 'Stijl', 0.6],
      ['-L3', 'Gips', 0.1],
    ]);
  });

  it('layers of thickness 0, below 0 or none are left out and the numbering runs over the parts made', () => {
    const rows = rowsOf(imported.elements, 'Bad thicknesses');
    const of = rows[0]?.part?.of ?? '';
    expect(summary(rows).map(({ id, materialName, volume }) => ({ id, materialName, volume }))).toEqual([
      { id: `${of}-L1`, materialName: 'Baksteen', volume: 0.5 },
      { id: `${of}-L2`, materialName: 'Minerale wol', volume: 0.5 },
    ]);
  });

  it('fewer than two layers with a thickness, a Pset_Madaster material or a single material: the element stays whole', () => {
    const one = rowsOf(imported.elements, 'One layer with a thickness');
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ materialName: 'Beton / Folie', volume: 1, part: null });
    expect(one[0]?.id).toMatch(/^[0-9A-Za-z_$]{22}$/);
    expect(rowsOf(imported.elements, 'Named by Pset_Madaster')).toMatchObject([{ materialName: 'Kalkzandsteen', volume: 1, part: null }]);
    expect(rowsOf(imported.elements, 'Single material')).toMatchObject([{ materialName: 'Beton', part: null }]);
  });

  it('the outcome counts what was split and left out', () => {
    expect(imported.outcome.rejected).toEqual([]);
    expect(imported.outcome.imported).toBe(4 + 2 + 2 + 3 + 2 + 1 + 1 + 1);
    expect(imported.outcome.parts).toEqual<ImportPartsFindings>({
      elementsSplit: 5,
      partsMade: 13,
      elementsWithAssumedShares: 0,
      // Folie, Lucht and Gips of "Bad thicknesses", Folie of "One layer with a thickness".
      layersLeftOut: 4,
      partsWithoutMaterial: 1,
      elementsWithFractionsNormalised: 0,
    });
  });

  it('thicknesses in millimetres are converted to metres', async () => {
    const { elements } = await importSmall(
      [
        wall('In millimetres', {
          materials: { kind: 'layers', on: 'element', usage: true, layers: [{ material: 'Baksteen', thickness: 100 }, { material: 'Spouw', thickness: 50 }] },
          netSideArea: 10,
          netWeight: 300,
        }),
      ],
      { lengthUnit: 'millimetre' },
    );
    expect(summary(elements).map(({ materialName, volume, width, weight }) => ({ materialName, volume, width, weight }))).toEqual([
      { materialName: 'Baksteen', volume: 1, width: 0.1, weight: 200 },
      { materialName: 'Spouw', volume: 0.5, width: 0.05, weight: 100 },
    ]);
    // The box was written in millimetres too: its length from the geometry is in metres all the same.
    for (const element of elements) {
      expect(element.area).toBe(10);
      expect(element.length).toBeCloseTo(4, 6);
    }
  }, SLOW);
});

describe('constituent sets and material lists', () => {
  let imported: Awaited<ReturnType<typeof importSmall>>;
  const slab = (name: string, fields: Omit<SmallIfcElement, 'entity' | 'name' | 'body'>): SmallIfcElement => ({
    entity: 'IFCSLAB',
    name,
    body: 'box',
    netVolume: 12,
    netWeight: 2400,
    ...fields,
  });
  beforeAll(async () => {
    imported = await importSmall([
      slab('Fractions', { materials: { kind: 'constituents', constituents: [{ material: 'Beton', fraction: 0.75 }, { material: 'Wapening', fraction: 0.25 }] } }),
      slab('No fractions', { materials: { kind: 'constituents', constituents: [{ material: 'Glas' }, { material: 'Aluminium' }, { material: 'EPDM' }] } }),
      slab('Fractions adding up to 1.2', {
        materials: { kind: 'constituents', constituents: [{ material: 'A', fraction: 0.6 }, { material: 'B', fraction: 0.3 }, { material: 'C', fraction: 0.3 }] },
      }),
      slab('Some fractions', { materials: { kind: 'constituents', constituents: [{ material: 'A', fraction: 0.5 }, { material: 'B' }, { material: 'C' }] } }),
      slab('Nothing left', { materials: { kind: 'constituents', constituents: [{ material: 'A', fraction: 0.7 }, { material: 'B', fraction: 0.6 }, { material: 'C' }] } }),
      slab('A fraction of 0', { materials: { kind: 'constituents', constituents: [{ material: 'A', fraction: 0.5 }, { material: 'B', fraction: 0 }, { material: 'C', fraction: 0.5 }] } }),
      slab('One constituent', { materials: { kind: 'constituents', constituents: [{ material: 'Beton', fraction: 1 }] } }),
      slab('List', { materials: { kind: 'list', materials: ['Hout', 'Glas'] } }),
      slab('List of one', { materials: { kind: 'list', materials: ['Hout'] } }),
    ]);
  }, SLOW);

  const shares = (name: string) =>
    summary(rowsOf(imported.elements, name)).map(({ id, materialName, volume, weight, part }) => ({
      id: id.slice(-3),
      materialName,
      volume,
      weight,
      shareAssumed: part?.shareAssumed,
      kind: part?.kind,
    }));

  it('constituents with fractions: one element each by its fraction, the volume and the weight', () => {
    expect(shares('Fractions')).toEqual([
      { id: '-C1', materialName: 'Beton', volume: 9, weight: 1800, shareAssumed: false, kind: 'constituent' },
      { id: '-C2', materialName: 'Wapening', volume: 3, weight: 600, shareAssumed: false, kind: 'constituent' },
    ]);
    // The width is the element's: a constituent has no thickness.
    expect(rowsOf(imported.elements, 'Fractions').every((row) => row.width === null)).toBe(true);
  });

  it('constituents without fractions and material lists share equally, marked assumed', () => {
    expect(shares('No fractions').map((row) => [row.id, row.materialName, row.volume, row.shareAssumed])).toEqual([
      ['-C1', 'Glas', 4, true],
      ['-C2', 'Aluminium', 4, true],
      ['-C3', 'EPDM', 4, true],
    ]);
    expect(shares('List')).toEqual([
      { id: '-C1', materialName: 'Hout', volume: 6, weight: 1200, shareAssumed: true, kind: 'list' },
      { id: '-C2', materialName: 'Glas', volume: 6, weight: 1200, shareAssumed: true, kind: 'list' },
    ]);
  });

  it('fractions not adding up to 1 are normalised; missing ones share what is left, or all share equally when nothing is', () => {
    expect(shares('Fractions adding up to 1.2').map((row) => [row.materialName, row.volume, row.shareAssumed])).toEqual([
      ['A', 6, false],
      ['B', 3, false],
      ['C', 3, false],
    ]);
    expect(shares('Some fractions').map((row) => [row.materialName, row.volume, row.shareAssumed])).toEqual([
      ['A', 6, true],
      ['B', 3, true],
      ['C', 3, true],
    ]);
    expect(shares('Nothing left').map((row) => [row.materialName, row.volume, row.shareAssumed])).toEqual([
      ['A', 4, true],
      ['B', 4, true],
      ['C', 4, true],
    ]);
    // A fraction of 0 makes up nothing: no part, and the numbering goes on over the parts made.
    expect(shares('A fraction of 0').map((row) => [row.id, row.materialName, row.volume])).toEqual([
      ['-C1', 'A', 6],
      ['-C2', 'C', 6],
    ]);
  });

  it('a single constituent or listed material stays whole; the outcome counts assumed and normalised shares', () => {
    expect(rowsOf(imported.elements, 'One constituent')).toMatchObject([{ materialName: 'Beton', part: null, volume: 12 }]);
    expect(rowsOf(imported.elements, 'List of one')).toMatchObject([{ materialName: 'Hout', part: null, volume: 12 }]);
    expect(imported.outcome.parts).toEqual<ImportPartsFindings>({
      elementsSplit: 7,
      partsMade: 2 + 3 + 3 + 3 + 3 + 2 + 2,
      elementsWithAssumedShares: 4,
      layersLeftOut: 0,
      partsWithoutMaterial: 0,
      elementsWithFractionsNormalised: 1,
    });
  });
});

describe('the fixtures against a reading through web-ifc’s own API', () => {
  /** A part as the reference reader reads it: its id, material name, share of the element and thickness in metres. */
  interface ReferencePart {
    id: string;
    materialName: string | null;
    share: number;
    thickness: number | null;
  }

  interface Value {
    value?: unknown;
    _representationValue?: unknown;
  }
  interface Flat {
    type: number;
    Name?: Value;
    Material?: Flat | null;
    MaterialLayers?: Flat[];
    LayerThickness?: Value | null;
    ForLayerSet?: Flat;
    Materials?: Flat[];
  }

  const numberOf = (value: Value | null | undefined): number | null => {
    const raw = value?.value ?? value?._representationValue;
    const number = typeof raw === 'number' ? raw : Number(raw);
    return raw === undefined || raw === null || !Number.isFinite(number) ? null : number;
  };
  const nameOf = (material: Flat | null | undefined): string | null => {
    const name = material?.Name?.value;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
  };

  let api: IfcAPI;
  beforeAll(async () => {
    api = new WebIfc.IfcAPI();
    await api.Init(undefined, true);
    api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  });

  /** The project's length unit in metres, from IfcProject's units as web-ifc reads them. */
  function metresPerLengthUnit(modelId: number): number {
    const project = api.GetLine(modelId, api.GetLineIDsWithType(modelId, WebIfc.IFCPROJECT).get(0), true) as {
      UnitsInContext?: { Units?: { UnitType?: Value; Prefix?: Value | null; Name?: Value }[] };
    };
    const unit = project.UnitsInContext?.Units?.find((candidate) => candidate.UnitType?.value === 'LENGTHUNIT');
    if (unit?.Name?.value !== 'METRE') throw new Error('the reference reader knows metres only');
    return unit.Prefix?.value === 'MILLI' ? 0.001 : 1;
  }

  /** The parts of an element by its material (its own, else its type's), as the rules in the README say; null: whole. */
  async function referenceParts(modelId: number, expressId: number, globalId: string, metres: number): Promise<ReferencePart[] | null> {
    let materials = (await api.properties.getMaterialsProperties(modelId, expressId, true)) as Flat[];
    if (materials.length === 0) materials = (await api.properties.getMaterialsProperties(modelId, expressId, true, true)) as Flat[];
    const select = materials[0];
    if (select === undefined) return null;
    if (select.type === WebIfc.IFCMATERIALLAYERSETUSAGE || select.type === WebIfc.IFCMATERIALLAYERSET) {
      const layers = (select.type === WebIfc.IFCMATERIALLAYERSETUSAGE ? select.ForLayerSet?.MaterialLayers : select.MaterialLayers) ?? [];
      const thick = layers.filter((layer) => (numberOf(layer.LayerThickness) ?? 0) > 0);
      if (layers.length < 2 || thick.length < 2) return null;
      const total = thick.reduce((sum, layer) => sum + (numberOf(layer.LayerThickness) ?? 0), 0);
      return thick.map((layer, index) => ({
        id: `${globalId}-L${index + 1}`,
        materialName: nameOf(layer.Material),
        share: (numberOf(layer.LayerThickness) ?? 0) / total,
        thickness: (numberOf(layer.LayerThickness) ?? 0) * metres,
      }));
    }
    if (select.type === WebIfc.IFCMATERIALLIST) {
      const listed = select.Materials ?? [];
      if (listed.length < 2) return null;
      return listed.map((material, index) => ({ id: `${globalId}-C${index + 1}`, materialName: nameOf(material), share: 1 / listed.length, thickness: null }));
    }
    if (select.type === WebIfc.IFCMATERIALCONSTITUENTSET) throw new Error('the reference reader does not read constituent sets: no fixture has one');
    return null;
  }

  /** Elements that aggregate other elements (an assembly imported whole is never split) and those Pset_Madaster names. */
  async function staysWhole(modelId: number, expressId: number, wholes: ReadonlySet<number>): Promise<boolean> {
    if (wholes.has(expressId)) return true;
    const sets = (await api.properties.getPropertySets(modelId, expressId, true)) as { Name?: Value; HasProperties?: { Name?: Value }[] }[];
    return sets.some(
      (set) => String(set.Name?.value ?? '').toLowerCase() === 'pset_madaster' && (set.HasProperties ?? []).some((property) => property.Name?.value === 'MaterialOrProductName'),
    );
  }

  it.each<[IfcFixtureName, number, number, number]>([
    // Revit 2011 (IFC2X3), metres: walls, floors and the roof's slab of layer sets; the roof is an assembly taken whole.
    ['duplex.ifc', 382, 79, 246],
    // Revit (IFC4), millimetres: layer set usages and material lists (walls, doors, windows, furniture).
    ['SampleHouse4.ifc', 103, 28, 73],
    // ArchiCAD and Revit models whose layer sets have one layer each: nothing splits.
    ['AC20-FZK-Haus.ifc', 82, 0, 0],
    ['example.ifc', 115, 0, 0],
  ])(
    '%s: %i elements, %i split into %i parts, each as the reference reads it (ids, material names, shares by thickness)',
    async (name, count, split, parts) => {
      const { outcome, elements } = await importFile(ifcFixture(name));
      expect(outcome.imported).toBe(count);
      expect(outcome.parts).toMatchObject({ elementsSplit: split, partsMade: parts });
      const rowsByElement = new Map<string, ImportedElement[]>();
      for (const element of elements) {
        const of = element.part?.of ?? element.id;
        rowsByElement.set(of, [...(rowsByElement.get(of) ?? []), element]);
      }

      const modelId = api.OpenModel(new Uint8Array(await readFile(ifcFixture(name))));
      try {
        const metres = metresPerLengthUnit(modelId);
        const expressIds = new Map<string, number>();
        const ids = api.GetLineIDsWithType(modelId, WebIfc.IFCELEMENT, true);
        for (let index = 0; index < ids.size(); index++) {
          const line = api.GetLine(modelId, ids.get(index)) as { GlobalId?: Value };
          expressIds.set(String(line.GlobalId?.value ?? ''), ids.get(index));
        }
        const wholes = new Set<number>();
        const aggregates = api.GetLineIDsWithType(modelId, WebIfc.IFCRELAGGREGATES);
        for (let index = 0; index < aggregates.size(); index++) {
          const relation = api.GetLine(modelId, aggregates.get(index)) as { RelatingObject?: Value };
          const whole = numberOf(relation.RelatingObject);
          if (whole !== null && [...expressIds.values()].includes(whole)) wholes.add(whole);
        }

        let splitByReference = 0;
        for (const [globalId, rows] of rowsByElement) {
          const expressId = expressIds.get(globalId);
          expect(expressId, globalId).toBeDefined();
          const reference = (await staysWhole(modelId, expressId ?? 0, wholes)) ? null : await referenceParts(modelId, expressId ?? 0, globalId, metres);
          if (reference === null) {
            expect(rows.map((row) => [row.id, row.part])).toEqual([[globalId, null]]);
            continue;
          }
          splitByReference += 1;
          expect(rows.map((row) => [row.id, row.materialName])).toEqual(reference.map((part) => [part.id, part.materialName]));
          const volume = rows.reduce((sum, row) => sum + (row.volume ?? 0), 0);
          rows.forEach((row, index) => {
            const part = reference[index];
            expect(row.part).toMatchObject({ of: globalId, kind: part?.thickness === null ? 'list' : 'layer' });
            // Volume shares by thickness (or equal for a list) within 2 points.
            if (volume > 0) expect(Math.abs((row.volume ?? 0) / volume - (part?.share ?? 0))).toBeLessThanOrEqual(0.02);
            if (part?.thickness !== null && part?.thickness !== undefined) expect(row.width).toBeCloseTo(part.thickness, 9);
          });
        }
        expect(splitByReference).toBe(split);
      } finally {
        api.CloseModel(modelId);
      }
    },
    4 * SLOW,
  );
});
