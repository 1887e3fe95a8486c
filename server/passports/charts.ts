/**
 * The passport charts: ECharts rendered server-side to SVG (`ssr: true`, `renderToSVGString`), then rasterised to PNG by
 * resvg with the DejaVu fonts loaded, so labels render the same on every machine. PDFs embed the PNGs (svg-to-pdfkit
 * drops pie labels, toolchain notes). Every chart is disposed right after rendering.
 */
import { Resvg } from '@resvg/resvg-js';
import { BarChart, GaugeChart, PieChart, type BarSeriesOption, type GaugeSeriesOption, type PieSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  TitleComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TitleComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import PDFDocument from 'pdfkit';
import type { BuildingCircularInformation } from '../../shared/api';
import { CHART_FONT_FAMILY, passportFonts } from './fonts';
import type { PassportText } from './i18n';
import type { PassportFamily, PassportLayer, PortfolioPassportBuilding } from './passport-data';
import { encodeRgbPng } from './png';
import { PALETTE, familyColour, layerColour } from './theme';

echarts.use([BarChart, GaugeChart, PieChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

/**
 * Text widths from the real DejaVu metrics. Without a canvas, ECharts estimates widths from a generic table, which
 * underestimates DejaVu (a wide face): long axis labels were then laid out past the chart's edge. pdfkit's font engine
 * measures them exactly; one document (never piped, never ended) serves as the measuring tool. This is process-wide,
 * which is fine: the server renders ECharts only here.
 */
let measuringDocument: PDFKit.PDFDocument | undefined;
echarts.setPlatformAPI({
  measureText(text: string, font?: string) {
    const fonts = passportFonts();
    measuringDocument ??= new PDFDocument({ autoFirstPage: false });
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(font ?? '')?.[1] ?? 12);
    // zrender takes the width of '国' as the line height; DejaVu has no CJK glyph, so answer DejaVu's line height.
    if (text === '国') return { width: size * 1.2 };
    const bold = /\bbold(er)?\b|\b[6-9]00\b/.test(font ?? '');
    return { width: measuringDocument.font(bold ? fonts.bold : fonts.regular).fontSize(size).widthOfString(text) };
  },
});

/** The options these charts are built from. */
export type PassportChartOption = echarts.ComposeOption<
  BarSeriesOption | GaugeSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TitleComponentOption
>;

/** A rendered chart: the PNG, and the size (CSS px = PDF points) it was laid out at; the PNG has `scale` times as many pixels. */
export interface ChartImage {
  png: Buffer;
  width: number;
  height: number;
}

/** Shrinks a grid so its axis labels stay inside it (ECharts 6's replacement of `containLabel`). */
const CONTAIN_LABELS = { outerBoundsMode: 'same', outerBoundsContain: 'axisLabel', outerBoundsClampWidth: '40%' } as const;

/** Pixels per layout unit in the PNG: 3 keeps text sharp when printed (216 dpi at the layout size). */
const DEFAULT_SCALE = 3;

/** Renders an option to SVG with ECharts SSR (animation off, DejaVu text), disposing the chart afterwards. */
export function renderChartSvg(option: PassportChartOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: CHART_FONT_FAMILY, color: PALETTE.ink },
      ...option,
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/**
 * Rasterises an SVG with resvg on white, fonts from the passport's DejaVu files only (no system font scan: the same
 * output everywhere), as an opaque RGB PNG: pdfkit embeds RGB PNG data as it is, while an alpha channel would make it
 * decode every pixel to split off a soft mask (seconds per passport, and an off-white box around each chart).
 */
export function svgToPng(svg: string, scale = DEFAULT_SCALE): Buffer {
  const fonts = passportFonts();
  const rendered = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: '#ffffff',
    font: {
      fontFiles: [fonts.regular, fonts.bold],
      loadSystemFonts: false,
      defaultFontFamily: CHART_FONT_FAMILY,
      sansSerifFamily: CHART_FONT_FAMILY,
    },
  }).render();
  return encodeRgbPng(rendered.pixels, rendered.width, rendered.height);
}

/** Renders an option straight to a PNG chart image. */
export function renderChart(option: PassportChartOption, width: number, height: number, scale = DEFAULT_SCALE): ChartImage {
  return { png: svgToPng(renderChartSvg(option, width, height), scale), width, height };
}

