import { describe, expect, it } from 'vitest';
import { BuildingFileStatuses, BuildingLevel } from '../../../../../shared/api/enums';
import type { BuildingFinancialInformation, BuildingValidation } from '../../../../../shared/api/schemas';
import { formatStatusMessage } from '../../../../../shared/status-messages';
import { chartPalette } from '../../../../../renderer/components/charts';
import {
  barFraction,
  barOption,
  circularityView,
  familyBars,
  gaugeOption,
  levelBars,
  scoreGaps,
  buildingCounts,
  validationBars,
  VALIDATION_FIELDS,
} from '../../../../../renderer/views/buildings/dashboard-figures';

const percent = (value: number): string => `${Math.round(value * 100)} %`;
const light = chartPalette('light');

const financial: BuildingFinancialInformation = {
  currentValue: 1000,
  currentValuePerMaterialFamily: { wood: 120, metal: 800, stone: -20, unobtainium: 100 },
  ncwValue: 700,
  ncwValuePerBuildingLevel: [
    { id: BuildingLevel.Unknown.id, label: 'Unknown', value: 5 },
    { id: BuildingLevel.Skin.id, label: 'Skin', value: 300 },
    { id: '99999999-9999-4999-8999-999999999999', label: 'Basement', value: 1 },
    { id: BuildingLevel.Site.id, label: 'Site', value: 0 },
    { id: BuildingLevel.Structure.id, label: 'Structure', value: 395 },
  ],
};

describe('the circularity figures', () => {
  it('keep absent and non-numeric figures as none', () => {
    const view = circularityView({
      circularityConstructionPhase: 0.62,
      circularityUsagePhase: 1.2,
      circularityEndOfLifePhase: null,
      ciScoreBuilding: 0.49,
      correctionUnknownMaterials: 0.96,
      correctionUnknownBrandLayer: 'n/a' as unknown as number,
      madasterCiScore: 0.47,
    });
    expect(view).toEqual({
      final: 0.47,
      building: 0.49,
      phases: { construction: 0.62, usage: 1.2, endOfLife: null },
      corrections: { unknownMaterials: 0.96, unknownBrandLayer: null },
    });
  });

  it('draw the final score on a gauge of 0 to 100, its value written in the middle', () => {
    const option = gaugeOption(0.47, 'CI', light, percent) as { series: Array<{ data: Array<{ value: number; name: string }>; detail: { formatter: () => string }; progress: { show: boolean } }> };
    const [gauge] = option.series;
    expect(gauge?.data).toEqual([{ value: 47, name: 'CI' }]);
    expect(gauge?.detail.formatter()).toBe('47 %');
    const empty = gaugeOption(null, 'CI', light, percent) as typeof option;
    expect(empty.series[0]?.detail.formatter()).toBe('—');
    expect(empty.series[0]?.data).toEqual([{ value: 0, name: 'CI' }]);
  });

  it('keep the gauge’s parts when a score arrives later, so the arc is drawn without a reload', () => {
    const shape = (option: unknown): unknown =>
      JSON.parse(JSON.stringify(option, (key: string, value: unknown) => (key === 'data' || key === 'formatter' ? undefined : value)));
    expect(shape(gaugeOption(0.1, 'CI', light, percent))).toEqual(shape(gaugeOption(null, 'CI', light, percent)));
    const later = gaugeOption(0.1, 'CI', light, percent) as { series: Array<{ progress: { show: boolean }; data: Array<{ value: number }> }> };
    expect([later.series[0]?.progress.show, later.series[0]?.data[0]?.value]).toEqual([true, 10]);
  });

  it('clamp bar lengths to 0..1', () => {
    expect([barFraction(null), barFraction(-0.2), barFraction(0.4), barFraction(1.7)]).toEqual([0, 0, 0.4, 1]);
  });
});

describe('the financial bars', () => {
  it('list the material families highest first, in their words', () => {
    const bars = familyBars(financial, (family) => family.toUpperCase());
    expect(bars.map((bar) => [bar.label, bar.value])).toEqual([
      ['METAL', 800],
      ['WOOD', 120],
      ['UNOBTAINIUM', 100],
      ['STONE', -20],
    ]);
  });

  it('list the building levels in the platform’s order, a level the spec does not know last under its own label', () => {
    const bars = levelBars(financial, (level, label) => (level === null ? `?${label}` : level));
    expect(bars.map((bar) => bar.label)).toEqual(['Site', 'Structure', 'Skin', 'Unknown', '?Basement']);
  });

  it('colour negative values apart and write every value on its bar', () => {
    const option = barOption(familyBars(financial, (family) => family), light, (value) => `€${value}`, 1, (value) => `€${value / 1000}K`) as {
      series: Array<{ data: Array<{ value: number; itemStyle: { color: string } }>; label: { formatter: (item: { value: unknown }) => string } }>;
      yAxis: { data: string[] };
    };
    expect(option.yAxis.data).toEqual(['metal', 'wood', 'unobtainium', 'stone']);
    const colours = option.series[0]?.data.map((item) => item.itemStyle.color);
    expect(colours).toEqual([light.primary, light.primary, light.primary, light.negative]);
    expect(option.series[0]?.label.formatter({ value: -20 })).toBe('€-20');
  });

  it('keep their axis labels inside the chart, short, never overlapping and never closer than the format tells apart', () => {
    const option = barOption([], light, (value) => `€${value.toFixed(0)}`, 1, (value) => `€${value / 1000}K`) as {
      grid: { containLabel: boolean };
      xAxis: { minInterval: number; axisLabel: { hideOverlap: boolean; formatter: (value: number) => string } };
    };
    expect(option.grid.containLabel).toBe(true);
    expect(option.xAxis.minInterval).toBe(1);
    expect(option.xAxis.axisLabel.hideOverlap).toBe(true);
    expect(option.xAxis.axisLabel.formatter(-180_000)).toBe('€-180K');
  });

  it('follow the theme', () => {
    expect(chartPalette('dark').text).not.toBe(chartPalette('light').text);
  });
});

