/**
 * Text that a spreadsheet would run as a formula when it opens a CSV file (`=HYPERLINK(…)`, `+1+1`, `@SUM(…)`) is
 * written with an apostrophe before it, as spreadsheets themselves mark text; the importer reads such a cell without
 * the apostrophe, so an exported CSV imports with its texts as they were. Numbers (`-1.5`) are never guarded.
 */

/** Whether a text would be read as a formula: it starts with = + - @, a tab or a carriage return and is no number. */
function startsFormula(text: string): boolean {
  return /^[=+\-@\t\r]/u.test(text) && Number.isNaN(Number(text));
}

/** The text as a CSV file holds it: with an apostrophe before it when it would start a formula. */
export function guardCsvText(text: string): string {
  return startsFormula(text) ? `'${text}` : text;
}

/** A CSV cell's text as it was before {@link guardCsvText}; any other text unchanged. */
export function unguardCsvText(cell: string): string {
  return cell.startsWith("'") && startsFormula(cell.slice(1)) ? cell.slice(1) : cell;
}
