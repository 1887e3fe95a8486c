/**
 * A day typed into a date field, read as the language's numeric pattern (`datePattern`, such as `MM/dd/yyyy` or
 * `dd-MM-yyyy`, with or without leading zeros) or as an ISO 8601 date (`2019-05-01`) in every language, so a date
 * copied from a spreadsheet or a document is taken as it is. Pure: no DOM.
 */

/** The ISO 8601 pattern of a day, as date-fns writes it. */
export const ISO_DATE_PATTERN = 'yyyy-MM-dd';

type Part = 'day' | 'month' | 'year';

/** A regular expression of a date-fns pattern of days (`dd`, `MM`, `yyyy` and quoted literals) and the order of its parts. */
function readerOf(pattern: string): { expression: RegExp; parts: Part[] } {
  const parts: Part[] = [];
  let source = '';
  for (const token of pattern.match(/'[^']*'|yyyy|MM|dd|./g) ?? []) {
    if (token === 'yyyy') {
      parts.push('year');
      source += '(\\d{4})';
    } else if (token === 'MM' || token === 'dd') {
      parts.push(token === 'MM' ? 'month' : 'day');
      source += '(\\d{1,2})';
    } else {
      source += (token.startsWith("'") ? token.slice(1, -1) : token).replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    }
  }
  return { expression: new RegExp(`^${source}$`), parts };
}

function dayOf(text: string, pattern: string): number | null {
  const { expression, parts } = readerOf(pattern);
  const match = expression.exec(text);
  if (match === null) return null;
  const value: Record<Part, number> = { day: 0, month: 0, year: 0 };
  parts.forEach((part, index) => {
    value[part] = Number(match[index + 1]);
  });
  const date = new Date(value.year, value.month - 1, value.day);
  // 31/02 rolls over into March: such a day does not exist.
  if (date.getFullYear() !== value.year || date.getMonth() !== value.month - 1 || date.getDate() !== value.day) return null;
  return date.getTime();
}

/** The local midnight of the day a text names in `pattern` or as an ISO date; null when it names none. */
export function dayOfTypedText(text: string, pattern: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return dayOf(trimmed, ISO_DATE_PATTERN) ?? dayOf(trimmed, pattern);
}
