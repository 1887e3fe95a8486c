/**
 * Writes synthetic IFC4 files for benchmarks and tests: N walls spread over storeys, each with its own placement and
 * swept-solid body, Qto_WallBaseQuantities (left out with `quantitySets: false`), a Pset_WallCommon, a wall type with a
 * material layer set (the walls carry a layer set usage), an NL-SfB classification reference and a Revit-style phase.
 * Streams to disk in blocks, so a file of any size costs a few MB of memory to write; `writeSyntheticIfcOfSize` sizes
 * the wall count for a file of a given size.
 *
 * What an importer should read back, per wall `i` (0-based): GlobalId `syntheticGlobalId(i)`, name `Wall i`, class
 * IfcWall, type `SYNTHETIC_WALL_TYPES[i % 4].name`, material the type's layer names (see `SYNTHETIC_WALL_TYPES`),
 * storey `Level k` with k = ⌊i / wallsPerStorey⌋, length (1 + (i % 50) / 10) m, height 2.7 m, width the type's
 * thickness, net side area 0.95 × length × height, net volume 0.95 × side area × width, net weight net volume ×
 * `SYNTHETIC_DENSITY`, NL-SfB code `SYNTHETIC_CODES[i % 4]`, phase `New Construction` for even i and `Existing` for
 * odd i. Lengths are written in `lengthUnit` (default millimetre, as Revit and Tekla write them), weights in
 * `massUnit` (default kilogram); areas and volumes in m² and m³. A wall of a type of several layers is imported as one
 * element per layer (`<GlobalId>-L<n>`, the layer's material, its volume the side area × its thickness):
 * `syntheticElementCount` tells how many elements a file of N walls gives.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** The wall types: names, NL-SfB-ish layer materials and thicknesses in metres. */
export const SYNTHETIC_WALL_TYPES = [
  { name: 'Basic Wall:Spouwmuur 300', layers: [['Baksteen', 0.1], ['Minerale wol', 0.1], ['Kalkzandsteen', 0.1]] },
  { name: 'Basic Wall:Binnenwand 100', layers: [['Gipskartonplaat', 0.0125], ['Metal stud', 0.075], ['Gipskartonplaat', 0.0125]] },
  { name: 'Basic Wall:Beton 250', layers: [['Beton C30/37', 0.25]] },
  { name: 'Basic Wall:HSB 200', layers: [['Vuren hout', 0.15], ['OSB', 0.018], ['Gipskartonplaat', 0.032]] },
] as const satisfies readonly { name: string; layers: readonly (readonly [string, number])[] }[];

/** The elements an importer that splits layered walls makes of `walls` walls: one per layer, a wall of one layer whole. */
export function syntheticElementCount(walls: number): number {
  let count = 0;
  SYNTHETIC_WALL_TYPES.forEach((type, index) => {
    const ofType = Math.max(0, Math.ceil((walls - index) / SYNTHETIC_WALL_TYPES.length));
    count += ofType * (type.layers.length > 1 ? type.layers.length : 1);
  });
  return count;
}

/** NL-SfB codes the walls are classified with, in turn. */
export const SYNTHETIC_CODES = ['21.12', '22.11', '21.22', '22.21'] as const;

/** Kilograms per m³ of net volume, for the walls' NetWeight. */
export const SYNTHETIC_DENSITY = 1800;

/** The project's length unit. */
export type SyntheticLengthUnit = 'millimetre' | 'metre' | 'foot';
/** The project's mass unit. */
export type SyntheticMassUnit = 'kilogram' | 'gram' | 'pound';

export interface SyntheticIfcOptions {
  walls: number;
  /** Storeys the walls are spread over in blocks (default 10). */
  storeys?: number;
  lengthUnit?: SyntheticLengthUnit;
  massUnit?: SyntheticMassUnit;
  /**
   * Whether the walls carry Qto_WallBaseQuantities (default true). Without them a wall has no volume, area, length or
   * weight but its geometry, as in many real models.
   */
  quantitySets?: boolean;
}

/** What was written. */
export interface SyntheticIfcResult {
  walls: number;
  bytes: number;
}

/** Walls written per block: each block is one storey's chunk and gets its own relationship lines. */
const BLOCK = 500;
const IFC_BASE64 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

