/**
 * How the building figures read in the user's language: fractions as percentages the way the passports print them
 * (`shared/percent.ts`: whole, one decimal below 1 %), money in euros (the currency of the platform's financial
 * method) without cents, short for a chart's axis ("€180K", "180 k€"), and factors with two decimals.
 */
import { useI18n } from 'vue-i18n';
import { formatPercent } from '../../../shared/percent';

/** Formatters of the figures in the current language. */
export function useFigureFormat(): {
  percent: (fraction: number) => string;
  euro: (value: number) => string;
  euroCompact: (value: number) => string;
  factor: (value: number) => string;
} {
  const { n, locale } = useI18n();
  return {
    percent: (fraction) => formatPercent(fraction, locale.value),
    euro: (value) => n(value, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }),
    euroCompact: (value) => n(value, { style: 'currency', currency: 'EUR', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }),
    factor: (value) => n(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  };
}
