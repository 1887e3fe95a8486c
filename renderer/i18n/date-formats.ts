/**
 * The one way the app writes a date, and a date with its time, in each language: numeric, in the order and with the
 * separators Intl gives that language. `d()` shows dates with these options, and the date fields take the same
 * pattern, so a date reads the same in a list and in the field that edits it.
 */

/** Intl's options of a date (vue-i18n's `date` format). */
export const DATE_OPTIONS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
/** Intl's options of a date with its time (vue-i18n's `dateTime` format). */
export const DATE_TIME_OPTIONS = { ...DATE_OPTIONS, hour: '2-digit', minute: '2-digit' } as const;

// A day and a month that each have two digits, so every part shows which token it is.
const SAMPLE = new Date(2001, 10, 22);

/** The date-fns pattern of a date in this language, for the date fields' pickers (`format`). */
export function datePattern(locale: string): string {
  return new Intl.DateTimeFormat(locale, DATE_OPTIONS)
    .formatToParts(SAMPLE)
    .map((part) => {
      switch (part.type) {
        case 'day':
          return 'dd';
        case 'month':
          return 'MM';
        case 'year':
          return 'yyyy';
        case 'literal':
          // Intl may space with a narrow no-break space, which a user cannot type back into a picker.
          return `'${part.value.replace(/\s/g, ' ')}'`;
        default:
          return '';
      }
    })
    .join('');
}
