import { describe, expect, it } from 'vitest';
import { BuildingLevel, Phase } from '../../../../shared/api';
import { PASSPORT_MESSAGES, passportLanguageFromAcceptLanguage, passportText } from '../../../../server/passports/i18n';
import { PASSPORT_LANGUAGES } from '../../../../server/passports/passport-data';

/** The string labels of a language (functions called with sample arguments), keyed by message name. */
function labels(language: (typeof PASSPORT_LANGUAGES)[number]): Map<string, string> {
  const m = PASSPORT_MESSAGES[language];
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(m)) {
    if (typeof value === 'string') result.set(key, value);
    else if (typeof value === 'function') result.set(key, String((value as (...a: unknown[]) => string)(3, 7)));
    else for (const [inner, text] of Object.entries(value as Record<string, string>)) result.set(`${key}.${inner}`, text);
  }
  return result;
}

describe('passport messages', () => {
  it('are real translations: few labels equal the English ones, and those are international words', () => {
    const english = labels('en');
    // Words that are the same in the language itself (ID, Total, Phase, Type, Site, Structure, units, …).
    const international = new Set(['locale', 'elementId', 'areaUnitLabel', 'total', 'phase', 'typeName', 'phases', 'validation', 'corrections', 'name', 'elementName', 'volumeM3', 'address', 'levels.26a9ccae-ca9d-4cf0-9683-503321791978', 'levels.9804b68f-25b5-4224-a408-1eca54aaa5bc', 'familyNames.metal', 'pageOf']);
    for (const language of PASSPORT_LANGUAGES.filter((l) => l !== 'en')) {
      const same = [...labels(language)].filter(([key, text]) => english.get(key) === text && !international.has(key)).map(([key]) => key);
      expect(same, `${language} labels identical to English`).toEqual([]);
    }
  });

  it('name every building level, phase and material family in every language', () => {
    for (const language of PASSPORT_LANGUAGES) {
      const t = passportText(language);
      for (const level of Object.values(BuildingLevel)) expect(t.level(level.id)).not.toBe(level.id);
      for (const phase of Object.values(Phase)) expect(t.phase(phase.id)).not.toBe(phase.id);
      expect(t.family('STONE')).toBe(PASSPORT_MESSAGES[language].familyNames.stone);
    }
    expect(passportText('nl').level('00000000-0000-0000-0000-000000000000', 'Custom')).toBe('Custom');
    expect(passportText('de').family('ceramics')).toBe('ceramics');
  });

  it('give Excel sheet names Excel accepts (≤ 31 characters, none of []:*?/\\)', () => {
    for (const language of PASSPORT_LANGUAGES) {
      const m = PASSPORT_MESSAGES[language];
      const names = [m.sheetSummary, m.sheetLayers, m.sheetFamilies, m.sheetElements];
      expect(new Set(names).size).toBe(4);
      for (const name of names) {
        expect(name.length).toBeLessThanOrEqual(31);
        expect(name).not.toMatch(/[[\]:*?/\\]/);
      }
    }
  });
});

describe('passport formatting (Intl, CLDR)', () => {
  it('formats the CI score per locale as the app does: 49% in nl and it, 49% in en, 49 % with a no-break space in de, fr, es', () => {
    const score = 0.4863;
    expect(passportText('nl').f.percent(score)).toBe('49%');
    expect(passportText('en').f.percent(score)).toBe('49%');
    expect(passportText('it').f.percent(score)).toBe('49%');
    expect(passportText('de').f.percent(score)).toBe('49\u00a0%');
    expect(passportText('fr').f.percent(score)).toBe('49\u00a0%');
    expect(passportText('es').f.percent(score)).toBe('49\u00a0%');
  });

  it('writes a share below 1 % with one decimal, so it never reads as 0 %, and ticks with the decimals asked for', () => {
    expect(passportText('nl').f.percent(0.003)).toBe('0,3%');
    expect(passportText('en').f.percent(0.0096)).toBe('1%');
    expect(passportText('en').f.percent(0)).toBe('0%');
    expect(passportText('en').f.percent(0.5, 0)).toBe('50%');
  });

  it('formats mass, area, money, years and dates per locale, and prints missing values as —', () => {
    const nl = passportText('nl').f;
    const en = passportText('en').f;
    const de = passportText('de').f;
    expect(nl.mass(1_040_000)).toBe('1.040,0\u00a0t');
    expect(en.mass(1_040_000)).toBe('1,040.0\u00a0t');
    expect(en.mass(440.4)).toBe('440\u00a0kg');
    expect(nl.area(6240.5)).toBe('6.241\u00a0m²');
    expect(nl.euro(-3138.53)).toBe('€\u00a0-3.139');
    expect(en.euro(-3138.53)).toBe('-€3,139');
    expect(de.euro(5512.4)).toBe('5.512\u00a0€');
    expect(nl.years(50)).toBe('50 jaar');
    expect(de.years(50)).toBe('50 Jahre');
    expect(nl.date('2019-06-28T00:00:00Z')).toBe('28 juni 2019');
    expect(en.date(new Date('2025-05-12T09:30:00Z'))).toBe('12 May 2025');
    expect(de.date('2025-05-12T23:30:00Z')).toBe('12. Mai 2025'); // read in UTC, whatever the server's zone
    expect(nl.country('NL')).toBe('Nederland');
    expect(de.country('nl')).toBe('Niederlande');
    expect(en.country('Nederland')).toBe('Nederland');
    for (const missing of [null, undefined, Number.NaN]) {
      expect(en.percent(missing)).toBe('—');
      expect(en.mass(missing)).toBe('—');
      expect(en.euro(missing)).toBe('—');
    }
    expect(en.date('not a date')).toBe('—');
    expect(en.percent(-0.0001)).toBe('0%'); // never "-0%"
    expect(nl.euro(-0.3)).toBe('€\u00a00');
  });
});

describe('passportLanguageFromAcceptLanguage', () => {
  it.each([
    ['nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7', 'nl'],
    ['en-GB', 'en'],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['pt-BR,es;q=0.8', 'es'],
    ['en;q=0.5, de;q=0.9', 'de'],
    ['IT', 'it'],
    ['nl;q=0, de', 'de'],
    ['ja, zh', 'en'],
    ['*', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['de;q=abc, es', 'es'],
  ])('%s → %s', (header, language) => {
    expect(passportLanguageFromAcceptLanguage(header)).toBe(language);
  });
});
