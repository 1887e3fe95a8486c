/**
 * How a number field shows a stored number for editing: at most 12 significant digits, so the floating-point rest of a
 * sum or a unit conversion (0.4170000000000001) never shows, and what the user did not touch parses back to the same text.
 */
const SIGNIFICANT_DIGITS = 12;

/** The number as an editable text with a decimal point ('' for none). */
export function editableNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(SIGNIFICANT_DIGITS)));
}
