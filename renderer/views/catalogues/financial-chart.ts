/**
 * The chart of an item's financial values: one line per currency and unit (prices per tonne and per kg do not share an
 * axis meaningfully, but a user keeps them apart anyway), over time. Numbers and dates are formatted by the caller, in
 * the user's language.
 */
import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { PriceUnit } from '../../../shared/api/enums';
import type { MaterialFinancialValue } from '../../../shared/api/schemas';
import type { ChartPalette } from '../../components/charts';

const DAY = 24 * 60 * 60 * 1000;

/** The options of the chart. */
export type FinancialChartOption = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** How the chart writes what it shows. */
export interface ChartFormat {
  number: (value: number) => string;
  date: (time: number) => string;
  /** A series' name: "EUR per tonne". */
  series: (currency: string, unit: PriceUnit) => string;
}

/** The series of a list of values: per currency and unit, each sorted by date; values without a valid date are left out. */
export function priceSeries(values: readonly MaterialFinancialValue[], format: Pick<ChartFormat, 'series'>): Array<{ name: string; points: Array<[number, number]> }> {
  const series = new Map<string, { name: string; points: Array<[number, number]> }>();
  for (const value of values) {
    const time = Date.parse(value.valueDate);
    if (Number.isNaN(time) || !Number.isFinite(value.value)) continue;
    const key = `${value.currency.toUpperCase()}\u0000${value.unit}`;
    let entry = series.get(key);
    if (entry === undefined) {
      entry = { name: format.series(value.currency.toUpperCase(), value.unit), points: [] };
      series.set(key, entry);
    }
    entry.points.push([time, value.value]);
  }
  for (const entry of series.values()) entry.points.sort((a, b) => a[0] - b[0]);
  return [...series.values()];
}

/** The chart's options in the colours of the app's theme; its background stays the page's. */
export function financialChartOption(values: readonly MaterialFinancialValue[], format: ChartFormat, palette: ChartPalette): FinancialChartOption {
  const series = priceSeries(values, format);
  const axisLine = { lineStyle: { color: palette.gridLine } };
  return {
    backgroundColor: 'transparent',
    animation: false,
    textStyle: { color: palette.text },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0, type: 'scroll', textStyle: { color: palette.text } },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? format.number(value) : String(value ?? '')),
    },
    xAxis: {
      type: 'time',
      // Prices are dated by the day: ticks closer than that would repeat a date.
      minInterval: DAY,
      axisLine,
      axisLabel: { color: palette.mutedText, formatter: (time: number) => format.date(time), hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      scale: true,
      splitLine: { lineStyle: { color: palette.gridLine } },
      axisLabel: { color: palette.mutedText, formatter: (value: number) => format.number(value), hideOverlap: true },
    },
    series: series.map((entry) => ({
      type: 'line',
      name: entry.name,
      data: entry.points,
      showSymbol: true,
      symbolSize: 7,
      step: 'end',
    })),
  };
}
