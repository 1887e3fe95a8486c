import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAppI18n, MESSAGES, SUPPORTED_LOCALES, localeFromLanguages, type AppLocale } from '../../../../renderer/i18n';
import { en } from '../../../../renderer/i18n/en';

const RENDERER = fileURLToPath(new URL('../../../../renderer/', import.meta.url));

/** Every message of a language tree as `dotted.key → text`. */
function flatten(tree: unknown, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  if (typeof tree !== 'object' || tree === null) return flat;
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if (typeof value === 'string') flat.set(key, value);
    else if (typeof value === 'object' && value !== null) for (const entry of flatten(value, key)) flat.set(...entry);
    else flat.set(key, `<not a text: ${typeof value}>`);
  }
  return flat;
}

/** The placeholders of each plural form of a message: `'{a} | {b}'` → `[['a'], ['b']]`. */
function placeholdersByForm(message: string): string[][] {
  return message.split('|').map((form) => [...form.matchAll(/\{\s*(\w+)\s*\}/g)].map((match) => match[1]!).sort());
}

const english = flatten(en);
const others = SUPPORTED_LOCALES.filter((locale) => locale !== 'en');

describe('the messages of every language', () => {
  it('cover exactly the keys of English', () => {
    const differences: string[] = [];
    for (const locale of others) {
      const keys = flatten(MESSAGES[locale]);
      for (const key of english.keys()) if (!keys.has(key)) differences.push(`${locale} lacks ${key}`);
      for (const key of keys.keys()) if (!english.has(key)) differences.push(`${locale} has ${key}, which en lacks`);
    }
    expect(differences).toEqual([]);
  });

  it('use the same placeholders and plural forms as English', () => {
    const differences: string[] = [];
    for (const locale of others) {
      const messages = flatten(MESSAGES[locale]);
      for (const [key, text] of english) {
        const translated = messages.get(key);
        if (translated === undefined) continue;
        const expected = JSON.stringify(placeholdersByForm(text));
        const actual = JSON.stringify(placeholdersByForm(translated));
        if (expected !== actual) differences.push(`${locale} ${key}: ${actual} instead of ${expected}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('are translations, not copies of English', () => {
    // Names, units and the API version read the same in every language; anything longer than a word should not.
    const copies: string[] = [];
    for (const locale of others) {
      for (const [key, text] of flatten(MESSAGES[locale])) {
        if (text === english.get(key) && text.split(' ').length > 2) copies.push(`${locale} ${key}`);
      }
    }
    expect(copies).toEqual([]);
  });

  it.each(SUPPORTED_LOCALES)('all compile and format in %s', (locale) => {
    const i18n = createAppI18n(locale);
    const named = { name: 'N', count: 3, message: 'M', title: 'T', status: 401, detail: 'D', theme: 'X', url: 'U', version: 'v', command: 'C', running: 1, queued: 2, area: '5', years: '4', type: 'Y' };
    const failures: string[] = [];
    for (const key of flatten(MESSAGES[locale]).keys()) {
      try {
        const text = i18n.global.t(key, named, 3);
        if (text === key || text.includes('{')) failures.push(`${key}: ${text}`);
      } catch (error) {
        failures.push(`${key}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('chooses the plural form by count', () => {
    const i18n = createAppI18n('en');
    const count = (n: number) => i18n.global.t('portfolios.buildingCount', { count: n }, n);
    expect([count(0), count(1), count(7)]).toEqual(['No buildings', 'One building', '7 buildings']);
  });
});

describe('numbers and dates', () => {
  it('are formatted by the conventions of the chosen language', () => {
    const format = (locale: AppLocale) => {
      const { n, d } = createAppI18n(locale).global;
      return [n(12345.67, 'decimal'), d(new Date(Date.UTC(2024, 0, 15, 12)), { year: 'numeric', month: 'long', timeZone: 'UTC' })];
    };
    expect(format('en')).toEqual(['12,345.7', 'January 2024']);
    expect(format('nl')).toEqual(['12.345,7', 'januari 2024']);
    expect(format('de')).toEqual(['12.345,7', 'Januar 2024']);
    expect(format('fr')[0]).toBe('12\u202f345,7');
    expect(format('it')[1]).toBe('gennaio 2024');
    expect(format('es')[1]).toBe('enero de 2024');
  });
});

describe('localeFromLanguages', () => {
  it('takes the first preferred language the app speaks, by its primary subtag, else English', () => {
    expect(localeFromLanguages(['de-CH', 'en-US'])).toBe('de');
    expect(localeFromLanguages(['pt-BR', 'FR'])).toBe('fr');
    expect(localeFromLanguages(['ja'])).toBe('en');
    expect(localeFromLanguages([])).toBe('en');
  });
});

/** The renderer's source files, the messages themselves left out. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === join(RENDERER, 'i18n') ? [] : sourceFiles(path);
    return /\.(ts|vue)$/.test(entry.name) ? [path] : [];
  });
}

/** Every key passed to `t('…')` or `$t('…')` (and `keypath="…"`) in the renderer, with where it is used. */
function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of sourceFiles(RENDERER)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?<![\w.])\$?t\(\s*(['"`])([^'"`]+)\1|keypath="([^"]+)"/g)) {
      used.set(match[2] ?? match[3]!, relative(RENDERER, file));
    }
  }
  return used;
}

describe('the keys the renderer uses', () => {
  const used = usedKeys();

  it('are found by the scan', () => {
    expect(used.size).toBeGreaterThan(100);
    expect(used.get('nav.portfolios')).toBe(join('components', 'AppShell.vue'));
  });

  it('all exist in English', () => {
    const missing = [...used].filter(([key]) => !english.has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('are all the keys English has: none is left unused', () => {
    expect([...english.keys()].filter((key) => !used.has(key))).toEqual([]);
  });
});
