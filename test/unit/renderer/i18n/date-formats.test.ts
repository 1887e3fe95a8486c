// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { NConfigProvider, NDatePicker } from 'naive-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { h } from 'vue';
import { createAppI18n, SUPPORTED_LOCALES, type AppLocale } from '../../../../renderer/i18n';
import { datePattern, dateTimePattern } from '../../../../renderer/i18n/date-formats';
import { NAIVE_LOCALES } from '../../../../renderer/i18n/naive-locales';

const MOMENT = new Date(2026, 2, 7, 9, 5);

afterEach(() => {
  document.body.innerHTML = '';
});

/** A text with every space a plain one: Intl may write a narrow no-break space before AM/PM. */
const spaced = (text: string): string => text.replace(/\s/g, ' ');

/** What a date picker of the app shows for MOMENT in this language. */
function pickerText(locale: AppLocale, type: 'date' | 'datetime'): string {
  const wrapper = mount(
    () =>
      h(NConfigProvider, { locale: NAIVE_LOCALES[locale].locale, dateLocale: NAIVE_LOCALES[locale].date }, () =>
        h(NDatePicker, { value: MOMENT.getTime(), type, format: type === 'date' ? datePattern(locale) : dateTimePattern(locale) }),
      ),
    { attachTo: document.body },
  );
  const text = wrapper.find('input').element.value;
  wrapper.unmount();
  return text;
}

describe('dates', () => {
  it.each(SUPPORTED_LOCALES)('read the same in %s in a list as in the date picker that edits them', (locale) => {
    const { d } = createAppI18n(locale).global;
    expect(pickerText(locale, 'date')).toBe(d(MOMENT, 'date'));
    expect(pickerText(locale, 'datetime')).toBe(spaced(d(MOMENT, 'dateTime')));
  });

  it('are numeric, in each language’s order', () => {
    const shown = Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, createAppI18n(locale).global.d(MOMENT, 'date')]));
    expect(shown).toEqual({ en: '03/07/2026', nl: '07-03-2026', de: '07.03.2026', fr: '07/03/2026', it: '07/03/2026', es: '07/03/2026' });
  });
});
