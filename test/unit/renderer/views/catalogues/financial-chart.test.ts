import { describe, expect, it } from 'vitest';
import { PriceUnit } from '../../../../../shared/api/enums';
import { chartPalette } from '../../../../../renderer/components/charts';
import { financialChartOption, priceSeries } from '../../../../../renderer/views/catalogues/financial-chart';

const format = {
  number: (value: number) => `n${value}`,
  date: (time: number) => new Date(time).toISOString().slice(0, 10),
  series: (currency: string, unit: PriceUnit) => `${currency}/${unit}`,
};

const values = [
  { value: 3, valueDate: '2024-03-01T00:00:00.000Z', currency: 'eur', unit: PriceUnit.kg },
  { value: 2, valueDate: '2023-03-01T00:00:00.000Z', currency: 'EUR', unit: PriceUnit.kg },
  { value: 900, valueDate: '2023-06-01T00:00:00.000Z', currency: 'EUR', unit: PriceUnit.mt },
  { value: 5, valueDate: 'not a date', currency: 'EUR', unit: PriceUnit.kg },
];

describe('the chart of financial values', () => {
  it('draws one line per currency and unit, in date order, leaving out undated values', () => {
    expect(priceSeries(values, format)).toEqual([
      { name: 'EUR/1', points: [[Date.parse('2023-03-01T00:00:00.000Z'), 2], [Date.parse('2024-03-01T00:00:00.000Z'), 3]] },
      { name: 'EUR/0', points: [[Date.parse('2023-06-01T00:00:00.000Z'), 900]] },
    ]);
  });

  it('writes numbers and dates the caller’s way, in the theme’s colours', () => {
    const option = financialChartOption(values, format, chartPalette('dark'));
    expect(option.series).toHaveLength(2);
    const xAxis = option.xAxis as { type: string; axisLabel: { color: string; formatter: (time: number) => string } };
    const yAxis = option.yAxis as { axisLabel: { formatter: (value: number) => string } };
    expect(xAxis.type).toBe('time');
    expect(xAxis.axisLabel.color).toBe(chartPalette('dark').mutedText);
    expect(xAxis.axisLabel.formatter(Date.parse('2023-06-01T00:00:00.000Z'))).toBe('2023-06-01');
    expect(yAxis.axisLabel.formatter(1.5)).toBe('n1.5');
    expect(option.backgroundColor).toBe('transparent');
  });
});
