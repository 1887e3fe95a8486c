/**
 * How a fraction reads as a percentage, on the app's screens and in the server's passports alike: whole percents, with
 * one decimal below 1 % so that a small share (0.3 %) never reads as nothing (0 %). Rounded half away from zero, and
 * never "-0 %".
 */

/** The decimals a fraction's percentage is written with: one when it rounds to more than 0 % and less than 1 %. */
export function percentFractionDigits(fraction: number): number {
  const tenths = Math.round(Math.abs(fraction) * 1000);
  return tenths > 0 && tenths < 10 ? 1 : 0;
}

/** The fraction rounded to the digits its percentage is written with, so a formatter has nothing left to round. */
function roundedFraction(fraction: number, digits: number): number {
  const factor = 10 ** digits;
  const percent = Math.round(Math.abs(fraction) * 100 * factor) / factor;
  return percent === 0 ? 0 : (Math.sign(fraction) * percent) / 100;
}

/** A fraction as a percentage in a locale: 0.4863 → `49%` (en), `49 %` (de); 0.003 → `0.3%` (en), `0,3%` (nl). */
export function formatPercent(fraction: number, locale: string): string {
  const digits = percentFractionDigits(fraction);
  return new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    roundedFraction(fraction, digits),
  );
}
