/**
 * The languages of the app and the vue-i18n instance. English is the schema (`en.ts`); every other language is typed
 * against it, and a test fails on any missing or extra key or a changed placeholder. Numbers and dates are formatted
 * by Intl for the chosen language through vue-i18n's `n()` and `d()`; dates in one format per language (`date-formats.ts`).
 */
import { createI18n } from 'vue-i18n';
import { DATE_OPTIONS, DATE_TIME_OPTIONS } from './date-formats';
import { de } from './de';
import { en, type Messages } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { nl } from './nl';

/** The languages of the app, in the order the language menu lists them. */
export const SUPPORTED_LOCALES = ['en', 'nl', 'de', 'fr', 'it', 'es'] as const;
/** A language of the app. */
export type AppLocale = (typeof SUPPORTED_LOCALES)[number];

/** Each language's name in that language, for the language menu. */
export const LOCALE_NAMES: Record<AppLocale, string> = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
};

/** The texts of every language. */
export const MESSAGES: Record<AppLocale, Messages> = { en, nl, de, fr, it, es };

/** Whether a value names a language of the app. */
export function isAppLocale(value: unknown): value is AppLocale {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** The first of the browser's preferred languages the app speaks (`de-CH` → `de`), else English. */
export function localeFromLanguages(languages: readonly string[]): AppLocale {
  for (const language of languages) {
    const primary = language.toLowerCase().split('-')[0];
    if (isAppLocale(primary)) return primary;
  }
  return 'en';
}

const numberFormat = {
  integer: { maximumFractionDigits: 0 },
  decimal: { maximumFractionDigits: 1 },
  quantity: { maximumFractionDigits: 3 },
  coordinate: { minimumFractionDigits: 5, maximumFractionDigits: 5 },
} as const;

const datetimeFormat = { date: DATE_OPTIONS, dateTime: DATE_TIME_OPTIONS } as const;

function perLocale<T>(value: T): Record<AppLocale, T> {
  return { en: value, nl: value, de: value, fr: value, it: value, es: value };
}

/** Creates the app's i18n (Composition API only) speaking `locale`, with English as the fallback. */
export function createAppI18n(locale: AppLocale) {
  return createI18n<[Messages], AppLocale, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: MESSAGES,
    numberFormats: perLocale(numberFormat),
    datetimeFormats: perLocale(datetimeFormat),
  });
}

/** The app's i18n instance type. */
export type AppI18n = ReturnType<typeof createAppI18n>;
