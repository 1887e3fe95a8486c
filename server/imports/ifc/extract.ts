/**
 * From a model's raw lines (a LineSource: the file read by step-reader.ts, or web-ifc's model) to ImportedElements, in
 * file order, in batches. The rules (see ../README.md):
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
import { WebIfc } from './web-ifc';
import type { GeometryIssue } from '../../../shared/api';
import { classificationSystemOf, nlSfbOfReference } from '../../refine/classification-systems';
import { inferNlSfbCode, nlSfbCodeOfLayerName, type ElementFacts } from '../../refine/classification-inference';
import { normaliseNlSfbCode } from '../../refine/nl-sfb';
import { quantitySourceOf, type ClassificationHint, type ImportedElement } from '../imported-element';
import { ClassificationReader, type ModelClassification } from './classifications';
import type { ElementGeometry, GeometryResult } from './geometry';
import { joinNames, MaterialReader, type MaterialShare } from './materials';
import { orderSets, PropertyReader, resolveProperties, type DefinitionSummary, type ResolvedProperties } from './properties';
import { refOf, refsOf, textOf, type LineSource, type RawLine } from './raw';
import { readRelations, type Relations } from './relations';
import { UnitReader, type UnitFactors } from './units';

const { ENUM, IFCBUILDINGSTOREY, IFCELEMENT, IFCFEATUREELEMENT, IFCVIRTUALELEMENT } = WebIfc;

/** Where the extracted elements go. */
export interface ExtractSink {
  /** Called once, before the first batch, with the number of elements that will be delivered at most. */
  start(total: number): void;
  /** Receives each batch; the extraction waits for it. */
  batch(elements: ImportedElement[]): Promise<void>;
}

/** How an extraction ended. */
/** Opens the model's geometry: called once, when the first element without a volume needs it. */
export type OpenGeometry = () => Promise<ElementGeometry>;

export interface ExtractOutcome {
  imported: number;
  rejected: string[];
}

/** What a type object contributes to its occurrences. */
interface TypeInfo {
  name: string | null;
  /** Its entity (`IfcWallType`). */
  typeClass: string;
  /** Its PredefinedType (IfcElementType: argument 9), unless NOTDEFINED or USERDEFINED. */
  predefinedType: string | null;
  sets: DefinitionSummary[];
}

/** What an assembly hands down to parts that lack it. */
interface Inherited {
  references: ModelClassification[];
  phases: string[];
  /** What the assembly is, for parts whose own class says nothing (IfcBuildingElementPart). */
  facts: ElementFacts | null;
}

/** PredefinedType values that say nothing. */
const UNDEFINED_TYPES = new Set(['NOTDEFINED', 'USERDEFINED']);

/**
 * Where an occurrence's PredefinedType sits: argument 8 (after Tag) for most elements; IfcElementAssembly has its
 * AssemblyPlace first; IFC4 doors and windows have their overall height and width first (IFC2X3 ones have none).
 */
const PREDEFINED_TYPE_POSITION: ReadonlyMap<string, number> = new Map([
  ['IFCELEMENTASSEMBLY', 9],
  ['IFCDOOR', 10],
  ['IFCDOORSTANDARDCASE', 10],
  ['IFCWINDOW', 10],
  ['IFCWINDOWSTANDARDCASE', 10],
]);

/** The enumeration value at `position` of a line, unless it is absent or says nothing. */
function predefinedTypeAt(line: RawLine | null, position: number): string | null {
  const argument = line?.arguments[position];
  if (argument === null || argument === undefined || Array.isArray(argument) || argument.type !== ENUM) return null;
  const value = textOf(argument);
  return value === null || UNDEFINED_TYPES.has(value) ? null : value;
}

/**
 * The NL-SfB code a classification reference of the model stands for: an NL-SfB code as it is, another system's code
 * through its table. A reference whose system the model does not name is read as NL-SfB, else by its shape (Uniclass,
 * OmniClass, Uniformat codes tell their system).
 */
