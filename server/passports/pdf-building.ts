/** The building passport's pages: title page, identity, circularity, building layers, material families, validation and the financial summary. */
import { BuildingLevel, type BuildingValidation } from '../../shared/api';
import type { Counting } from '../../shared/counting';
import { financialYears } from '../calc/financial';
import { INDUSTRY_AVERAGE_LIFESPAN, layerOf } from '../calc/inputs';
import { type ChartImage } from './charts';
import { MISSING, type PassportText } from './i18n';
import type { BuildingPassportData, PassportBuildingIdentity } from './passport-data';
import type { PassportLayout } from './pdf-layout';
import { CONTENT_WIDTH, FONT, MARGIN, euroCell, figureColumns, type Cell, type Tile } from './pdf-layout';
import { LEVEL_ORDER, PALETTE, familyColour, layerColour } from './theme';
import { coverBand, coverFooter, scoreText, sum } from './pdf-cover';

// --- building passport -------------------------------------------------------------------------------------------------

export interface LayerRow {
  id: string;
  label: string;
  mass: number;
  elementCount: number;
}

/** The layers in `BuildingLevel` order, unknown ids last. */
export function orderedLayers(data: BuildingPassportData): LayerRow[] {
  const rank = (id: string) => {
    const index = LEVEL_ORDER.indexOf(id.toLowerCase());
    return index === -1 ? LEVEL_ORDER.length : index;
  };
  return [...data.layers].sort((a, b) => rank(a.id) - rank(b.id));
}

/** The address on one line: street and number, postcode and city, country (a country code in the language). */
function addressLine(building: PassportBuildingIdentity, t: PassportText): string | null {
  const street = [building.addressStreet, building.addressHousenumber, building.addressHousenumberAddition]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const city = [building.addressZipcode, building.addressCity]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const parts = [street, city, t.f.country(building.addressCountry)].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The cover: a band with the title and the building's name and address, its photo, key figures, the issue line. */
export function buildingTitlePage(layout: PassportLayout, data: BuildingPassportData, layers: readonly LayerRow[]): void {
  const { t } = layout;
  const address = addressLine(data.building, t);
  coverBand(layout, t.m.materialPassport, data.building.name, address);

  const imageHeight = 250;
  if (data.image && layout.photo(data.image, MARGIN.left, layout.y, CONTENT_WIDTH, imageHeight)) {
    layout.y += imageHeight + 24;
  } else {
    layout.y += 8;
  }

  layout.subheading(t.m.keyFigures, 70);
  const tiles: Tile[] = [
    { label: t.m.ciScore, value: scoreText(data.circular.madasterCiScore, t) },
    { label: t.m.totalMass, value: t.f.mass(layers.length > 0 ? sum(layers.map((layer) => layer.mass)) : null) },
    { label: t.m.grossFloorArea, value: t.f.area(data.building.grossSurfaceArea) },
    { label: t.m.currentValue, value: t.f.euro(data.financial.currentValue) },
  ];
  layout.tiles(tiles);
  coverFooter(layout, data.generatedAt);
}

export function identitySection(layout: PassportLayout, building: PassportBuildingIdentity): void {
  const { t } = layout;
  layout.sectionHeading(1, t.m.identity, 160);
  const labels = [
    building.breeamLabel !== null ? `BREEAM ${t.f.number(building.breeamLabel)}` : null,
    building.gprLabel !== null ? `GPR ${t.f.number(building.gprLabel, 1)}` : null,
    building.mpgLabel !== null ? `MPG ${t.f.number(building.mpgLabel, 2)}` : null,
    building.leedLabel ? `LEED ${building.leedLabel}` : null,
  ].filter((label): label is string => label !== null);
  const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : MISSING);
  layout.grid([
    { label: t.m.name, value: building.name },
    { label: t.m.address, value: addressLine(building, t) ?? MISSING },
    { label: t.m.buildingUsage, value: text(building.buildingUsage) },
    { label: t.m.grossFloorArea, value: t.f.area(building.grossSurfaceArea) },
    { label: t.m.completionDate, value: t.f.date(building.completionDate) },
    { label: t.m.lastRenovation, value: t.f.date(building.lastRenovationDate) },
    { label: t.m.energyLabel, value: text(building.energyLabel) },
    { label: t.m.energyPerformanceCoefficient, value: t.f.number(building.energyPerformanceCoefficient, 2) },
    { label: t.m.energyIndex, value: t.f.number(building.energyIndex, 2) },
    { label: t.m.cadastralDesignation, value: text(building.cadastralDesignation) },
    { label: t.m.cadastralArea, value: t.f.area(building.cadastralArea) },
    { label: t.m.parcelNumber, value: text(building.parcelnumber) },
    { label: t.m.sustainabilityLabels, value: labels.length > 0 ? labels.join(' · ') : MISSING },
  ]);

  layout.subheading(t.m.expectedLifespans, 140);
  const L = BuildingLevel;
  const rows: Array<[string, number | null, number | null]> = [
    [t.m.wholeBuilding, building.expectedLifespan, null],
    [t.level(L.Structure.id), building.expectedLifespanStructure, INDUSTRY_AVERAGE_LIFESPAN.Structure],
    [t.level(L.Skin.id), building.expectedLifespanSkin, INDUSTRY_AVERAGE_LIFESPAN.Skin],
    [t.level(L.Services.id), building.expectedLifespanServices, INDUSTRY_AVERAGE_LIFESPAN.Services],
    [t.level(L.SpacePlan.id), building.expectedLifespanSpacePlan, INDUSTRY_AVERAGE_LIFESPAN.SpacePlan],
    [t.level(L.Stuff.id), building.expectedLifespanStuff, INDUSTRY_AVERAGE_LIFESPAN.Stuff],
  ];
  layout.table(
    figureColumns(t.m.layer, [t.m.lifespanBuilding, 130], [t.m.lifespanIndustryAverage, 130]),
    rows.map(([label, own, average]) => [label, t.f.years(own), t.f.years(average)]),
  );
}

