/**
 * From an open web-ifc model to ImportedElements, in file order, in batches. The rules (see ../README.md):
 * - elements are the IfcElement subtypes minus features (openings, projections, voids) and virtual elements;
 * - assemblies (an element that aggregates other elements: IfcElementAssembly, a curtain wall, a stair, a roof, a wall
 *   split into parts) count once, at the level that carries the quantities: the parts, when at least one part below
 *   the assembly has a volume, weight or area of its own (the assembly is then skipped, and a part without a
 *   classification or phase takes the nearest assembly's); else the assembly as one element, when it has quantities
 *   itself (its parts are then skipped, and their materials name it when it has none); else the parts. An assembly
 *   taken whole covers every part and sub-assembly below it. Nothing is counted twice, and no quantity is lost.
 * - every relation class is read once up front (relations.ts); per batch, the element lines and their property sets
 *   are read in bulk.
 */
import { type IfcAPI, WebIfc } from './web-ifc';
import type { ImportedElement } from '../imported-element';
import { ClassificationReader } from './classifications';
import { joinNames, MaterialReader, type MaterialShare } from './materials';
import { orderSets, PropertyReader, resolveProperties, type DefinitionSummary, type ResolvedProperties } from './properties';
import { LineReader, refsOf, textOf } from './raw';
import { readRelations, type Relations } from './relations';
import { UnitReader, type UnitFactors } from './units';

const { IFCBUILDINGSTOREY, IFCELEMENT, IFCFEATUREELEMENT, IFCVIRTUALELEMENT } = WebIfc;

/** Where the extracted elements go. */
export interface ExtractSink {
  /** Called once, before the first batch, with the number of elements that will be delivered at most. */
  start(total: number): void;
  /** Receives each batch; the extraction waits for it. */
  batch(elements: ImportedElement[]): Promise<void>;
}

/** How an extraction ended. */
export interface ExtractOutcome {
  imported: number;
  rejected: string[];
}

/** What a type object contributes to its occurrences. */
interface TypeInfo {
  name: string | null;
  sets: DefinitionSummary[];
}

/** What an assembly hands down to parts that lack it. */
interface Inherited {
  classifications: string[];
  phases: string[];
}

/** Spatial containment is followed at most this deep (a file with a cycle must not hang the import). */
const MAX_DEPTH = 32;
/** Parts read per bulk read while deciding assemblies. */
const PLANNING_SLICE = 500;

/** Whether an element carries a quantity that counts (the mass comes from weight or volume; area products exist). */
function hasQuantities(resolved: ResolvedProperties): boolean {
  const { volume, weight, area } = resolved.quantities;
  return (volume ?? 0) > 0 || (weight ?? 0) > 0 || (area ?? 0) > 0;
}

class ElementExtractor {
  private readonly units: UnitReader;
  private readonly factors: UnitFactors;
  private readonly relations: Relations;
  private readonly properties: PropertyReader;
  private readonly materials: MaterialReader;
  private readonly classifications: ClassificationReader;
  private readonly types = new Map<number, TypeInfo>();
  private readonly floors = new Map<number, string | null>();
  private readonly inherited = new Map<number, Inherited>();
  /** Properties of parts, resolved while deciding their assemblies; each is used once by `element`, then dropped. */
  private readonly resolvedParts = new Map<number, ResolvedProperties>();
  /** Assembly → its element parts (direct). */
  private readonly partsOf = new Map<number, number[]>();
  /** Assemblies whose parts are imported (the assembly itself is not). */
  readonly splitAssemblies = new Set<number>();
  /** Assemblies imported as one element (their parts are not). */
  readonly wholeAssemblies = new Set<number>();
  /** Elements to import, in file order. */
  readonly elementIds: number[];