/** A deterministic, unique 22-character IFC GlobalId for number `n` in namespace `space` (0 walls, 1 others, 2 rels). */
export function syntheticGlobalId(n: number, space = 0): string {
  let digits = '';
  let rest = n;
  for (let position = 0; position < 9; position++) {
    digits = (IFC_BASE64[rest % 64] ?? '0') + digits;
    rest = Math.floor(rest / 64);
  }
  return `${String(space)}SynthIfc${'0'.repeat(4)}${digits}`;
}

/** The length unit's factor to metres. */
function metresPer(unit: SyntheticLengthUnit): number {
  return unit === 'millimetre' ? 0.001 : unit === 'foot' ? 0.3048 : 1;
}

/** The mass unit's factor to kilograms. */
function kilogramsPer(unit: SyntheticMassUnit): number {
  return unit === 'gram' ? 0.001 : unit === 'pound' ? 0.45359237 : 1;
}

/** A STEP real: always with a decimal point, as STEP requires. */
function real(value: number): string {
  const text = String(Number(value.toPrecision(12)));
  return text.includes('.') || text.includes('e') ? text.replace('e', 'E') : `${text}.`;
}

/** Writes a synthetic IFC4 file with `options.walls` walls to `filePath` and resolves with its size. */
export async function writeSyntheticIfc(filePath: string, options: SyntheticIfcOptions): Promise<SyntheticIfcResult> {
  const walls = Math.max(0, Math.floor(options.walls));
  const storeyCount = Math.max(1, Math.floor(options.storeys ?? 10));
  const unit = options.lengthUnit ?? 'millimetre';
  const toUnit = 1 / metresPer(unit);
  const massUnit = options.massUnit ?? 'kilogram';
  const toMassUnit = 1 / kilogramsPer(massUnit);
  const wallsPerStorey = Math.max(1, Math.ceil(walls / storeyCount));
  const out = createWriteStream(filePath, { encoding: 'latin1', highWaterMark: 1 << 20 });
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  const write = async (text: string): Promise<void> => {
    if (failure !== null) throw failure;
    if (!out.write(text)) await once(out, 'drain');
  };

  let next = 1;
  let otherGuid = 0;
  let relGuid = 0;
  const lines: string[] = [];
  const add = (entity: string): number => {
    const id = next++;
    lines.push(`#${id}=${entity};\n`);
    return id;
  };
  const flush = async (): Promise<void> => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines.length = 0;
    await write(text);
  };
  const guid = (): string => `'${syntheticGlobalId(otherGuid++, 1)}'`;
  const relId = (): string => `'${syntheticGlobalId(relGuid++, 2)}'`;
  const refs = (ids: readonly number[]): string => `(${ids.map((id) => `#${id}`).join(',')})`;

  await write(
    [
      'ISO-10303-21;',
      'HEADER;',
      "FILE_DESCRIPTION(('ViewDefinition [ReferenceView_V1.2]'),'2;1');",
      `FILE_NAME('synthetic.ifc','2024-01-01T00:00:00',('Circularity Desk'),('Circularity Desk'),'synthetic-ifc.ts','Circularity Desk bench','');`,
      "FILE_SCHEMA(('IFC4'));",
      'ENDSEC;',
      'DATA;',
      '',
    ].join('\n'),
  );

  const person = add("IFCPERSON($,'Bench',$,$,$,$,$,$)");
  const organisation = add("IFCORGANIZATION($,'Circularity Desk',$,$,$)");
  const personOrg = add(`IFCPERSONANDORGANIZATION(#${person},#${organisation},$)`);
  const application = add(`IFCAPPLICATION(#${organisation},'1.0','Synthetic IFC','synthetic')`);
  const owner = add(`IFCOWNERHISTORY(#${personOrg},#${application},$,.ADDED.,$,$,$,0)`);

  let lengthUnit: number;
  if (unit === 'foot') {
    const metre = add('IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.)');
    const dimensions = add('IFCDIMENSIONALEXPONENTS(1,0,0,0,0,0,0)');
    const factor = add(`IFCMEASUREWITHUNIT(IFCLENGTHMEASURE(0.3048),#${metre})`);
    lengthUnit = add(`IFCCONVERSIONBASEDUNIT(#${dimensions},.LENGTHUNIT.,'FOOT',#${factor})`);
  } else {
    lengthUnit = add(`IFCSIUNIT(*,.LENGTHUNIT.,${unit === 'millimetre' ? '.MILLI.' : '$'},.METRE.)`);
  }
  let mass: number;
  if (massUnit === 'pound') {
    const kilogram = add('IFCSIUNIT(*,.MASSUNIT.,.KILO.,.GRAM.)');
    const dimensions = add('IFCDIMENSIONALEXPONENTS(0,1,0,0,0,0,0)');
    const factor = add(`IFCMEASUREWITHUNIT(IFCMASSMEASURE(0.45359237),#${kilogram})`);
    mass = add(`IFCCONVERSIONBASEDUNIT(#${dimensions},.MASSUNIT.,'POUND',#${factor})`);
  } else {
    mass = add(`IFCSIUNIT(*,.MASSUNIT.,${massUnit === 'kilogram' ? '.KILO.' : '$'},.GRAM.)`);
  }
  const units = [
    lengthUnit,
    add('IFCSIUNIT(*,.AREAUNIT.,$,.SQUARE_METRE.)'),
    add('IFCSIUNIT(*,.VOLUMEUNIT.,$,.CUBIC_METRE.)'),
    mass,
    add('IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.)'),
  ];
  const unitAssignment = add(`IFCUNITASSIGNMENT(${refs(units)})`);

  const origin = add('IFCCARTESIANPOINT((0.,0.,0.))');
  const zAxis = add('IFCDIRECTION((0.,0.,1.))');
  const xAxis = add('IFCDIRECTION((1.,0.,0.))');
  const worldPlacement = add(`IFCAXIS2PLACEMENT3D(#${origin},#${zAxis},#${xAxis})`);
  const context = add(`IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#${worldPlacement},$)`);
  const body = add(`IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#${context},$,.MODEL_VIEW.,$)`);
  const project = add(`IFCPROJECT(${guid()},#${owner},'Synthetic project',$,$,$,$,(#${context}),#${unitAssignment})`);

  const sitePlacement = add(`IFCLOCALPLACEMENT($,#${worldPlacement})`);
  const site = add(`IFCSITE(${guid()},#${owner},'Site',$,$,#${sitePlacement},$,$,.ELEMENT.,$,$,$,$,$)`);
  const buildingPlacement = add(`IFCLOCALPLACEMENT(#${sitePlacement},#${worldPlacement})`);
  const building = add(`IFCBUILDING(${guid()},#${owner},'Building',$,$,#${buildingPlacement},$,$,.ELEMENT.,$,$,$)`);
  add(`IFCRELAGGREGATES(${relId()},#${owner},$,$,#${project},(#${site}))`);
  add(`IFCRELAGGREGATES(${relId()},#${owner},$,$,#${site},(#${building}))`);
  const storeyPlacements: number[] = [];
  const storeys: number[] = [];
  for (let level = 0; level < storeyCount; level++) {
    const point = add(`IFCCARTESIANPOINT((0.,0.,${real(level * 3 * toUnit)}))`);
    const axes = add(`IFCAXIS2PLACEMENT3D(#${point},$,$)`);
    const placement = add(`IFCLOCALPLACEMENT(#${buildingPlacement},#${axes})`);
    storeyPlacements.push(placement);
    storeys.push(add(`IFCBUILDINGSTOREY(${guid()},#${owner},'Level ${level}',$,$,#${placement},$,$,.ELEMENT.,${real(level * 3 * toUnit)})`));
  }
  add(`IFCRELAGGREGATES(${relId()},#${owner},$,$,#${building},${refs(storeys)})`);

  const classification = add("IFCCLASSIFICATION('BIM Loket','2019',$,'NL-SfB',$,$,$)");
  const codeReferences = SYNTHETIC_CODES.map((code) => add(`IFCCLASSIFICATIONREFERENCE($,'${code}',$,#${classification},$,$)`));

  const materials = new Map<string, number>();
  const wallTypes: number[] = [];
  const layerSetUsages: number[] = [];
  for (const wallType of SYNTHETIC_WALL_TYPES) {
    const layers = wallType.layers.map(([name, thickness]) => {
      let material = materials.get(name);
      if (material === undefined) {
        material = add(`IFCMATERIAL('${name}',$,$)`);
        materials.set(name, material);
      }
      return add(`IFCMATERIALLAYER(#${material},${real(thickness * toUnit)},$,$,$,$,$)`);
    });
    const layerSet = add(`IFCMATERIALLAYERSET(${refs(layers)},'${wallType.name}',$)`);
    layerSetUsages.push(add(`IFCMATERIALLAYERSETUSAGE(#${layerSet},.AXIS2.,.POSITIVE.,0.,$)`));
    const typeId = add(`IFCWALLTYPE(${guid()},#${owner},'${wallType.name}',$,$,$,$,$,$,.STANDARD.)`);
    wallTypes.push(typeId);
    add(`IFCRELASSOCIATESMATERIAL(${relId()},#${owner},$,$,(#${typeId}),#${layerSet})`);
  }

  const phaseNames = ['New Construction', 'Existing'] as const;
  const phaseSets = phaseNames.map((phase) => {
    const property = add(`IFCPROPERTYSINGLEVALUE('Phase Created',$,IFCLABEL('${phase}'),$)`);
    return add(`IFCPROPERTYSET(${guid()},#${owner},'PSet_Revit_Phasing',$,(#${property}))`);
  });
  const isExternal = [add("IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.F.),$)"), add("IFCPROPERTYSINGLEVALUE('IsExternal',$,IFCBOOLEAN(.T.),$)")];
  await flush();

  const typeCount = SYNTHETIC_WALL_TYPES.length;
  for (let first = 0; first < walls; first += BLOCK) {
    const last = Math.min(walls, first + BLOCK);
    const byType: number[][] = wallTypes.map(() => []);
    const byCode: number[][] = SYNTHETIC_CODES.map(() => []);
    const byPhase: number[][] = phaseNames.map(() => []);
    const contained: number[] = [];
    // A block can straddle two storeys: containment is written per storey.
    const byStorey = new Map<number, number[]>();
    for (let index = first; index < last; index++) {
      const typeIndex = index % typeCount;
      const wallType = SYNTHETIC_WALL_TYPES[typeIndex] ?? SYNTHETIC_WALL_TYPES[0];
      const thickness = wallType.layers.reduce((sum, [, layer]) => sum + layer, 0);
      const length = 1 + (index % 50) / 10;
      const height = 2.7;
      const storey = Math.min(storeyCount - 1, Math.floor(index / wallsPerStorey));
      const x = (index % 100) * 6;
      const y = Math.floor(index / 100) % 1000 * 6;

      const point = add(`IFCCARTESIANPOINT((${real(x * toUnit)},${real(y * toUnit)},0.))`);
      const axes = add(`IFCAXIS2PLACEMENT3D(#${point},$,$)`);
      const placement = add(`IFCLOCALPLACEMENT(#${storeyPlacements[storey] ?? 0},#${axes})`);
      const profile = add(`IFCRECTANGLEPROFILEDEF(.AREA.,$,$,${real(length * toUnit)},${real(thickness * toUnit)})`);
      const solid = add(`IFCEXTRUDEDAREASOLID(#${profile},$,#${zAxis},${real(height * toUnit)})`);
      const shape = add(`IFCSHAPEREPRESENTATION(#${body},'Body','SweptSolid',(#${solid}))`);
      const definition = add(`IFCPRODUCTDEFINITIONSHAPE($,$,(#${shape}))`);
      const wall = add(
        `IFCWALL('${syntheticGlobalId(index)}',#${owner},'Wall ${index}',$,'${wallType.name}',#${placement},#${definition},'${index}',.STANDARD.)`,
      );
      if (options.quantitySets ?? true) {
        const sideArea = length * height;
        const volume = sideArea * thickness;
        const quantities = [
          add(`IFCQUANTITYLENGTH('Length',$,$,${real(length * toUnit)},$)`),
          add(`IFCQUANTITYLENGTH('Width',$,$,${real(thickness * toUnit)},$)`),
          add(`IFCQUANTITYLENGTH('Height',$,$,${real(height * toUnit)},$)`),
          add(`IFCQUANTITYAREA('GrossSideArea',$,$,${real(sideArea)},$)`),
          add(`IFCQUANTITYAREA('NetSideArea',$,$,${real(sideArea * 0.95)},$)`),
          add(`IFCQUANTITYVOLUME('GrossVolume',$,$,${real(volume)},$)`),
          add(`IFCQUANTITYVOLUME('NetVolume',$,$,${real(volume * 0.95)},$)`),
          add(`IFCQUANTITYWEIGHT('NetWeight',$,$,${real(volume * 0.95 * SYNTHETIC_DENSITY * toMassUnit)},$)`),
        ];
        const quantitySet = add(`IFCELEMENTQUANTITY(${guid()},#${owner},'Qto_WallBaseQuantities',$,$,${refs(quantities)})`);
        add(`IFCRELDEFINESBYPROPERTIES(${relId()},#${owner},$,$,(#${wall}),#${quantitySet})`);
      }
      const reference = add(`IFCPROPERTYSINGLEVALUE('Reference',$,IFCIDENTIFIER('${wallType.name}'),$)`);
      const common = add(`IFCPROPERTYSET(${guid()},#${owner},'Pset_WallCommon',$,(#${reference},#${isExternal[typeIndex % 2] ?? 0}))`);
      add(`IFCRELDEFINESBYPROPERTIES(${relId()},#${owner},$,$,(#${wall}),#${common})`);

      byType[typeIndex]?.push(wall);
      byCode[index % SYNTHETIC_CODES.length]?.push(wall);
      byPhase[index % 2]?.push(wall);
      contained.push(wall);
      const list = byStorey.get(storey) ?? [];
      list.push(wall);
      byStorey.set(storey, list);
    }
    for (const [storey, list] of byStorey) {
      add(`IFCRELCONTAINEDINSPATIALSTRUCTURE(${relId()},#${owner},$,$,${refs(list)},#${storeys[storey] ?? 0})`);
    }
    byType.forEach((list, typeIndex) => {
      if (list.length === 0) return;
      add(`IFCRELDEFINESBYTYPE(${relId()},#${owner},$,$,${refs(list)},#${wallTypes[typeIndex] ?? 0})`);
      add(`IFCRELASSOCIATESMATERIAL(${relId()},#${owner},$,$,${refs(list)},#${layerSetUsages[typeIndex] ?? 0})`);
    });
    byCode.forEach((list, codeIndex) => {
      if (list.length > 0) add(`IFCRELASSOCIATESCLASSIFICATION(${relId()},#${owner},$,$,${refs(list)},#${codeReferences[codeIndex] ?? 0})`);
    });
    byPhase.forEach((list, phaseIndex) => {
      if (list.length > 0) add(`IFCRELDEFINESBYPROPERTIES(${relId()},#${owner},$,$,${refs(list)},#${phaseSets[phaseIndex] ?? 0})`);
    });
    await flush();
  }

  await write('ENDSEC;\nEND-ISO-10303-21;\n');
  out.end();
  await once(out, 'finish');
  if (failure !== null) throw failure;
  return { walls, bytes: (await stat(filePath)).size };
}

/**
 * Writes a synthetic IFC4 file of about `megabytes` MiB to `filePath`: the wall count is sized from a file of 1,000
 * walls, then once more from a file of about the right size (express ids grow longer), and the file written a third
 * time with that count. Resolves with the last file's walls and size.
 */
export async function writeSyntheticIfcOfSize(
  filePath: string,
  megabytes: number,
  options: Omit<SyntheticIfcOptions, 'walls'> = {},
): Promise<SyntheticIfcResult> {
  const target = megabytes * 1024 * 1024;
  const sample = await writeSyntheticIfc(filePath, { ...options, walls: 1_000 });
  let walls = Math.ceil(target / (sample.bytes / sample.walls));
  const estimate = await writeSyntheticIfc(filePath, { ...options, walls });
  walls = Math.max(1, Math.round((walls * target) / estimate.bytes));
  return writeSyntheticIfc(filePath, { ...options, walls });
}
