/**
 * The one way the app writes a date, and a date with its time, in each language: numeric, in the order and with the
 * separators Intl gives that language. `d()` shows dates with these options, and the date pickers take the same
 * pattern, so a date reads the same in a list and in the field that edits it.
 */

/** Intl's options of a date (vue-i18n's `date` format). */
export const DATE_OPTIONS = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
/** Intl's options of a date with its time (vue-i18n's `dateTime` format). */
export const DATE_TIME_OPTIONS = { ...DATE_OPTIONS, hour: '2-digit', minute: '2-digit' } as const;

// A day, month and hour that each have two digits, so every part shows which token it is.
const SAMPLE = new Date(2001, 10, 22, 14, 35);

function patternOf(locale: string, options: Intl.DateTimeFormatOptions): string {
  const format = new Intl.DateTimeFormat(locale, options);
  const twelveHours = format.resolvedOptions().hour12 === true;
  return format
    .formatToParts(SAMPLE)
    .map((part) => {
      switch (part.type) {
        case 'day':
          return 'dd';
        case 'month':
          return 'MM';
        case 'year':
          return 'yyyy';
        case 'hour':
          return twelveHours ? 'hh' : 'HH';
        case 'minute':
          return 'mm';
        case 'dayPeriod':
          return 'a';
        case 'literal':
          // Intl may space with a narrow no-break space, which a user cannot type back into a picker.
          return `'${part.value.replace(/\s/g, ' ')}'`;
        default:
          return '';
      }
    })
    .join('');
}

/** The date-fns pattern of a date in this language, for naive-ui's date pickers (`format`). */
export function datePattern(locale: string): string {
  return patternOf(locale, DATE_OPTIONS);
}

/** The date-fns pattern of a date with its time in this language, for naive-ui's date and time pickers. */
export function dateTimePattern(locale: string): string {
  return patternOf(locale, DATE_TIME_OPTIONS);
}