  constructor(private readonly reader: LineReader) {
    this.units = new UnitReader(reader);
    this.factors = this.units.projectFactors();
    this.relations = readRelations(reader);
    this.properties = new PropertyReader(reader, this.units, this.factors, this.relations.sharedDefinitions);
    this.materials = new MaterialReader(reader);
    this.classifications = new ClassificationReader(reader);

    const excluded = new Set([...reader.idsOfType(IFCFEATUREELEMENT, true), ...reader.idsOfType(IFCVIRTUALELEMENT, true)]);
    const elements = reader.idsOfType(IFCELEMENT, true).filter((id) => !excluded.has(id));
    const eligible = new Set(elements);
    for (const [part, whole] of this.relations.aggregatedBy) {
      if (!eligible.has(part) || !eligible.has(whole)) continue;
      const parts = this.partsOf.get(whole);
      if (parts === undefined) this.partsOf.set(whole, [part]);
      else parts.push(part);
    }
    this.decideAssemblies();
    this.elementIds = elements.filter((id) => (this.partsOf.has(id) ? this.wholeAssemblies.has(id) : true) && !this.coveredByWhole(id));
  }

  /**
   * Splits the assemblies into those counted by their parts and those counted whole (see the module comment). Reads
   * the quantities of every part below an assembly first, in bulk; `element` reuses them.
   */
  private decideAssemblies(): void {
    if (this.partsOf.size === 0) return;
    const leaves = new Set<number>();
    for (const parts of this.partsOf.values()) for (const part of parts) if (!this.partsOf.has(part)) leaves.add(part);
    const leafIds = [...leaves].sort((a, b) => a - b);
    const carries = new Map<number, boolean>();
    for (let first = 0; first < leafIds.length; first += PLANNING_SLICE) {
      const slice = leafIds.slice(first, first + PLANNING_SLICE);
      this.prefetch(slice);
      for (const id of slice) {
        const resolved = this.resolve(id);
        this.resolvedParts.set(id, resolved);
        carries.set(id, hasQuantities(resolved));
      }
      this.release();
    }
    // Whether any leaf below an assembly carries quantities; memoised, and a cycle counts as "no".
    const below = new Map<number, boolean>();
    const leafCarries = (assembly: number, depth: number): boolean => {
      const known = below.get(assembly);
      if (known !== undefined) return known;
      below.set(assembly, false);
      let result = false;
      for (const part of this.partsOf.get(assembly) ?? []) {
        if (this.partsOf.has(part) ? depth < MAX_DEPTH && leafCarries(part, depth + 1) : carries.get(part) === true) {
          result = true;
          break;
        }
      }
      below.set(assembly, result);
      return result;
    };
    for (const assembly of this.partsOf.keys()) {
      if (!leafCarries(assembly, 0) && hasQuantities(this.resolve(assembly))) this.wholeAssemblies.add(assembly);
      else this.splitAssemblies.add(assembly);
    }
  }

  /** Whether an assembly above this element is imported whole (so the element is part of it, not imported itself). */
  private coveredByWhole(id: number): boolean {
    let current = this.relations.aggregatedBy.get(id);
    for (let depth = 0; current !== undefined && this.partsOf.has(current) && depth < MAX_DEPTH; depth++) {
      if (this.wholeAssemblies.has(current)) return true;
      current = this.relations.aggregatedBy.get(current);
    }
    return false;
  }

  /** The properties of an element (or a part resolved while planning), with its type's sets as the fallback. */
  private resolve(id: number): ResolvedProperties {
    const planned = this.resolvedParts.get(id);
    if (planned !== undefined) {
      this.resolvedParts.delete(id);
      return planned;
    }
    const typeId = this.relations.typeOf.get(id);
    const type = typeId === undefined ? null : this.type(typeId);
    return resolveProperties(orderSets(this.setsOf(id), type?.sets ?? []), this.factors);
  }

  /** The materials of the leaf parts below an assembly, joined as one name. */
  private partsMaterial(assembly: number): string | null {
    const shares: MaterialShare[] = [];
    const visit = (id: number, depth: number): void => {
      for (const part of this.partsOf.get(id) ?? []) {
        if (this.partsOf.has(part)) {
          if (depth < MAX_DEPTH) visit(part, depth + 1);
          continue;
        }
        const select = this.materialSelect(part);
        // Each part counts once, whatever its layers: names are ranked by how many parts they make up.
        const names = select === undefined ? [] : [...new Set(this.materials.shares(select).map((share) => share.name))];
        for (const name of names) shares.push({ name, share: 1 });
      }
    };
    visit(assembly, 0);
    return joinNames(shares);
  }

