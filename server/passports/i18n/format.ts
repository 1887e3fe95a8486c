/**
 * The number and date formatting of a passport language (Intl, CLDR data: `49%` in nl and en, `49 %` in de/fr/es,
 * `0,3%` below 1 %). Missing values print as `—`.
 */
import { formatPercent } from '../../../shared/percent';

/** What a missing value prints as, in every language. */
export const MISSING = '—';

/** Formatting of numbers, units and dates in one language; null, undefined and non-finite values print as `—`. */
export class PassportFormat {
  private readonly numberFormats = new Map<string, Intl.NumberFormat>();
  private readonly longDate: Intl.DateTimeFormat;
  private readonly regionNames: Intl.DisplayNames;

  constructor(readonly locale: string) {
    this.longDate = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    this.regionNames = new Intl.DisplayNames([locale], { type: 'region' });
  }

  private format(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
    let format = this.numberFormats.get(key);
    if (format === undefined) {
      format = new Intl.NumberFormat(this.locale, options);
      this.numberFormats.set(key, format);
    }
    return format;
  }

  /** A plain number with exactly `fractionDigits` decimals (`-0` prints as `0`). */
  number(value: number | null | undefined, fractionDigits = 0): string {
    if (!isNumber(value)) return MISSING;
    const rounded = roundTo(value, fractionDigits);
    return this.format(`n${fractionDigits}`, {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }).format(rounded);
  }

  /**
   * A fraction as a percentage, as the app shows it (`shared/percent.ts`): 0.4863 → `49%` (en, nl), `49 %` (de, fr,
   * es), 0.003 → `0,3%` (nl); with `fractionDigits`, exactly that many decimals (axis ticks).
   */
  percent(fraction: number | null | undefined, fractionDigits?: number): string {
    if (!isNumber(fraction)) return MISSING;
    if (fractionDigits === undefined) return formatPercent(fraction, this.locale);
    const rounded = roundTo(fraction * 100, fractionDigits) / 100;
    return this.format(`p${fractionDigits}`, {
      style: 'percent',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }).format(rounded);
  }

  /** Kilograms as tonnes with one decimal from 1 t on, else as whole kilograms. */
  mass(kilograms: number | null | undefined): string {
    if (!isNumber(kilograms)) return MISSING;
    if (Math.abs(kilograms) >= 1000) return `${this.number(kilograms / 1000, 1)}\u00a0t`;
    return `${this.number(kilograms, 0)}\u00a0kg`;
  }

  /** Square metres, whole. */
  area(squareMetres: number | null | undefined): string {
    if (!isNumber(squareMetres)) return MISSING;
    return `${this.number(squareMetres, 0)}\u00a0m²`;
  }

  /** Whole euros in the language's currency layout (`€ 1.234` nl, `€1,234` en, `1.234 €` de). */
  euro(value: number | null | undefined): string {
    if (!isNumber(value)) return MISSING;
    return this.format('eur', { style: 'currency', currency: 'EUR', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(
      roundTo(value, 0),
    );
  }

  /** A whole number of years with its unit (`50 years`, `50 jaar`, `50 Jahre`). */
  years(value: number | null | undefined): string {
    if (!isNumber(value)) return MISSING;
    return this.format('y', { style: 'unit', unit: 'year', unitDisplay: 'long', maximumFractionDigits: 0 }).format(
      roundTo(value, 0),
    );
  }

  /** A date (a Date or an ISO 8601 string) in the language's long form, read in UTC: `12 May 2025`, `12 mei 2025`. */
  date(value: Date | string | null | undefined): string {
    if (value === null || value === undefined) return MISSING;
    const date = typeof value === 'string' ? new Date(value) : value;
    return Number.isNaN(date.getTime()) ? MISSING : this.longDate.format(date);
  }

  /** A country: an ISO 3166 alpha-2 code becomes its name in this language (`NL` → `Nederland`); other text stays. */
  country(value: string | null | undefined): string | null {
    if (!value) return null;
    const trimmed = value.trim();
    if (/^[A-Za-z]{2}$/.test(trimmed)) {
      try {
        return this.regionNames.of(trimmed.toUpperCase()) ?? trimmed;
      } catch {
        return trimmed;
      }
    }
    return trimmed;
  }
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Rounds half away from zero at `digits` decimals and turns `-0` into `0`, so `-0.04` never prints as `-0.0`. */
function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  const rounded = Math.round(Math.abs(value) * factor) / factor;
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}
