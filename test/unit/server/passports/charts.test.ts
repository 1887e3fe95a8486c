import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ciGaugeChart,
  familiesChart,
  layersChart,
  phasesChart,
  portfolioCiChart,
  renderChartSvg,
  type ChartImage,
} from '../../../../server/passports/charts';
import { passportText } from '../../../../server/passports/i18n';
import { encodeRgbPng } from '../../../../server/passports/png';
import { sampleBuildingData, samplePortfolioData } from './sample-data';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width, height and colour type from a PNG's IHDR chunk. */
function pngHeader(png: Buffer) {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colourType: png[25] };
}

/** Checks a rendered chart: a real PNG, three pixels per layout unit, opaque RGB, and more than a blank canvas. */
function expectChart(chart: ChartImage, width: number, height: number) {
  expect(chart.width).toBe(width);
  expect(chart.height).toBe(height);
  const header = pngHeader(chart.png);
  expect(header).toEqual({ width: width * 3, height: height * 3, colourType: 2 });
  expect(chart.png.length).toBeGreaterThan(8_000);
}

describe('passport charts', () => {
  const nl = passportText('nl');
  const data = sampleBuildingData('nl', { image: false, elements: 0 });

  it('render the CI gauge, phases, layers and families as PNGs', () => {
    expectChart(ciGaugeChart(data.circular.madasterCiScore, nl, 200, 150), 200, 150);
    expectChart(ciGaugeChart(null, nl, 200, 150), 200, 150);
    expectChart(phasesChart(data.circular, nl, 480, 128), 480, 128);
    expectChart(layersChart(data.layers, nl, 210, 178, true), 210, 178);
    expectChart(layersChart(data.layers, nl, 480, 210), 480, 210);
    const families = familiesChart(data.families, nl, 480);
    expectChart(families, 480, families.height);
    const portfolio = portfolioCiChart(samplePortfolioData('en').buildings, passportText('en'), 480);
    expectChart(portfolio, 480, portfolio.height);
  });

  it('write their labels in the passport language with the locale number format', () => {
    const svg = renderChartSvg(
      {
        xAxis: { type: 'value' },
        yAxis: { type: 'category', data: [nl.m.constructionPhase] },
        series: [{ type: 'bar', data: [0.3], label: { show: true, formatter: () => nl.f.percent(0.003) } }],
      },
      300,
      100,
    );
    expect(svg).toContain('Bouwfase');
    expect(svg).toContain('0,3%');
    expect(svg).toContain('DejaVu Sans');
    const gauge = renderChartSvg({ series: [] }, 10, 10);
    expect(gauge.startsWith('<svg')).toBe(true);
  });

  it('encode opaque RGB PNGs whose pixels survive the round trip', () => {
    const rgba = Buffer.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255]);
    const png = encodeRgbPng(rgba, 2, 2);
    expect(pngHeader(png)).toEqual({ width: 2, height: 2, colourType: 2 });
    const idat = png.indexOf('IDAT', 0, 'latin1');
    const length = png.readUInt32BE(idat - 4);
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + length));
    expect([...raw]).toEqual([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]);
  });
});
