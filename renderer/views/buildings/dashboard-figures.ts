/**
 * The building dashboard's figures as the charts draw them: the circularity gauge, bars of the financial figures per
 * material family and per building level, bars of the validation fractions, and why a circularity score is missing.
 * Pure functions of the cached figures, a palette and formatters in the user's language, so they are tested without a
 * DOM.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { BuildingFileStatuses, BuildingLevel, type BuildingLevelName } from '../../../shared/api/enums';
import type { BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../../shared/api/schemas';
import { parseStatusMessage, type ReportSummary } from '../../../shared/status-messages';
import type { ChartPalette } from '../../components/charts';

/** One bar: what it is (`key`), its words, its value. */
export interface Bar {
  key: string;
  label: string;
  value: number;
}

/** Formats a number of a chart in the user's language. */
export type NumberText = (value: number) => string;

// Servers other than ours may answer a figure as absent or as something that is not a number.
function figure(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The circularity figures a user reads: the final CI, the CI before corrections, the three phases, both corrections. */
export interface CircularityView {
  final: number | null;
  building: number | null;
  phases: { construction: number | null; usage: number | null; endOfLife: number | null };
  corrections: { unknownMaterials: number | null; unknownBrandLayer: number | null };
}

/** The circularity figures of the cache, each null when the server has none (nothing counted yet). */
export function circularityView(circular: BuildingCircularInformation): CircularityView {
  return {
    final: figure(circular.madasterCiScore),
    building: figure(circular.ciScoreBuilding),
    phases: {
      construction: figure(circular.circularityConstructionPhase),
      usage: figure(circular.circularityUsagePhase),
      endOfLife: figure(circular.circularityEndOfLifePhase),
    },
    corrections: {
      unknownMaterials: figure(circular.correctionUnknownMaterials),
      unknownBrandLayer: figure(circular.correctionUnknownBrandLayer),
    },
  };
}

/** What the cache knows of an active source file of a building: its status and, once read, its elements' figures. */
export interface ScoreFile {
  id: string;
  name: string;
  status: number;
  /** Counts of its cached elements; undefined while they are being read. */
  elements: { total: number; mapped: number; layered: number } | undefined;
}

/**
 * Why a building has no circularity score, from what its active source files hold: none is active, one is not
 * Mapped, one has no elements, or, with numbers, how many elements lack a building layer or a material. A file whose
 * elements all have both lacks something the cache does not show (a mass, circular data): its report says which.
 */
export type ScoreGap =
  | { kind: 'no-active-file' }
  | { kind: 'not-mapped'; fileId: string; fileName: string; status: number }
  | { kind: 'no-elements'; fileId: string; fileName: string }
  | { kind: 'no-layer'; fileId: string; fileName: string; layered: number; total: number }
  | { kind: 'no-material'; fileId: string; fileName: string; missing: number; total: number }
  | { kind: 'elsewhere'; fileId: string; fileName: string };

/** The reasons a score is missing, file by file; files whose elements are still being read say nothing yet. */
export function scoreGaps(files: readonly ScoreFile[]): ScoreGap[] {
  if (files.length === 0) return [{ kind: 'no-active-file' }];
  return files.flatMap((file): ScoreGap[] => {
    const named = { fileId: file.id, fileName: file.name };
    if (file.status !== BuildingFileStatuses.Mapped) return [{ kind: 'not-mapped', ...named, status: file.status }];
    const counts = file.elements;
    if (counts === undefined) return [];
    if (counts.total === 0) return [{ kind: 'no-elements', ...named }];
    const gaps: ScoreGap[] = [];
    if (counts.layered < counts.total) gaps.push({ kind: 'no-layer', ...named, layered: counts.layered, total: counts.total });
    if (counts.mapped < counts.total) gaps.push({ kind: 'no-material', ...named, missing: counts.total - counts.mapped, total: counts.total });
    return gaps.length > 0 ? gaps : [{ kind: 'elsewhere', ...named }];
  });
}

/** An active source file of a building as the cache holds it, with its status message (`/status`; null: not read). */
export interface CountedFile {
  id: string;
  name: string;
  status: number;
  message: string | null;
}

/** How many elements of a file count, and why the others do not, as its summary says. */
export interface FileCounts {
  fileId: string;
  fileName: string;
  counted: number;
  elements: number;
  notCounted: ReportSummary['notCounted'];
}

/** How many elements of a building's active, Mapped source files count, and, per file, why the others do not. */
export interface BuildingCounts {
  counted: number;
  elements: number;
  /** The files with elements that do not count. */
  files: FileCounts[];
  /** Active, Mapped source files whose summary the app cannot read (not read yet, or worded by another server). */
  unread: number;
}

/**
 * The counts of a building, summed from its files' summaries: the server's one computation (shared/counting.ts) that
 * the file rows and the import reports show too. Only active, Mapped files count; a summary written before the file
 * was activated says how many will count, which is how many do. Null when no file's summary can be read.
 */
export function buildingCounts(files: readonly CountedFile[]): BuildingCounts | null {
  const counts: BuildingCounts = { counted: 0, elements: 0, files: [], unread: 0 };
  let read = 0;
  for (const file of files) {
    if (file.status !== BuildingFileStatuses.Mapped) continue;
    const summary = summaryOf(file);
    if (summary === null) {
      counts.unread += 1;
      continue;
    }
    read += 1;
    counts.counted += summary.counted;
    counts.elements += summary.elements;
    if (summary.notCounted.length > 0) {
      counts.files.push({ fileId: file.id, fileName: file.name, counted: summary.counted, elements: summary.elements, notCounted: summary.notCounted });
    }
  }
  return read === 0 ? null : counts;
}

/** A file's summary as its status message says it; null when the message has none the app can read. */
function summaryOf(file: CountedFile): ReportSummary | null {
  const summary = parseStatusMessage(file.message ?? '')?.find((sentence) => sentence.kind === 'report-summary');
  return summary?.kind === 'report-summary' ? summary : null;
}

/**
 * The active source files whose elements may not all count while no summary says how many do: those not Mapped, and
 * Mapped ones whose summary is not read (yet) or cannot be. Their cached elements tell what they lack instead.
 */
export function filesToExplain(files: readonly CountedFile[]): string[] {
  return files.filter((file) => file.status !== BuildingFileStatuses.Mapped || summaryOf(file) === null).map((file) => file.id);
}

/** A fraction clamped to 0..1 for a bar's length (the figure itself is shown as it is). */
export function barFraction(value: number | null): number {
  if (value === null) return 0;
  return Math.min(1, Math.max(0, value));
}

/**
 * The gauge of a CI score (a fraction), 0 to 100 %, its value written in the middle and `label` under it. Its parts
 * are the same with a score or without one (an empty arc is a progress of 0): an option that switched the progress on
 * only once a score arrived was merged by ECharts into a chart that kept its arc empty.
 */
export function gaugeOption(value: number | null, label: string, palette: ChartPalette, percent: NumberText): EChartsCoreOption {
  const text = value === null ? '—' : percent(value);
  return {
    backgroundColor: 'transparent',
    series: [
      {
        type: 'gauge',
        min: 0,
        max: 100,
        startAngle: 210,
        endAngle: -30,
        radius: '92%',
        progress: { show: true, width: 14, roundCap: true, itemStyle: { color: palette.primary } },
        axisLine: { roundCap: true, lineStyle: { width: 14, color: [[1, palette.track]] } },
        axisTick: { show: false },
        splitLine: { show: false },
        axisLabel: { show: false },
        pointer: { show: false },
        anchor: { show: false },
        title: { offsetCenter: [0, '34%'], color: palette.mutedText, fontSize: 12 },
        detail: { offsetCenter: [0, '-4%'], fontSize: 30, fontWeight: 600, color: palette.text, formatter: () => text },
        data: [{ value: barFraction(value) * 100, name: label }],
      },
    ],
  };
}

/**
 * Bars of values: horizontal, negative ones in the warning colour, each labelled with its value. `smallestStep` is the
 * least difference `format` shows (1 for whole euros): the axis never puts its ticks closer, where two would read the same
 * ("€0 €0 €1" on a chart of small or no values). The axis writes its ticks with `tickFormat`, short ("-€150K",
 * "-150 k€"), and leaves out a tick that would overlap its neighbour, in every language.
 */
export function barOption(bars: readonly Bar[], palette: ChartPalette, format: NumberText, smallestStep: number, tickFormat: NumberText): EChartsCoreOption {
  const axisText = { color: palette.mutedText };
  return {
    backgroundColor: 'transparent',
    // The labels of both axes are inside the chart, however long a level's name or a value is in the user's language.
    grid: { left: 8, right: 72, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (value: unknown) => (typeof value === 'number' ? format(value) : '') },
    xAxis: {
      type: 'value',
      minInterval: smallestStep,
      axisLabel: { ...axisText, hideOverlap: true, formatter: (value: number) => tickFormat(value) },
      splitLine: { lineStyle: { color: palette.gridLine } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: bars.map((bar) => bar.label),
      axisLabel: { color: palette.text },
      axisLine: { lineStyle: { color: palette.gridLine } },
      axisTick: { show: false },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 18,
        data: bars.map((bar) => ({ value: bar.value, itemStyle: { color: bar.value < 0 ? palette.negative : palette.primary } })),
        label: { show: true, position: 'right', color: palette.text, formatter: (item: { value: unknown }) => (typeof item.value === 'number' ? format(item.value) : '') },
      },
    ],
  };
}

/** The material families the platform names (spec §2.4); others show under the server's name. */
export const KNOWN_FAMILIES = ['stone', 'glass', 'wood', 'plastic', 'organic', 'metal'] as const;
/** A material family the app has words for. */
export type KnownFamily = (typeof KNOWN_FAMILIES)[number];

/** The current value per material family, highest first; `labelOf` gives a family's words. */
export function familyBars(financial: BuildingFinancialInformation, labelOf: (family: string) => string): Bar[] {
  return Object.entries(financial.currentValuePerMaterialFamily ?? {})
    .flatMap(([family, value]) => {
      const amount = figure(value);
      return amount === null ? [] : [{ key: family, label: labelOf(family), value: amount }];
    })
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
}

const LEVEL_BY_ID = new Map<string, BuildingLevelName>(
  (Object.keys(BuildingLevel) as BuildingLevelName[]).map((name) => [BuildingLevel[name].id, name]),
);
const LEVEL_ORDER = Object.keys(BuildingLevel) as BuildingLevelName[];

/** The net value per building level, in the platform's order of the levels; `labelOf` gives a level's words. */
export function levelBars(
  financial: BuildingFinancialInformation,
  labelOf: (level: BuildingLevelName | null, serverLabel: string) => string,
): Bar[] {
  const rank = (id: string): number => {
    const level = LEVEL_BY_ID.get(id);
    return level === undefined ? LEVEL_ORDER.length : LEVEL_ORDER.indexOf(level);
  };
  return (financial.ncwValuePerBuildingLevel ?? [])
    .flatMap((level) => {
      const value = figure(level.value);
      return value === null ? [] : [{ key: level.id, label: labelOf(LEVEL_BY_ID.get(level.id) ?? null, level.label), value }];
    })
    .sort((a, b) => rank(a.key) - rank(b.key));
}

/** The validation fractions, in the order the platform's quality check lists them. */
export const VALIDATION_FIELDS = [
  'percentageElementsMappedByNumber',
  'percentageElementsMappedByVolume',
  'percentageMaterialSpecifiedByNumber',
  'percentageMaterialSpecifiedByVolume',
  'percentageClassificationAssignedByNumber',
  'percentageClassificationAssignedByVolume',
  'percentageElementsWithKnownMassByNumber',
  'percentageBaseQuantitiesAssignedByNumber',
  'percentageVolumeBaseQuantityAssignedByNumber',
  'percentageAreaBaseQuantityAssignedByNumber',
  'percentageLengthBaseQuantityAssignedByNumber',
] as const satisfies readonly (keyof BuildingValidation)[];
/** A validation fraction. */
export type ValidationField = (typeof VALIDATION_FIELDS)[number];

/** The validation fractions as bars; a figure the server left out is left out. */
export function validationBars(validation: BuildingValidation, labelOf: (field: ValidationField) => string): Bar[] {
  return VALIDATION_FIELDS.flatMap((field) => {
    const value = figure(validation[field]);
    return value === null ? [] : [{ key: field, label: labelOf(field), value }];
  });
}
