// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { NConfigProvider, NDatePicker } from 'naive-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { h } from 'vue';
import { createAppI18n, SUPPORTED_LOCALES, type AppLocale } from '../../../../renderer/i18n';
import { datePattern } from '../../../../renderer/i18n/date-formats';
import { NAIVE_LOCALES } from '../../../../renderer/i18n/naive-locales';

const MOMENT = new Date(2026, 2, 7, 9, 5);

afterEach(() => {
  document.body.innerHTML = '';
});

/** What a date picker of the app shows for MOMENT in this language. */
function pickerText(locale: AppLocale): string {
  const wrapper = mount(
    () =>
      h(NConfigProvider, { locale: NAIVE_LOCALES[locale].locale, dateLocale: NAIVE_LOCALES[locale].date }, () =>
        h(NDatePicker, { value: MOMENT.getTime(), type: 'date', format: datePattern(locale) }),
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
    expect(pickerText(locale)).toBe(d(MOMENT, 'date'));
  });

  it('are numeric, in each language’s order', () => {
    const shown = Object.fromEntries(SUPPORTED_LOCALES.map((locale) => [locale, createAppI18n(locale).global.d(MOMENT, 'date')]));
    expect(shown).toEqual({ en: '03/07/2026', nl: '07-03-2026', de: '07.03.2026', fr: '07/03/2026', it: '07/03/2026', es: '07/03/2026' });
  });
});
