/**
 * The import report of a building file: which of its elements count in the circularity index, where their material,
 * quantities and building layer came from, and why the others do not count, grouped as their fixes work. Pure: the
 * job or the route loads the rows and the catalogue items their mappings reach. Every breakdown covers each element
 * once. What counts, and why not, is shared/counting.ts, read through the catalogue by counting.ts.
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
import { CLASSIFICATION_SOURCES, GEOMETRY_ISSUES, MAPPING_SOURCES, QUANTITY_SOURCES } from '../../shared/api';
import {
  countingTally,
  groupKeyText,
  Groups,
  named,
  reasonGroupKey,
  unmappedGroupKey,
  type Counting,
  type ElementGroupKey,
} from '../../shared/counting';
import { formatStatusMessage, type ElementReason, type ReportSummary } from '../../shared/status-messages';
import { countingFacts } from './counting';
import type { CalcCatalogue, CalcElement } from './inputs';

/** An element as the report reads it: a figure input with what it is and where its data came from. */
export interface ReportElement extends CalcElement {
  elementClass: string | null;
  typeName: string | null;
  mappingSource: Exclude<MappingSource, 'none'> | null;
  quantitySource: Exclude<QuantitySource, 'none'> | null;
  geometryIssue: GeometryIssue | null;
  classificationSource: Exclude<ClassificationSource, 'none'> | null;
}

/** The report without the file's own fields. */
export type ImportReportFigures = Omit<BuildingFileImportReport, 'buildingFileId' | 'status' | 'isActive' | 'rejected'>;

/** The most subgroups a reason lists. */
export const MAX_NOT_COUNTED_SUBGROUPS = 100;

/** Each reason in words, as users read it. */
export const NOT_COUNTED_DESCRIPTIONS: Readonly<Record<NotCountedReason, string>> = {
  'no-material': 'Not mapped to a material or product.',
  'no-quantity': 'Neither a weight nor the quantity its material or product is measured by (a volume, an area, a length).',
  'no-mass': 'No mass: the material or product it is mapped to gives none for its quantity (a material without a specific weight).',
  'no-building-layer': 'No building layer: the classification is unknown.',
  'no-circular-data': 'The material or product it is mapped to has no circular data.',
  'file-not-counted': 'It would count, but the file does not: only active source files that are Mapped do.',
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

/**
 * The report over a file's elements. `fileCounts`: the file is an active Mapped source file, so its elements can
 * count; when it is not, the elements that would count are in the `file-not-counted` group and the others still say
 * their own reason. Also answers the counts (`counting`) and the summary as data (`summaryData`).
 */
export function importReportFigures(
  elements: Iterable<ReportElement>,
  catalogue: CalcCatalogue,
  fileCounts: boolean,
): ImportReportFigures & { counting: Counting; summaryData: ReportSummary } {
  const tally = countingTally(fileCounts);
  const material = tallies(MAPPING_SOURCES);
  const quantities = tallies(QUANTITY_SOURCES);
  const classification = tallies(CLASSIFICATION_SOURCES);
  const geometryIssues = Object.fromEntries(GEOMETRY_ISSUES.map((issue) => [issue, 0])) as Record<GeometryIssue, number>;
  const subgroups = new Map<NotCountedReason, Groups<ElementGroupKey>>();
  const unmapped = new Groups<ElementGroupKey>(groupKeyText);
  const unlayered = new Groups<string | null>((name) => JSON.stringify(name));

  for (const element of elements) {
    const volume = element.volume !== null && element.volume !== undefined && element.volume > 0 ? element.volume : 0;
    const facts = countingFacts(element, catalogue);
    add(material[facts.mapped ? (element.mappingSource ?? 'rule') : 'none'], volume);
    add(quantities[element.quantitySource ?? 'none'], volume);
    if (element.geometryIssue !== null) geometryIssues[element.geometryIssue] += 1;
    const classified = element.classificationId !== null && element.classificationId !== undefined;
    add(classification[element.classificationSource ?? (classified ? 'model' : 'none')], volume);
    if (!facts.mapped) unmapped.add(unmappedGroupKey(element), volume);
    if (!facts.layered) unlayered.add(named(element.elementClass), volume);
    const reason = tally.add(facts, volume);
    if (reason === null) continue;
    let groups = subgroups.get(reason);
    if (groups === undefined) {
      groups = new Groups<ElementGroupKey>(groupKeyText);
      subgroups.set(reason, groups);
    }
    groups.add(reasonGroupKey(reason, element), volume);
  }

  const counting = tally.finish();
  const total = counting.volume;
  const share = (tally: Tally) => ({ ...tally, volumeShare: total > 0 ? Math.min(1, tally.volume / total) : 0 });
  const shares = <Keys extends string>(record: Record<Keys, Tally>) =>
    Object.fromEntries(Object.entries<Tally>(record).map(([key, tally]) => [key, share(tally)])) as Record<Keys, ReturnType<typeof share>>;
  const figures = {
    elementCount: counting.elements,
    volume: total,
    counted: {
      elements: counting.counted.elements,
      elementShare: counting.elements > 0 ? counting.counted.elements / counting.elements : 0,
      volume: counting.counted.volume,
      volumeShare: share(counting.counted).volumeShare,
    },
    material: shares(material),
    quantities: shares(quantities),
    geometryIssues,
    classification: shares(classification),
    unmappedMaterials: unmapped.ordered().map(
      ({ key, ...group }): UnmappedMaterialGroup => ({ materialName: key.materialName, elementClass: key.elementClass, typeName: key.typeName, ...group }),
    ),
    unlayeredClasses: unlayered.ordered().map(({ key, ...group }): UnlayeredClassGroup => ({ elementClass: key, ...group })),
    notCounted: counting.notCounted.map(
      (count): NotCountedGroup => ({
        ...count,
        description: NOT_COUNTED_DESCRIPTIONS[count.reason],
        groups: (subgroups.get(count.reason)?.ordered() ?? []).slice(0, MAX_NOT_COUNTED_SUBGROUPS).map(({ key, ...group }) => ({ ...key, ...group })),
      }),
    ),
  };
  const summary = reportSummary(figures, counting, fileCounts);
  return { ...figures, counting, summary: formatStatusMessage({ kind: 'report-summary', ...summary }), summaryData: summary };
}

/** The counts of a file as its status message says them: how many count, why the others do not, what was assumed. */
export function reportSummary(
  figures: Pick<ImportReportFigures, 'material' | 'quantities' | 'classification'>,
  counting: Counting,
  fileCounts: boolean,
): ReportSummary {
  const own = counting.notCounted.filter((count): count is typeof count & { reason: ElementReason } => count.reason !== 'file-not-counted');
  const waiting = counting.notCounted.find((count) => count.reason === 'file-not-counted')?.elements ?? 0;
  return {
    counted: fileCounts ? counting.counted.elements : waiting,
    elements: counting.elements,
    active: fileCounts,
    notCounted: own.map(({ reason, elements }) => ({ reason, elements })),
    mappedByKeyword: figures.material.keyword.elements,
    measuredFromGeometry: figures.quantities.geometry.elements,
    layerFromNames: figures.classification.layer.elements,
    layerFromClass: figures.classification.inferred.elements,
  };
}