export function circularitySection(layout: PassportLayout, data: BuildingPassportData, gauge: ChartImage, phases: ChartImage): void {
  const { t } = layout;
  const c = data.circular;
  // The whole section (gauge and figures, phases chart, two paragraphs) stays on one page.
  const explanations =
    layout.measure(t.m.ciExplanation, FONT.regular, 8.5, CONTENT_WIDTH, 2) + layout.measure(t.m.correctionsExplanation, FONT.regular, 8.5, CONTENT_WIDTH, 2);
  layout.sectionHeading(2, t.m.circularity, gauge.height + 12 + 24 + phases.height + 8 + explanations + 12);
  const top = layout.y;

  // Left: the gauge; right: every figure, the corrected score last and bold.
  layout.doc.image(gauge.png, MARGIN.left, top, { width: gauge.width, height: gauge.height });
  const tableX = MARGIN.left + gauge.width + 16;
  const tableWidth = CONTENT_WIDTH - gauge.width - 16;
  layout.table(
    figureColumns(t.m.figure, [t.m.value, 70]),
    [
      [t.m.constructionPhase, t.f.percent(c.circularityConstructionPhase)],
      [t.m.usagePhase, t.f.percent(c.circularityUsagePhase)],
      [t.m.endOfLifePhase, t.f.percent(c.circularityEndOfLifePhase)],
      [{ text: t.m.ciScoreBuilding, bold: true }, { text: t.f.percent(c.ciScoreBuilding), bold: true }],
      [`× ${t.m.correctionMaterials}`, t.f.percent(c.correctionUnknownMaterials)],
      [`× ${t.m.correctionLayers}`, t.f.percent(c.correctionUnknownBrandLayer)],
    ],
    { x: tableX, width: tableWidth, total: [`= ${t.m.ciScore}`, scoreText(c.madasterCiScore, t)], after: 0 },
  );
  layout.y = Math.max(layout.y, top + gauge.height) + 12;

  if (c.madasterCiScore === null) {
    layout.text(t.m.ciUnavailable, { font: FONT.bold, size: 9, colour: PALETTE.negative, after: 8 });
  }
  layout.subheading(t.m.phases, phases.height);
  layout.chart(phases);
  layout.paragraph(t.m.ciExplanation, 4);
  layout.paragraph(t.m.correctionsExplanation);
}