  private materialSelect(id: number): number | undefined {
    const typeId = this.relations.typeOf.get(id);
    return this.relations.materialOf.get(id) ?? (typeId === undefined ? undefined : this.relations.materialOf.get(typeId));
  }

  /** Reads the lines a batch needs in bulk: the elements, then their property sets and those sets' entries. */
  prefetch(ids: readonly number[]): void {
    this.reader.prefetch(ids);
    const definitions: number[] = [];
    for (const id of ids) definitions.push(...(this.relations.definitionsOf.get(id) ?? []));
    this.properties.prefetch(definitions);
  }

  /** Ends a batch: drops what `prefetch` read. */
  release(): void {
    this.reader.clearPrefetched();
  }

  /** The element with this express id, or a reason it cannot be imported. */
  element(id: number): ImportedElement | string {
    const line = this.reader.line(id);
    if (line === null) return `#${id}: the line cannot be read`;
    const elementClass = this.reader.typeName(line.type);
    // IfcElement(GlobalId, OwnerHistory, Name, Description, ObjectType, ObjectPlacement, Representation, Tag, …)
    const globalId = textOf(line.arguments[0])?.trim();
    const name = textOf(line.arguments[2]);
    if (!globalId) return `#${id} ${elementClass}${name === null ? '' : ` '${name}'`}: no GlobalId`;

    const typeId = this.relations.typeOf.get(id);
    const type = typeId === undefined ? null : this.type(typeId);
    const resolved = this.resolve(id);

    const materialSelect = this.materialSelect(id);
    let materialName = resolved.madasterMaterial ?? (materialSelect === undefined ? null : this.materials.name(materialSelect));
    if (materialName === null && this.wholeAssemblies.has(id)) materialName = this.partsMaterial(id);

    let classifications = this.classificationsOf(id, typeId);
    let phases = resolved.phases;
    if (classifications.length === 0 || phases.length === 0) {
      const fromAssembly = this.inheritedBy(id);
      if (classifications.length === 0) classifications = fromAssembly.classifications;
      if (phases.length === 0) phases = fromAssembly.phases;
    }
    if (resolved.madasterClassification !== null) classifications = [resolved.madasterClassification, ...classifications.filter((code) => code !== resolved.madasterClassification)];
    if (resolved.madasterPhase !== null) phases = [resolved.madasterPhase, ...phases.filter((phase) => phase !== resolved.madasterPhase)];

    return {
      id: globalId,
      name,
      materialName,
      // No type object: the occurrence's ObjectType, where exporters (Revit, ArchiCAD) write the type's name.
      typeName: type?.name ?? textOf(line.arguments[4]),
      elementClass,
      volume: resolved.quantities.volume,
      area: resolved.quantities.area,
      height: resolved.quantities.height,
      width: resolved.quantities.width,
      length: resolved.quantities.length,
      weight: resolved.quantities.weight,
      phaseLookup: phases,
      classificationLookup: classifications,
      floor: this.floorOf(id),
    };
  }

  private setsOf(id: number): DefinitionSummary[] {
    const sets: DefinitionSummary[] = [];
    for (const definition of this.relations.definitionsOf.get(id) ?? []) {
      const summary = this.properties.summary(definition);
      if (summary !== null) sets.push(summary);
    }
    return sets;
  }

  private classificationsOf(id: number, typeId: number | undefined): string[] {
    const own = this.classifications.codes(this.relations.classificationsOf.get(id) ?? []);
    if (own.length > 0 || typeId === undefined) return own;
    return this.classifications.codes(this.relations.classificationsOf.get(typeId) ?? []);
  }

  /** IfcTypeObject(GlobalId, OwnerHistory, Name, Description, ApplicableOccurrence, HasPropertySets, …). */
  private type(typeId: number): TypeInfo {
    let info = this.types.get(typeId);
    if (info === undefined) {
      const line = this.reader.line(typeId);
      const definitions = [...refsOf(line?.arguments[5]), ...(this.relations.definitionsOf.get(typeId) ?? [])];
      const sets: DefinitionSummary[] = [];
      for (const definition of new Set(definitions)) {
        const summary = this.properties.summary(definition);
        if (summary !== null) sets.push(summary);
      }
      info = { name: textOf(line?.arguments[2]), sets };
      this.types.set(typeId, info);
    }
    return info;
  }

