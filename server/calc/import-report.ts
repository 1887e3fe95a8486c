/**
 * The import report of a building file: which of its elements count in the circularity index, where their material,
 * quantities and building layer came from, and why the others do not count. Pure: the job or the route loads the rows
 * and the catalogue items their mappings reach. Every breakdown covers each element once.
 */
import type {
  BuildingFileImportReport,
  ClassificationSource,
  GeometryIssue,
  MappingSource,
  NotCountedGroup,
  NotCountedReason,
  QuantitySource,
  UnlayeredClassGroup,
  UnmappedMaterialGroup,
} from '../../shared/api';
import { CLASSIFICATION_SOURCES, GEOMETRY_ISSUES, MAPPING_SOURCES, NOT_COUNTED_REASONS, QUANTITY_SOURCES } from '../../shared/api';
import { formatStatusMessage } from '../../shared/status-messages';
import { hasCircularRows } from './circularity';
import { isKnownLayer, layerOf, type CalcCatalogue, type CalcElement } from './inputs';
import { expandElement } from './mass';

/** An element as the report reads it: a figure input with where its data came from. */
export interface ReportElement extends CalcElement {
  elementClass: string | null;
  mappingSource: Exclude<MappingSource, 'none'> | null;
  quantitySource: Exclude<QuantitySource, 'none'> | null;
  geometryIssue: GeometryIssue | null;
  classificationSource: Exclude<ClassificationSource, 'none'> | null;
}

/** The report without the file's own fields. */
export type ImportReportFigures = Omit<BuildingFileImportReport, 'buildingFileId' | 'status' | 'isActive' | 'rejected'>;

/** Each reason in words, as users read it. */
export const NOT_COUNTED_DESCRIPTIONS: Readonly<Record<NotCountedReason, string>> = {
  'file-not-counted': 'The file does not count: only active source files that are Mapped do.',
  'no-material': 'Not mapped to a material or product.',
  'no-building-layer': 'No building layer: the classification is unknown.',
  'no-mass': 'No mass: neither a weight, nor a volume with a material that has a specific weight.',
  'no-circular-data': 'The material or product it is mapped to has no circular data.',
};

interface Tally {
  elements: number;
  volume: number;
}

function tallies<const Keys extends readonly string[]>(keys: Keys): Record<Keys[number], Tally> {
  return Object.fromEntries(keys.map((key) => [key, { elements: 0, volume: 0 }])) as Record<Keys[number], Tally>;
}

function add(tally: Tally, volume: number): void {
  tally.elements += 1;
  tally.volume += volume;
}

/** Groups by a name, the largest volume first, then the most elements, then the name. */
function grouped<Name extends string | null>(groups: Map<Name, Tally>): { name: Name; elements: number; volume: number }[] {
  return [...groups.entries()]
    .map(([name, tally]) => ({ name, ...tally }))
    .sort((a, b) => b.volume - a.volume || b.elements - a.elements || String(a.name).localeCompare(String(b.name)));
}

/** Why an element does not count (the first reason that applies), or null when it counts. */
function notCountedReason(element: ReportElement, catalogue: CalcCatalogue, fileCounts: boolean): NotCountedReason | null {
  if (!fileCounts) return 'file-not-counted';
  if (element.mapping === null || element.mapping === undefined) return 'no-material';
  if (!isKnownLayer(layerOf(element.brandLayerId))) return 'no-building-layer';
  const expansion = expandElement(element, catalogue);
  if (!expansion.contributions.some((part) => part.mass > 0)) return 'no-mass';
  return hasCircularRows(element, expansion) ? null : 'no-circular-data';
}

/**
 * The report over a file's elements. `fileCounts`: the file is an active Mapped source file, so its elements can
 * count; when it is not, every element is in the `file-not-counted` group and `wouldCount` still tells how many would.
 */