/** Width of the layers donut; the layers table sits to its right. */
export const LAYER_CHART_WIDTH = 210;

export function layersSection(layout: PassportLayout, layers: readonly LayerRow[], chart: ChartImage | null): void {
  const { t } = layout;
  const explanation = layout.measure(t.m.layersExplanation, FONT.regular, 8.5, CONTENT_WIDTH, 2) + 8;
  const blockHeight = Math.max(chart?.height ?? 0, 22 * (layers.length + 2));
  layout.sectionHeading(3, t.m.layers, explanation + blockHeight);
  layout.paragraph(t.m.layersExplanation);
  if (layers.length === 0) {
    layout.text(t.m.noLayers, { colour: PALETTE.muted, after: 8 });
    return;
  }
  // The donut on the left, the table (its legend) on the right, kept together on one page.
  layout.ensure(blockHeight);
  const top = layout.y;
  if (chart) layout.doc.image(chart.png, MARGIN.left, top, { width: chart.width, height: chart.height });
  const tableX = MARGIN.left + (chart ? chart.width + 12 : 0);
  const totalMass = sum(layers.map((layer) => layer.mass));
  layout.table(
    figureColumns(t.m.layer, [t.m.elements, 60], [t.m.mass, 62], [t.m.share, 56]),
    layers.map((layer) => [
      { text: t.level(layer.id, layer.label), swatch: layerColour(layer.id) },
      t.f.number(layer.elementCount),
      t.f.mass(layer.mass),
      t.f.percent(totalMass > 0 ? layer.mass / totalMass : null),
    ]),
    {
      x: tableX,
      width: MARGIN.left + CONTENT_WIDTH - tableX,
      total: [t.m.total, t.f.number(sum(layers.map((layer) => layer.elementCount))), t.f.mass(totalMass), t.f.percent(totalMass > 0 ? 1 : null)],
      after: 0,
    },
  );
  layout.y = Math.max(layout.y, top + (chart?.height ?? 0)) + 8;
}

export function familiesSection(layout: PassportLayout, families: BuildingPassportData['families'], chart: ChartImage | null): void {
  const { t } = layout;
  // Table and chart stay together: the chart reads as the table's picture.
  const explanation = layout.measure(t.m.familiesExplanation, FONT.regular, 8.5, CONTENT_WIDTH, 2) + 8;
  layout.sectionHeading(4, t.m.families, explanation + 19 * (families.length + 2) + 10 + (chart?.height ?? 0));
  layout.paragraph(t.m.familiesExplanation);
  if (families.length === 0) {
    layout.text(t.m.noFamilies, { colour: PALETTE.muted, after: 8 });
    return;
  }
  const totalMass = sum(families.map((family) => family.mass));
  layout.table(
    figureColumns(t.m.family, [t.m.mass, 95], [t.m.share, 70], [t.m.currentValue, 110]),
    families.map((family) => [
      { text: t.family(family.family), swatch: familyColour(family.family) },
      t.f.mass(family.mass),
      t.f.percent(totalMass > 0 ? family.mass / totalMass : null),
      euroCell(t, family.value),
    ]),
    { total: [t.m.total, t.f.mass(totalMass), t.f.percent(totalMass > 0 ? 1 : null), euroCell(t, sum(families.map((family) => family.value)))] },
  );
  if (chart) layout.chart(chart);
}