  /** Classification and phases of the nearest assemblies above a part (empty for an element that is no part). */
  private inheritedBy(id: number): Inherited {
    const result: Inherited = { classifications: [], phases: [] };
    let current = this.relations.aggregatedBy.get(id);
    for (let depth = 0; current !== undefined && this.partsOf.has(current) && depth < MAX_DEPTH; depth++) {
      const own = this.assemblyInfo(current);
      if (result.classifications.length === 0) result.classifications = own.classifications;
      if (result.phases.length === 0) result.phases = own.phases;
      if (result.classifications.length > 0 && result.phases.length > 0) break;
      current = this.relations.aggregatedBy.get(current);
    }
    return result;
  }

  private assemblyInfo(id: number): Inherited {
    let info = this.inherited.get(id);
    if (info === undefined) {
      const typeId = this.relations.typeOf.get(id);
      const type = typeId === undefined ? null : this.type(typeId);
      const resolved = resolveProperties(orderSets(this.setsOf(id), type?.sets ?? []), this.factors);
      const classifications = this.classificationsOf(id, typeId);
      info = {
        classifications: resolved.madasterClassification === null ? classifications : [resolved.madasterClassification, ...classifications],
        phases: resolved.madasterPhase === null ? resolved.phases : [resolved.madasterPhase, ...resolved.phases],
      };
      this.inherited.set(id, info);
    }
    return info;
  }

  /**
   * The name of the storey above an element: up through containment (IfcRelContainedInSpatialStructure) and
   * aggregation (parts in assemblies, spaces in storeys) until an IfcBuildingStorey; null when there is none.
   */
  private floorOf(id: number): string | null {
    const path: number[] = [];
    let current: number | undefined = id;
    let floor: string | null = null;
    for (let depth = 0; current !== undefined && depth < MAX_DEPTH; depth++) {
      const known = this.floors.get(current);
      if (known !== undefined) {
        floor = known;
        break;
      }
      if (current !== id) {
        const line = this.reader.line(current);
        if (line?.type === IFCBUILDINGSTOREY) {
          // IfcBuildingStorey(…, Name 2, …, LongName 7, …)
          floor = textOf(line.arguments[2])?.trim() || textOf(line.arguments[7])?.trim() || null;
          this.floors.set(current, floor);
          break;
        }
        path.push(current);
      }
      current = this.relations.containedIn.get(current) ?? this.relations.aggregatedBy.get(current);
    }
    // Remember the answer for every container and assembly on the way: their other members ask the same question.
    for (const node of path) this.floors.set(node, floor);
    return floor;
  }
}

/** Extracts every element of an open model into `sink`, `batchSize` at a time; duplicate GlobalIds are rejected. */
export async function extractElements(api: IfcAPI, modelId: number, sink: ExtractSink, batchSize: number): Promise<ExtractOutcome> {
  const reader = new LineReader(api, modelId);
  const extractor = new ElementExtractor(reader);
  const ids = extractor.elementIds;
  sink.start(ids.length);

  const rejected: string[] = [];
  const firstByGlobalId = new Map<string, number>();
  let imported = 0;
  for (let first = 0; first < ids.length; first += batchSize) {
    const slice = ids.slice(first, first + batchSize);
    extractor.prefetch(slice);
    const batch: ImportedElement[] = [];
    for (const id of slice) {
      const element = extractor.element(id);
      if (typeof element === 'string') {
        rejected.push(element);
        continue;
      }
      const kept = firstByGlobalId.get(element.id);
      if (kept !== undefined) {
        rejected.push(`#${id} ${element.elementClass ?? ''}${element.name === null ? '' : ` '${element.name}'`}: duplicate GlobalId ${element.id} (kept #${kept})`);
        continue;
      }
      firstByGlobalId.set(element.id, id);
      batch.push(element);
    }
    extractor.release();
    if (batch.length > 0) {
      await sink.batch(batch);
      imported += batch.length;
    }
  }
  return { imported, rejected };
}