export function importReportFigures(
  elements: Iterable<ReportElement>,
  catalogue: CalcCatalogue,
  fileCounts: boolean,
): ImportReportFigures & { wouldCount: number } {
  const counted: Tally = { elements: 0, volume: 0 };
  let wouldCount = 0;
  const material = tallies(MAPPING_SOURCES);
  const quantities = tallies(QUANTITY_SOURCES);
  const classification = tallies(CLASSIFICATION_SOURCES);
  const geometryIssues = Object.fromEntries(GEOMETRY_ISSUES.map((issue) => [issue, 0])) as Record<GeometryIssue, number>;
  const notCounted = new Map<NotCountedReason, Tally>();
  const unmapped = new Map<string | null, Tally>();
  const unlayered = new Map<string | null, Tally>();
  let elementCount = 0;
  let total = 0;

  for (const element of elements) {
    const volume = element.volume !== null && element.volume !== undefined && element.volume > 0 ? element.volume : 0;
    elementCount += 1;
    total += volume;
    add(material[element.mapping === null || element.mapping === undefined ? 'none' : (element.mappingSource ?? 'rule')], volume);
    add(quantities[element.quantitySource ?? 'none'], volume);
    if (element.geometryIssue !== null) geometryIssues[element.geometryIssue] += 1;
    const layered = isKnownLayer(layerOf(element.brandLayerId));
    const classified = element.classificationId !== null && element.classificationId !== undefined;
    add(classification[element.classificationSource ?? (classified ? 'model' : 'none')], volume);
    if (element.mapping === null || element.mapping === undefined) add(tallyOf(unmapped, element.materialName), volume);
    if (!layered) add(tallyOf(unlayered, element.elementClass), volume);
    const reason = notCountedReason(element, catalogue, true);
    if (reason === null) wouldCount += 1;
    const actual = fileCounts ? reason : 'file-not-counted';
    if (actual === null) add(counted, volume);
    else add(tallyOf(notCounted, actual), volume);
  }

  const share = (tally: Tally) => ({ ...tally, volumeShare: total > 0 ? Math.min(1, tally.volume / total) : 0 });
  const shares = <Keys extends string>(record: Record<Keys, Tally>) =>
    Object.fromEntries(Object.entries<Tally>(record).map(([key, tally]) => [key, share(tally)])) as Record<Keys, ReturnType<typeof share>>;
  const figures = {
    elementCount,
    volume: total,
    counted: share(counted),
    material: shares(material),
    quantities: shares(quantities),
    geometryIssues,
    classification: shares(classification),
    unmappedMaterials: grouped(unmapped).map(({ name, ...tally }): UnmappedMaterialGroup => ({ materialName: name, ...tally })),
    unlayeredClasses: grouped(unlayered).map(({ name, ...tally }): UnlayeredClassGroup => ({ elementClass: name, ...tally })),
    notCounted: NOT_COUNTED_REASONS.flatMap((reason): NotCountedGroup[] => {
      const tally = notCounted.get(reason);
      return tally === undefined ? [] : [{ reason, ...tally, description: NOT_COUNTED_DESCRIPTIONS[reason] }];
    }),
    wouldCount,
  };
  return { ...figures, summary: reportSummary(figures, fileCounts) };
}

function tallyOf<Name>(groups: Map<Name, Tally>, name: Name): Tally {
  let tally = groups.get(name);
  if (tally === undefined) {
    tally = { elements: 0, volume: 0 };
    groups.set(name, tally);
  }
  return tally;
}

/**
 * The report in one line, for the file's status message: how many count, and how many have each of the three things
 * that make an element count, with what was assumed to get them.
 */
export function reportSummary(figures: Omit<ImportReportFigures, 'summary'> & { wouldCount: number }, fileCounts: boolean): string {
  const { elementCount, material, quantities, classification } = figures;
  return formatStatusMessage({
    kind: 'report-summary',
    counted: fileCounts ? figures.counted.elements : figures.wouldCount,
    elements: elementCount,
    active: fileCounts,
    mapped: elementCount - material.none.elements,
    mappedByKeyword: material.keyword.elements,
    measured: elementCount - quantities.none.elements,
    measuredFromGeometry: quantities.geometry.elements,
    layered: elementCount - figures.unlayeredClasses.reduce((sum, group) => sum + group.elements, 0),
    layerFromNames: classification.layer.elements,
    layerFromClass: classification.inferred.elements,
  });
}
