/** The portfolio passport's pages: title page with the buildings, their CI scores as a chart and a table, and their data completeness. */
import { type ChartImage } from './charts';
import { MISSING } from './i18n';
import type { PortfolioPassportData } from './passport-data';
import type { PassportLayout } from './pdf-layout';
import { euroCell, figureColumns, type Cell } from './pdf-layout';
import { PALETTE } from './theme';
import { coverBand, coverFooter, scoreText, sum } from './pdf-cover';

/** The mass-weighted mean of the corrected CI scores over buildings with a score and a mass; null when there is none. */
export function portfolioAverageCi(buildings: PortfolioPassportData['buildings']): number | null {
  let weighted = 0;
  let mass = 0;
  for (const building of buildings) {
    const score = building.circular.madasterCiScore;
    if (score !== null && building.mass !== null && building.mass > 0) {
      weighted += score * building.mass;
      mass += building.mass;
    }
  }
  return mass > 0 ? weighted / mass : null;
}

export function portfolioTitlePage(layout: PassportLayout, data: PortfolioPassportData): void {
  const { t } = layout;
  const { buildings } = data;
  coverBand(layout, t.m.portfolioPassport, data.portfolio.name, null, data.portfolio.logo);
  layout.subheading(t.m.keyFigures, 70);
  const known = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
  const areas = known(buildings.map((building) => building.grossSurfaceArea));
  const masses = known(buildings.map((building) => building.mass));
  layout.tiles([
    { label: t.m.buildings, value: t.f.number(buildings.length) },
    { label: t.m.grossFloorArea, value: t.f.area(areas.length > 0 ? sum(areas) : null) },
    { label: t.m.totalMass, value: t.f.mass(masses.length > 0 ? sum(masses) : null) },
    { label: t.m.averageCi, value: scoreText(portfolioAverageCi(buildings), t) },
  ]);
  coverBuildingList(layout, data);
  coverFooter(layout, data.generatedAt);
}

/** The portfolio's buildings (name, city, floor area) on the cover, as many as fit above the cover's foot. */
function coverBuildingList(layout: PassportLayout, data: PortfolioPassportData): void {
  const { t } = layout;
  if (data.buildings.length === 0) return;
  const room = layout.remaining - 110; // the issue line and disclaimer below
  const rowHeight = 19;
  const fitting = Math.max(0, Math.floor((room - 24 - 20) / rowHeight));
  if (fitting < 2) return;
  const shown = data.buildings.length <= fitting ? data.buildings : data.buildings.slice(0, fitting - 1);
  const rows: Array<Array<string | Cell>> = shown.map((building) => [
    { text: building.name, bold: true },
    building.city?.trim() || MISSING,
    t.f.area(building.grossSurfaceArea),
  ]);
  if (shown.length < data.buildings.length) rows.push([{ text: `+ ${t.f.number(data.buildings.length - shown.length)}`, colour: PALETTE.muted }, '', '']);
  layout.subheading(t.m.buildings, rowHeight * 2);
  layout.table(
    [
      { header: t.m.building, width: 0 },
      { header: t.m.city, width: 150 },
      { header: t.m.grossFloorArea, width: 110, align: 'right' },
    ],
    rows,
  );
}

export function portfolioOverview(layout: PassportLayout, data: PortfolioPassportData, chart: ChartImage | null): void {
  const { t } = layout;
  layout.sectionHeading(1, t.m.portfolioOverview, chart ? chart.height + 30 : 80);
  layout.paragraph(t.m.portfolioExplanation);
  if (chart) {
    layout.subheading(t.m.ciPerBuilding, chart.height);
    layout.chart(chart);
  }
  layout.table(
    [
      { header: t.m.building, width: 0 },
      { header: t.m.city, width: 68 },
      { header: t.m.grossFloorArea, width: 72, align: 'right' },
      { header: t.m.mass, width: 60, align: 'right' },
      { header: t.m.ciScoreBuilding, width: 60, align: 'right' },
      { header: t.m.ciScoreShort, width: 56, align: 'right' },
      { header: t.m.currentValue, width: 62, align: 'right' },
    ],
    data.buildings.map((building) => [
      { text: building.name, bold: true },
      building.city?.trim() || MISSING,
      t.f.area(building.grossSurfaceArea),
      t.f.mass(building.mass),
      t.f.percent(building.circular.ciScoreBuilding),
      { text: scoreText(building.circular.madasterCiScore, t), bold: true },
      euroCell(t, building.currentValue),
    ]),
  );
}

export function portfolioValidation(layout: PassportLayout, data: PortfolioPassportData): void {
  const { t } = layout;
  layout.sectionHeading(2, t.m.portfolioValidation, 120);
  layout.paragraph(t.m.validationExplanation);
  layout.table(
    figureColumns(t.m.building, [t.m.classificationAssigned, 78], [t.m.materialSpecified, 78], [t.m.elementsMapped, 78], [t.m.knownMass, 78]),
    data.buildings.map((building) => {
      const v = building.validation;
      return [
        { text: building.name, bold: true },
        t.f.percent(v.percentageClassificationAssignedByNumber),
        t.f.percent(v.percentageMaterialSpecifiedByNumber),
        t.f.percent(v.percentageElementsMappedByNumber),
        t.f.percent(v.percentageElementsWithKnownMassByNumber),
      ];
    }),
  );
}

