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
 * - an element of a layered or composite material (a layer set of two or more layers with a thickness, a constituent
 *   set, a material list: material-splits.ts) becomes one element per part (element-parts.ts), unless Pset_Madaster
 *   names its material or it is an assembly taken whole;
 * - every relation class is read once up front (relations.ts); per batch, the element lines and their property sets
 *   are read in bulk.
 */
import { WebIfc } from './web-ifc';
import type { GeometryIssue, ImportPartsFindings } from '../../../shared/api';
import { quantitySourceOf, type ImportedElement } from '../imported-element';
import { AssemblyPlan } from './assembly-plan';
import { classificationHintsOf, layerNameOf } from './classification-hints';
import { FloorReader } from './element-floors';
import { noPartsYet, splitElement } from './element-parts';
import type { ElementGeometry, GeometryResult } from './geometry';
import type { MaterialSplit } from './material-splits';
import { ModelReaders } from './model-readers';
import type { ResolvedProperties } from './properties';
import { textOf, type LineSource } from './raw';

const { IFCELEMENT, IFCFEATUREELEMENT, IFCVIRTUALELEMENT } = WebIfc;

/** Where the extracted elements go. */
export interface ExtractSink {
  /** Called once, before the first batch, with the number of the model's elements that will be read. */
  start(total: number): void;
  /**
   * Receives each batch (the parts of a split element may straddle two) and how many of the model's elements it
   * completes, for progress against `start`'s total; the extraction waits for it.
   */
  batch(elements: ImportedElement[], completes: number): Promise<void>;
}

/** Opens the model's geometry: called once, when the first element without a volume needs it. */
export type OpenGeometry = () => Promise<ElementGeometry>;

/** How an extraction ended. */
export interface ExtractOutcome {
  imported: number;
  rejected: string[];
  parts: ImportPartsFindings;
}

/** An element's row, and what its material splits into (null: it stays whole). */
interface ExtractedElement {
  element: ImportedElement;
  split: MaterialSplit | null;
}

/**
 * An element's row composed from the model's readers (model-readers.ts), the assembly plan (assembly-plan.ts), its
 * storey (element-floors.ts) and its classification hints (classification-hints.ts).
 */
class ElementExtractor {
  private readonly model: ModelReaders;
  private readonly plan: AssemblyPlan;
  private readonly floors: FloorReader;
  /** Elements to import, in file order. */
  readonly elementIds: number[];
  /** Opened when the first element without a volume needs it: a model that carries its volumes never tessellates. */
  private geometry: ElementGeometry | undefined;

  constructor(
    private readonly reader: LineSource,
    private readonly openGeometry: OpenGeometry,
  ) {
    this.model = new ModelReaders(reader);
    this.floors = new FloorReader(reader, this.model.relations);
    const excluded = new Set([...reader.idsOfType(IFCFEATUREELEMENT, true), ...reader.idsOfType(IFCVIRTUALELEMENT, true)]);
    const elements = reader.idsOfType(IFCELEMENT, true).filter((id) => !excluded.has(id));
    this.plan = new AssemblyPlan(this.model, elements);
    this.elementIds = elements.filter((id) => this.plan.imports(id));
  }

  /** Reads the lines a batch needs in bulk: the elements, then their property sets and those sets' entries. */
  prefetch(ids: readonly number[]): void {
    this.model.prefetch(ids);
  }

  /** Ends a batch: drops what `prefetch` read. */
  release(): void {
    this.model.release();
  }

  /** The properties of an element (or a part resolved while planning), with its type's sets as the fallback. */
  private resolve(id: number): ResolvedProperties {
    return this.plan.takeResolved(id) ?? this.model.resolve(id);
  }