/** The validation rows: a check with its share by number and, where the API gives one, by volume. */
function validationRows(v: BuildingValidation, t: PassportText): Array<[string, number, number | null]> {
  return [
    [t.m.classificationAssigned, v.percentageClassificationAssignedByNumber, v.percentageClassificationAssignedByVolume],
    [t.m.materialSpecified, v.percentageMaterialSpecifiedByNumber, v.percentageMaterialSpecifiedByVolume],
    [t.m.elementsMapped, v.percentageElementsMappedByNumber, v.percentageElementsMappedByVolume],
    [t.m.knownMass, v.percentageElementsWithKnownMassByNumber, null],
    [t.m.volumeGiven, v.percentageVolumeBaseQuantityAssignedByNumber, null],
    [t.m.areaGiven, v.percentageAreaBaseQuantityAssignedByNumber, null],
    [t.m.lengthGiven, v.percentageLengthBaseQuantityAssignedByNumber, null],
    [t.m.baseQuantitiesGiven, v.percentageBaseQuantitiesAssignedByNumber, null],
  ];
}

export function validationSection(layout: PassportLayout, validation: BuildingValidation, counting: Counting, number: number): void {
  const { t } = layout;
  layout.sectionHeading(number, t.m.validation, 200);
  layout.paragraph(t.m.validationExplanation);
  const share = (value: number | null): Cell => (value === null ? { text: MISSING, colour: PALETTE.muted } : { text: t.f.percent(value), bar: value });
  layout.table(
    figureColumns(t.m.check, [t.m.byNumber, 140], [t.m.byVolume, 140]),
    validationRows(validation, t).map(([label, byNumber, byVolume]) => [label, share(byNumber), share(byVolume)]),
  );
  // What counts, as the files' import reports say it: by number first, since an element that lacks a volume adds none.
  const ofAll = (elements: number, volume: number): [Cell, Cell] => [
    share(counting.elements > 0 ? elements / counting.elements : null),
    share(counting.volume > 0 ? volume / counting.volume : null),
  ];
  layout.subheading(t.m.counting, 40 + 22 * (counting.notCounted.length + 1));
  layout.paragraph(t.m.countingExplanation);
  layout.table(figureColumns(t.m.elements, [t.m.byNumber, 140], [t.m.byVolume, 140]), [
    [{ text: `${t.m.counted}: ${t.f.number(counting.counted.elements)}`, bold: true }, ...ofAll(counting.counted.elements, counting.counted.volume)],
    ...counting.notCounted.map((count) => [`${t.m.notCountedReasons[count.reason]}: ${t.f.number(count.elements)}`, ...ofAll(count.elements, count.volume)]),
  ]);
}

export function financialSection(layout: PassportLayout, data: BuildingPassportData, number: number): void {
  const { t } = layout;
  const { financial, building } = data;
  layout.sectionHeading(number, t.m.financial, 200);
  layout.paragraph(t.m.financialExplanation);
  layout.tiles([
    { label: t.m.currentValue, value: t.f.euro(financial.currentValue) },
    { label: t.m.ncwValue, value: t.f.euro(financial.ncwValue) },
  ]);
  const rank = (id: string) => {
    const index = LEVEL_ORDER.indexOf(id.toLowerCase());
    return index === -1 ? LEVEL_ORDER.length : index;
  };
  const levels = [...financial.ncwValuePerBuildingLevel].sort((a, b) => rank(a.id) - rank(b.id));
  layout.subheading(t.m.ncwPerLayer, 120);
  layout.table(
    figureColumns(t.m.layer, [t.m.lifespan, 110], [t.m.ncwValue, 130]),
    // The years the figures discounted over (server/calc, decisions §7), so the table explains the values beside it.
    levels.map((level) => [
      { text: t.level(level.id, level.label), swatch: layerColour(level.id) },
      t.f.years(financialYears(building, layerOf(level.id))),
      euroCell(t, level.value),
    ]),
    { total: [t.m.total, '', euroCell(t, financial.ncwValue)] },
  );
}