/** A half-ring gauge of the corrected CI score (0–100 %), the score in its centre; "n/a" when it is unknown. */
export function ciGaugeChart(score: number | null, t: PassportText, width = 220, height = 170): ChartImage {
  const value = score === null ? 0 : clamp(score, 0, 1) * 100;
  const series: GaugeSeriesOption = {
    type: 'gauge',
    startAngle: 200,
    endAngle: -20,
    min: 0,
    max: 100,
    radius: '96%',
    center: ['50%', '64%'],
    progress: { show: score !== null, width: 16, roundCap: false, itemStyle: { color: PALETTE.primary } },
    axisLine: { lineStyle: { width: 16, color: [[1, PALETTE.track]] } },
    pointer: { show: false },
    anchor: { show: false },
    axisTick: { show: false },
    splitLine: { show: false },
    splitNumber: 2,
    axisLabel: {
      distance: -42,
      fontSize: 9,
      color: PALETTE.muted,
      formatter: (tick: number) => t.f.percent(tick / 100, 0),
    },
    title: { show: true, offsetCenter: [0, '28%'], fontSize: 10, color: PALETTE.muted },
    detail: {
      offsetCenter: [0, '-8%'],
      fontSize: score === null ? 22 : 26,
      fontWeight: 'bold',
      color: score === null ? PALETTE.muted : PALETTE.ink,
      formatter: () => (score === null ? t.m.notAvailable : t.f.percent(score)),
    },
    data: [{ value, name: t.m.ciScoreShort }],
  };
  return renderChart({ series: [series] }, width, height);
}

/** Horizontal bars of the three CI phases (and the building score), labelled with their percentages. */
export function phasesChart(circular: BuildingCircularInformation, t: PassportText, width = 480, height = 150): ChartImage {
  const rows = [
    { name: t.m.constructionPhase, value: circular.circularityConstructionPhase, colour: PALETTE.phase[0] },
    { name: t.m.usagePhase, value: circular.circularityUsagePhase, colour: PALETTE.phase[1] },
    { name: t.m.endOfLifePhase, value: circular.circularityEndOfLifePhase, colour: PALETTE.phase[2] },
    { name: t.m.ciScoreBuilding, value: circular.ciScoreBuilding, colour: PALETTE.primary },
  ].reverse(); // ECharts draws the first category at the bottom
  const max = Math.max(100, ...rows.map((row) => (row.value ?? 0) * 100));
  return renderChart(
    {
      grid: { left: 8, right: 64, top: 8, bottom: 4, ...CONTAIN_LABELS },
      xAxis: {
        type: 'value',
        min: 0,
        max: Math.ceil(max / 25) * 25,
        interval: 25,
        axisLabel: { fontSize: 9, color: PALETTE.muted, formatter: (v: number) => t.f.percent(v / 100, 0) },
        splitLine: { lineStyle: { color: PALETTE.rule } },
      },
      yAxis: {
        type: 'category',
        data: rows.map((row) => row.name),
        axisTick: { show: false },
        axisLine: { lineStyle: { color: PALETTE.rule } },
        axisLabel: { fontSize: 10, color: PALETTE.ink },
      },
      series: [
        {
          type: 'bar',
          barWidth: 16,
          data: rows.map((row) => ({ value: row.value === null ? 0 : row.value * 100, itemStyle: { color: row.colour } })),
          label: {
            show: true,
            position: 'right',
            fontSize: 10,
            color: PALETTE.ink,
            formatter: (p: { dataIndex: number }) => t.f.percent(rows[p.dataIndex]?.value ?? null),
          },
        },
      ],
    },
    width,
    height,
  );
}

/**
 * A donut of mass per building layer. Labelled slices carry their name and share; `compact` labels only the share (the
 * table beside the chart names the colours) and leaves slices under 3 % unlabelled so labels never collide.
 */
export function layersChart(
  layers: readonly PassportLayer[],
  t: PassportText,
  width = 480,
  height = 210,
  compact = false,
): ChartImage {
  const total = layers.reduce((sum, layer) => sum + Math.max(0, layer.mass), 0);
  const share = (mass: number) => (total > 0 ? mass / total : 0);
  const data = layers
    .filter((layer) => layer.mass > 0)
    .map((layer) => ({
      name: t.level(layer.id, layer.label),
      value: layer.mass,
      itemStyle: { color: layerColour(layer.id) },
      label: { show: !compact || share(layer.mass) >= 0.03 },
      labelLine: { show: !compact || share(layer.mass) >= 0.03 },
    }));
  return renderChart(
    {
      series: [
        {
          type: 'pie',
          radius: compact ? ['34%', '58%'] : ['42%', '72%'],
          center: ['50%', '50%'],
          avoidLabelOverlap: true,
          itemStyle: { borderColor: '#ffffff', borderWidth: 2 },
          label: {
            show: true,
            fontSize: compact ? 9 : 10,
            color: PALETTE.ink,
            overflow: 'none',
            formatter: (p: { name: string; value: unknown }) =>
              compact ? t.f.percent(share(Number(p.value))) : `${p.name}\n${t.f.percent(share(Number(p.value)))}`,
          },
          labelLine: { length: 6, length2: 8, lineStyle: { color: PALETTE.muted } },
          data,
        },
      ],
    },
    width,
    height,
  );
}

