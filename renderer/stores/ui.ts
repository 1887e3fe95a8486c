/**
 * Look and language of the app: the theme the user chose (light, dark or the system's) and the language, both kept
 * in localStorage so they survive restarts.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { isAppLocale, localeFromLanguages, type AppLocale } from '../i18n';

/** The theme the user chose. */
export type ThemePreference = 'light' | 'dark' | 'system';
/** The theme the app shows. */
export type Theme = 'light' | 'dark';

/** The theme choices, in the order settings lists them. */
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

/**
 * The theme button's next choice: from the system's theme to the other look, then to the system's look chosen
 * explicitly, then back to following the system; so the first click always changes what the user sees.
 */
export function nextThemePreference(current: ThemePreference, systemTheme: Theme): ThemePreference {
  const other: Theme = systemTheme === 'dark' ? 'light' : 'dark';
  if (current === 'system') return other;
  if (current === other) return systemTheme;
  return 'system';
}

/** Where the chosen theme is kept. */
export const THEME_STORAGE_KEY = 'circularity-desk:theme';
/** Where the chosen language is kept. */
export const LOCALE_STORAGE_KEY = 'circularity-desk:locale';

function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage can be disabled or full; the choice then lasts for this session only.
  }
}

/** Theme and language. */
export const useUiStore = defineStore('ui', () => {
  const storedTheme = readStored(THEME_STORAGE_KEY);
  const themePreference = ref<ThemePreference>(isThemePreference(storedTheme) ? storedTheme : 'system');

  const darkQuery = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : undefined;
  const systemPrefersDark = ref(darkQuery?.matches ?? false);
  darkQuery?.addEventListener('change', (event) => {
    systemPrefersDark.value = event.matches;
  });

  const theme = computed<Theme>(() => {
    if (themePreference.value === 'system') return systemPrefersDark.value ? 'dark' : 'light';
    return themePreference.value;
  });

  const storedLocale = readStored(LOCALE_STORAGE_KEY);
  const locale = ref<AppLocale>(isAppLocale(storedLocale) ? storedLocale : localeFromLanguages(navigator.languages ?? []));

  function setThemePreference(preference: ThemePreference): void {
    themePreference.value = preference;
    writeStored(THEME_STORAGE_KEY, preference);
  }

  function cycleTheme(): void {
    setThemePreference(nextThemePreference(themePreference.value, systemPrefersDark.value ? 'dark' : 'light'));
  }

  function setLocale(next: AppLocale): void {
    locale.value = next;
    writeStored(LOCALE_STORAGE_KEY, next);
  }

  return { themePreference, theme, locale, setThemePreference, cycleTheme, setLocale };
});
