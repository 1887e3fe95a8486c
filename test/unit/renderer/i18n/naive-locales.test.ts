import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../../../renderer/i18n';
import { NAIVE_LOCALES } from '../../../../renderer/i18n/naive-locales';

/** Every text of a locale whose key names a placeholder, with its path. */
function placeholders(value: unknown, path = ''): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    /placeholder/i.test(key) && typeof inner === 'string' ? [[`${path}${key}`, inner] as [string, unknown]] : placeholders(inner, `${path}${key}.`),
  );
}

describe('naive-ui’s texts in the app', () => {
  it.each(SUPPORTED_LOCALES)('carry no placeholder of the library in %s (no "Please Input", no "Please Select")', (locale) => {
    const found = placeholders(NAIVE_LOCALES[locale].locale);
    expect(found.map(([path]) => path)).toEqual(expect.arrayContaining(['Input.placeholder', 'InputNumber.placeholder', 'Select.placeholder', 'DatePicker.datePlaceholder']));
    expect(found.filter(([, text]) => text !== '')).toEqual([]);
  });

  it('keep the library’s other texts in the user’s language', () => {
    expect(NAIVE_LOCALES.nl.locale.Popconfirm.negativeText).toBe('Annuleer');
    expect(NAIVE_LOCALES.de.locale.name).toBe('de-DE');
  });
});