describe('the validation bars', () => {
  it('show every validation figure once, in the quality check’s order, leaving out what the server left out', () => {
    const validation = Object.fromEntries(VALIDATION_FIELDS.map((field, index) => [field, index / 10])) as BuildingValidation;
    expect(new Set(VALIDATION_FIELDS).size).toBe(11);
    const bars = validationBars({ ...validation, percentageLengthBaseQuantityAssignedByNumber: undefined as unknown as number }, (field) => field);
    expect(bars.map((bar) => bar.key)).toEqual(VALIDATION_FIELDS.slice(0, 10));
    expect(bars[0]).toEqual({ key: 'percentageElementsMappedByNumber', label: 'percentageElementsMappedByNumber', value: 0 });
  });
});

describe('scoreGaps', () => {
  const file = (id: string, status: number, elements?: { total: number; mapped: number; layered: number }) => ({ id, name: `${id}.ifc`, status, elements });

  it('says that no source file is active', () => {
    expect(scoreGaps([])).toEqual([{ kind: 'no-active-file' }]);
  });

  it('names, file by file, what the elements lack, with numbers', () => {
    expect(
      scoreGaps([
        file('a', BuildingFileStatuses.Mapped, { total: 215, mapped: 215, layered: 0 }),
        file('b', BuildingFileStatuses.Mapped, { total: 82, mapped: 70, layered: 82 }),
        file('c', BuildingFileStatuses.Refining),
        file('d', BuildingFileStatuses.Mapped, { total: 0, mapped: 0, layered: 0 }),
        file('e', BuildingFileStatuses.Mapped, { total: 3, mapped: 3, layered: 3 }),
        file('f', BuildingFileStatuses.Mapped),
      ]),
    ).toEqual([
      { kind: 'no-layer', fileId: 'a', fileName: 'a.ifc', layered: 0, total: 215 },
      { kind: 'no-material', fileId: 'b', fileName: 'b.ifc', missing: 12, total: 82 },
      { kind: 'not-mapped', fileId: 'c', fileName: 'c.ifc', status: BuildingFileStatuses.Refining },
      { kind: 'no-elements', fileId: 'd', fileName: 'd.ifc' },
      { kind: 'elsewhere', fileId: 'e', fileName: 'e.ifc' },
    ]);
  });
});

describe('buildingCounts', () => {
  const summary = (counted: number, elements: number, active: boolean, notCounted: { reason: 'no-mass' | 'no-material'; elements: number }[]) =>
    formatStatusMessage(
      { kind: 'import-summary', imported: elements, rejected: 0, shown: [] },
      { kind: 'report-summary', counted, elements, active, notCounted, mappedByKeyword: 0, measuredFromGeometry: 0, layerFromNames: 0, layerFromClass: 0 },
    );
  const mapped = BuildingFileStatuses.Mapped;

  it('sums the summaries of the Mapped files, listing those with elements that do not count', () => {
    expect(
      buildingCounts([
        { id: 'a', name: 'house.ifc', status: mapped, message: summary(14, 34, true, [{ reason: 'no-mass', elements: 20 }]) },
        // Written before the file was activated: how many will count is how many do.
        { id: 'b', name: 'annex.ifc', status: mapped, message: summary(10, 10, false, []) },
        { id: 'c', name: 'new.ifc', status: BuildingFileStatuses.Refining, message: 'Refining: classification, brand layers, phases and mapping.' },
        { id: 'd', name: 'other.ifc', status: mapped, message: null },
      ]),
    ).toEqual({
      counted: 24,
      elements: 44,
      files: [{ fileId: 'a', fileName: 'house.ifc', counted: 14, elements: 34, notCounted: [{ reason: 'no-mass', elements: 20 }] }],
      unread: 1,
    });
  });

  it('knows nothing when no summary can be read (another server’s words, or none read yet)', () => {
    expect(buildingCounts([{ id: 'a', name: 'a.ifc', status: mapped, message: 'Verwerkt.' }])).toBeNull();
    expect(buildingCounts([])).toBeNull();
  });
});