/** Two bar panels side by side: mass (t) and current value (€) per material family. */
export function familiesChart(families: readonly PassportFamily[], t: PassportText, width = 480, height?: number): ChartImage {
  const rows = [...families].reverse(); // first family on top
  const names = rows.map((row) => t.family(row.family));
  const chartHeight = height ?? Math.max(110, 52 + rows.length * 20);
  const panel = (left: string, right: string) => ({ left, right, top: 28, bottom: 4, ...CONTAIN_LABELS });
  return renderChart(
    {
      title: [
        { text: t.m.massTonnes, left: '0%', top: 0, textStyle: { fontSize: 10, fontWeight: 'bold', color: PALETTE.ink } },
        { text: t.m.valueEuro, left: '54%', top: 0, textStyle: { fontSize: 10, fontWeight: 'bold', color: PALETTE.ink } },
      ],
      grid: [panel('0%', '55%'), panel('55%', '3%')],
      xAxis: [
        {
          type: 'value',
          gridIndex: 0,
          axisLabel: { fontSize: 8, color: PALETTE.muted, formatter: (v: number) => t.f.number(v, 0), hideOverlap: true },
          splitNumber: 3,
          splitLine: { lineStyle: { color: PALETTE.rule } },
        },
        {
          type: 'value',
          gridIndex: 1,
          axisLabel: { fontSize: 8, color: PALETTE.muted, formatter: (v: number) => t.f.number(v, 0), hideOverlap: true },
          splitNumber: 3,
          splitLine: { lineStyle: { color: PALETTE.rule } },
        },
      ],
      yAxis: [
        {
          type: 'category',
          gridIndex: 0,
          data: names,
          axisTick: { show: false },
          axisLine: { lineStyle: { color: PALETTE.rule } },
          axisLabel: { fontSize: 9, color: PALETTE.ink },
        },
        {
          type: 'category',
          gridIndex: 1,
          data: names,
          axisTick: { show: false },
          axisLine: { lineStyle: { color: PALETTE.rule } },
          axisLabel: { fontSize: 9, color: PALETTE.ink },
        },
      ],
      series: [
        {
          type: 'bar',
          xAxisIndex: 0,
          yAxisIndex: 0,
          barWidth: 10,
          data: rows.map((row) => ({ value: row.mass / 1000, itemStyle: { color: familyColour(row.family) } })),
        },
        {
          type: 'bar',
          xAxisIndex: 1,
          yAxisIndex: 1,
          barWidth: 10,
          data: rows.map((row) => ({
            value: row.value,
            itemStyle: { color: row.value < 0 ? PALETTE.negative : familyColour(row.family) },
          })),
        },
      ],
    },
    width,
    chartHeight,
  );
}

/** Bars of the building CI score and the corrected CI score of each building of a portfolio. */
export function portfolioCiChart(
  buildings: readonly PortfolioPassportBuilding[],
  t: PassportText,
  width = 480,
  height?: number,
): ChartImage {
  const rows = [...buildings].reverse();
  const chartHeight = height ?? Math.max(140, 70 + rows.length * 34);
  const label = (values: Array<number | null>) => ({
    show: true,
    position: 'right' as const,
    fontSize: 9,
    color: PALETTE.ink,
    formatter: (p: { dataIndex: number }) => t.f.percent(values[p.dataIndex] ?? null),
  });
  const building = rows.map((row) => row.circular.ciScoreBuilding);
  const corrected = rows.map((row) => row.circular.madasterCiScore);
  return renderChart(
    {
      legend: { top: 0, left: 0, itemWidth: 12, itemHeight: 10, textStyle: { fontSize: 9, color: PALETTE.ink } },
      grid: { left: 8, right: 56, top: 28, bottom: 4, ...CONTAIN_LABELS },
      xAxis: {
        type: 'value',
        min: 0,
        max: 100,
        interval: 25,
        axisLabel: { fontSize: 8, color: PALETTE.muted, formatter: (v: number) => t.f.percent(v / 100, 0) },
        splitLine: { lineStyle: { color: PALETTE.rule } },
      },
      yAxis: {
        type: 'category',
        data: rows.map((row) => truncate(row.name, 28)),
        axisTick: { show: false },
        axisLine: { lineStyle: { color: PALETTE.rule } },
        axisLabel: { fontSize: 9, color: PALETTE.ink },
      },
      series: [
        {
          type: 'bar',
          name: t.m.ciScoreBuilding,
          barWidth: 9,
          barGap: '25%',
          itemStyle: { color: PALETTE.phase[1] },
          data: building.map((v) => (v === null ? 0 : clamp(v, 0, 1) * 100)),
          label: label(building),
        },
        {
          type: 'bar',
          name: t.m.ciScoreShort,
          barWidth: 9,
          itemStyle: { color: PALETTE.primary },
          data: corrected.map((v) => (v === null ? 0 : clamp(v, 0, 1) * 100)),
          label: label(corrected),
        },
      ],
    },
    width,
    chartHeight,
  );
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