function nlSfbOfModelReference(reference: ModelClassification): string | null {
  const system = reference.systemNames.map(classificationSystemOf).find((found) => found !== null) ?? null;
  if (system === 'nl-sfb') return normaliseNlSfbCode(reference.code);
  if (system === null) return normaliseNlSfbCode(reference.code) ?? nlSfbOfReference(null, reference.code);
  return nlSfbOfReference(system, reference.code);
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
  /** Opened when the first element without a volume needs it: a model that carries its volumes never tessellates. */
  private geometry: ElementGeometry | undefined;

  constructor(
    private readonly reader: LineSource,
    private readonly openGeometry: OpenGeometry,
  ) {
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
  async element(id: number): Promise<ImportedElement | string> {
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

    let references = this.referencesOf(id, typeId);
    let phases = resolved.phases;
    const fromAssembly = this.inheritedBy(id);
    if (references.length === 0) references = fromAssembly.references;
    if (phases.length === 0) phases = fromAssembly.phases;
    let classifications = [...new Set(references.map((reference) => reference.code))];
    if (resolved.madasterClassification !== null) classifications = [resolved.madasterClassification, ...classifications.filter((code) => code !== resolved.madasterClassification)];
    if (resolved.madasterPhase !== null) phases = [resolved.madasterPhase, ...phases.filter((phase) => phase !== resolved.madasterPhase)];
    const facts = this.factsOf(line, type, resolved);
    const quantities = { ...resolved.quantities };
    let quantitySource: ImportedElement['quantitySource'] = quantitySourceOf(quantities.volume, quantities.weight);
    let geometryIssue: GeometryIssue | null = null;
    if ((quantities.volume ?? 0) <= 0) {
      const measured = await this.measure(id);
      if ('issue' in measured) geometryIssue = measured.issue;
      else {
        quantities.volume = measured.volume;
        // Area and length only where the sets give none: they are estimates from the shape (geometry.ts).
        if ((quantities.area ?? 0) <= 0) quantities.area = measured.area;
        if ((quantities.length ?? 0) <= 0) quantities.length = measured.length;
        quantitySource = quantitySource ?? 'geometry';
      }
    }

    return {
      id: globalId,
      name,
      materialName,
      // No type object: the occurrence's ObjectType, where exporters (Revit, ArchiCAD) write the type's name.
      typeName: type?.name ?? textOf(line.arguments[4]),
      elementClass,
      volume: quantities.volume,
      area: quantities.area,
      height: quantities.height,
      width: quantities.width,
      length: quantities.length,
      weight: quantities.weight,
      phaseLookup: phases,
      classificationLookup: classifications,
      floor: this.floorOf(id),
      classificationHints: this.hintsOf(line, resolved.madasterClassification, references, facts, fromAssembly.facts),
      materialHints: resolved.materialHints,
      quantitySource,
      geometryIssue,
    };
  }

  /** The element's quantities from its tessellated geometry (geometry.ts). */
  private async measure(id: number): Promise<GeometryResult> {
    this.geometry ??= await this.openGeometry();
    return this.geometry.quantities(id);
  }

  /** What the element is, for inferring its classification: its class, PredefinedType and common properties. */
  private factsOf(line: RawLine, type: TypeInfo | null, resolved: ResolvedProperties): ElementFacts {
    const ifcClass = this.reader.typeName(line.type);
    const position = PREDEFINED_TYPE_POSITION.get(ifcClass.toUpperCase()) ?? 8;
    return {
      ifcClass,
      predefinedType: predefinedTypeAt(line, position) ?? type?.predefinedType ?? null,
      typeClass: type?.typeClass ?? null,
      isExternal: resolved.isExternal,
      loadBearing: resolved.loadBearing,
    };
  }

  /**
   * The classification hints of an element, in the order refinement tries them: what its references (own, type's or
   * assembly's; Pset_Madaster's first) stand for in NL-SfB, the NL-SfB code of its presentation layer, and the code its
   * class suggests (its own, else its assembly's for a part whose class says nothing).
   */
  private hintsOf(
    line: RawLine,
    madasterClassification: string | null,
    references: readonly ModelClassification[],
    facts: ElementFacts,
    assemblyFacts: ElementFacts | null,
  ): ClassificationHint[] {
    const hints: ClassificationHint[] = [];
    const add = (source: ClassificationHint['source'], code: string | null): void => {
      if (code !== null && !hints.some((hint) => hint.source === source && hint.code === code)) hints.push({ source, code });
    };
    if (madasterClassification !== null) add('model', normaliseNlSfbCode(madasterClassification));
    for (const reference of references) add('model', nlSfbOfModelReference(reference));
    const layer = this.layerNameOf(line);
    if (layer !== null) add('layer', nlSfbCodeOfLayerName(layer));
    add('inferred', inferNlSfbCode(facts) ?? (assemblyFacts === null ? null : inferNlSfbCode(assemblyFacts)));
    return hints;
  }

  /**
   * The name of the presentation layer of an element's shape: its Representation (IfcProductDefinitionShape, argument
   * 6) → Representations (argument 2) → each IfcShapeRepresentation or, failing that, its Items (argument 3).
   */
  private layerNameOf(line: RawLine): string | null {
    if (this.relations.layerOf.size === 0) return null;
    const shape = this.reader.line(refOf(line.arguments[6]) ?? -1);
    const representations = refsOf(shape?.arguments[2]);
    for (const representation of representations) {
      const layer = this.relations.layerOf.get(representation);
      if (layer !== undefined) return layer;
    }
    for (const representation of representations) {
      for (const item of refsOf(this.reader.line(representation)?.arguments[3])) {
        const layer = this.relations.layerOf.get(item);
        if (layer !== undefined) return layer;
      }
    }
    return null;
  }

  private setsOf(id: number): DefinitionSummary[] {
    const sets: DefinitionSummary[] = [];
    for (const definition of this.relations.definitionsOf.get(id) ?? []) {
      const summary = this.properties.summary(definition);
      if (summary !== null) sets.push(summary);
    }
    return sets;
  }

  /** The element's classification references, else its type's. */
  private referencesOf(id: number, typeId: number | undefined): ModelClassification[] {
    const own = this.classifications.references(this.relations.classificationsOf.get(id) ?? []);
    if (own.length > 0 || typeId === undefined) return own;
    return this.classifications.references(this.relations.classificationsOf.get(typeId) ?? []);
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
      info = {
        name: textOf(line?.arguments[2]),
        typeClass: line === null ? '' : this.reader.typeName(line.type),
        // IfcElementType(GlobalId, OwnerHistory, Name, Description, ApplicableOccurrence, HasPropertySets, RepresentationMaps, Tag, ElementType, PredefinedType, …)
        predefinedType: predefinedTypeAt(line, 9),
        sets,
      };
      this.types.set(typeId, info);
    }
    return info;
  }

  /** Classification and phases of the nearest assemblies above a part (empty for an element that is no part). */
  /** Classification references, phases and facts of the nearest assemblies above a part (none for an element that is no part). */
  private inheritedBy(id: number): Inherited {
    const result: Inherited = { references: [], phases: [], facts: null };
    let current = this.relations.aggregatedBy.get(id);
    for (let depth = 0; current !== undefined && this.partsOf.has(current) && depth < MAX_DEPTH; depth++) {
      const own = this.assemblyInfo(current);
      if (result.references.length === 0) result.references = own.references;
      if (result.phases.length === 0) result.phases = own.phases;
      result.facts ??= own.facts;
      if (result.references.length > 0 && result.phases.length > 0) break;
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
      const references = this.referencesOf(id, typeId);
      const line = this.reader.line(id);
      info = {
        // Pset_Madaster's classification first, as a reference of NL-SfB.
        references: resolved.madasterClassification === null ? references : [{ code: resolved.madasterClassification, systemNames: ['NL-SfB'] }, ...references],
        phases: resolved.madasterPhase === null ? resolved.phases : [resolved.madasterPhase, ...resolved.phases],
        facts: line === null ? null : this.factsOf(line, type, resolved),
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

/**
 * Extracts every element of a model into `sink`, `batchSize` at a time; duplicate GlobalIds are rejected. The geometry
 * is opened only when an element has no volume in its sets.
 */
export async function extractElements(reader: LineSource, openGeometry: OpenGeometry, sink: ExtractSink, batchSize: number): Promise<ExtractOutcome> {
  const extractor = new ElementExtractor(reader, openGeometry);
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
      const element = await extractor.element(id);
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
