/**
 * The passport PDFs (pdfkit, A4, DejaVu embedded): the building passport — title page, identity, circularity, building
 * layers, material families, validation, financial summary — and the portfolio passport. Charts are PNGs from
 * `charts.ts`, rendered before the document starts so the stream never waits on them.
 */
import type { Writable } from 'node:stream';
import { ciGaugeChart, familiesChart, layersChart, phasesChart, portfolioCiChart } from './charts';
import { passportText } from './i18n';
import type { BuildingPassportData, PortfolioPassportData } from './passport-data';
import { CONTENT_WIDTH, PassportLayout } from './pdf-layout';
import { buildingTitlePage, circularitySection, familiesSection, financialSection, identitySection, LAYER_CHART_WIDTH, layersSection, orderedLayers, validationSection } from './pdf-building';
import { portfolioOverview, portfolioTitlePage, portfolioValidation } from './pdf-portfolio';

/**
 * Writes the building passport PDF in `data.language` to `output` and resolves once `output` has finished. On failure
 * `output` is destroyed with the error and the promise rejects. `data.elements` is not read.
 */
export async function writeBuildingPassportPdf(data: BuildingPassportData, output: Writable): Promise<void> {
  const t = passportText(data.language);
  const layers = orderedLayers(data);
  const families = [...data.families].sort((a, b) => b.mass - a.mass);
  const charts = {
    gauge: ciGaugeChart(data.circular.madasterCiScore, t, 200, 150),
    phases: phasesChart(data.circular, t, CONTENT_WIDTH, 128),
    layers: layers.some((layer) => layer.mass > 0) ? layersChart(layers, t, LAYER_CHART_WIDTH, 178, true) : null,
    families: families.length > 0 ? familiesChart(families, t, CONTENT_WIDTH) : null,
  };
  const layout = new PassportLayout(t, {
    title: `${t.m.materialPassport} – ${data.building.name}`,
    subject: t.m.materialPassport,
    keywords: [t.m.circularity, t.m.layers, t.m.families, t.m.validation].join(', '),
    createdAt: data.generatedAt,
  });
  await layout.writeTo(output, () => {
    buildingTitlePage(layout, data, layers);
    layout.newPage();
    identitySection(layout, data.building);
    circularitySection(layout, data, charts.gauge, charts.phases);
    layersSection(layout, layers, charts.layers);
    familiesSection(layout, families, charts.families);
    validationSection(layout, data.validation, data.counting, 5);
    financialSection(layout, data, 6);
    layout.decoratePages(
      { left: `Circularity Desk · ${t.m.materialPassport}`, right: data.building.name },
      `${t.m.generatedBy(t.f.date(data.generatedAt))} · ${data.building.name}`,
    );
  });
}

/**
 * Writes the portfolio passport PDF in `data.language` to `output`: a title page, the buildings' CI scores as a chart
 * and a table, and their data completeness. Resolves once `output` has finished.
 */
export async function writePortfolioPassportPdf(data: PortfolioPassportData, output: Writable): Promise<void> {
  const t = passportText(data.language);
  const chart = data.buildings.length > 0 ? portfolioCiChart(data.buildings, t, CONTENT_WIDTH) : null;
  const layout = new PassportLayout(t, {
    title: `${t.m.portfolioPassport} – ${data.portfolio.name}`,
    subject: t.m.portfolioPassport,
    keywords: [t.m.circularity, t.m.buildings, t.m.validation].join(', '),
    createdAt: data.generatedAt,
  });
  await layout.writeTo(output, () => {
    portfolioTitlePage(layout, data);
    layout.newPage();
    portfolioOverview(layout, data, chart);
    portfolioValidation(layout, data);
    layout.decoratePages(
      { left: `Circularity Desk · ${t.m.portfolioPassport}`, right: data.portfolio.name },
      `${t.m.generatedBy(t.f.date(data.generatedAt))} · ${data.portfolio.name}`,
    );
  });
}