  /** The element with this express id and its material's split, or a reason it cannot be imported. */
  async element(id: number): Promise<ExtractedElement | string> {
    const line = this.reader.line(id);
    if (line === null) return `#${id}: the line cannot be read`;
    const elementClass = this.reader.typeName(line.type);
    // IfcElement(GlobalId, OwnerHistory, Name, Description, ObjectType, ObjectPlacement, Representation, Tag, …)
    const globalId = textOf(line.arguments[0])?.trim();
    const name = textOf(line.arguments[2]);
    if (!globalId) return `#${id} ${elementClass}${name === null ? '' : ` '${name}'`}: no GlobalId`;

    const type = this.model.typeOf(id);
    const resolved = this.resolve(id);

    const materialSelect = this.model.materialSelect(id);
    const whole = this.plan.wholeAssemblies.has(id);
    let materialName = resolved.madasterMaterial ?? (materialSelect === undefined ? null : this.model.materials.name(materialSelect));
    if (materialName === null && whole) materialName = this.plan.partsMaterial(id);
    // Pset_Madaster's material names the element whole, and an assembly taken whole stays one element.
    const split = materialSelect === undefined || resolved.madasterMaterial !== null || whole ? null : this.model.materialSplits.of(materialSelect);

    let references = this.model.referencesOf(id);
    let phases = resolved.phases;
    const fromAssembly = this.plan.inheritedBy(id);
    if (references.length === 0) references = fromAssembly.references;
    if (phases.length === 0) phases = fromAssembly.phases;
    let classifications = [...new Set(references.map((reference) => reference.code))];
    if (resolved.madasterClassification !== null) classifications = [resolved.madasterClassification, ...classifications.filter((code) => code !== resolved.madasterClassification)];
    if (resolved.madasterPhase !== null) phases = [resolved.madasterPhase, ...phases.filter((phase) => phase !== resolved.madasterPhase)];
    const facts = this.model.factsOf(line, type, resolved);
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

    const element: ImportedElement = {
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
      floor: this.floors.floorOf(id),
      classificationHints: classificationHintsOf({
        madasterClassification: resolved.madasterClassification,
        references,
        layer: layerNameOf(this.reader, this.model.relations.layerOf, line),
        facts,
        assemblyFacts: fromAssembly.facts,
      }),
      materialHints: resolved.materialHints,
      quantitySource,
      geometryIssue,
      part: null,
    };
    return { element, split };
  }

  /** The element's quantities from its tessellated geometry (geometry.ts). */
  private async measure(id: number): Promise<GeometryResult> {
    this.geometry ??= await this.openGeometry();
    return this.geometry.quantities(id);
  }
}

/**
 * Extracts every element of a model into `sink`, `batchSize` at a time, a split element as its parts; duplicate
 * GlobalIds are rejected. The geometry is opened only when an element has no volume in its sets.
 */
export async function extractElements(reader: LineSource, openGeometry: OpenGeometry, sink: ExtractSink, batchSize: number): Promise<ExtractOutcome> {
  const extractor = new ElementExtractor(reader, openGeometry);
  const ids = extractor.elementIds;
  sink.start(ids.length);

  const rejected: string[] = [];
  const parts = noPartsYet();
  const firstByGlobalId = new Map<string, number>();
  let imported = 0;
  // Rows not handed over yet, and where each of the model's elements among them ends: batches are full but the last.
  let pending: ImportedElement[] = [];
  let ends: number[] = [];
  const handOver = async (count: number): Promise<void> => {
    const batch = pending.length === count ? pending : pending.slice(0, count);
    pending = batch === pending ? [] : pending.slice(count);
    let completes = 0;
    while (completes < ends.length && (ends[completes] ?? 0) <= count) completes++;
    ends = ends.slice(completes).map((end) => end - count);
    await sink.batch(batch, completes);
    imported += batch.length;
  };
  for (let first = 0; first < ids.length; first += batchSize) {
    const slice = ids.slice(first, first + batchSize);
    extractor.prefetch(slice);
    for (const id of slice) {
      const extracted = await extractor.element(id);
      if (typeof extracted === 'string') {
        rejected.push(extracted);
      } else {
        const { element, split } = extracted;
        const kept = firstByGlobalId.get(element.id);
        if (kept === undefined) {
          firstByGlobalId.set(element.id, id);
          for (const row of splitElement(element, split, parts)) pending.push(row);
        } else {
          rejected.push(`#${id} ${element.elementClass ?? ''}${element.name === null ? '' : ` '${element.name}'`}: duplicate GlobalId ${element.id} (kept #${kept})`);
        }
      }
      ends.push(pending.length);
      while (pending.length >= batchSize) await handOver(batchSize);
    }
    extractor.release();
  }
  if (pending.length > 0) await handOver(pending.length);
  return { imported, rejected, parts };
}
