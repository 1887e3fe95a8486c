// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LOCALE_STORAGE_KEY,
  THEME_STORAGE_KEY,
  nextThemePreference,
  useUiStore,
  type Theme,
  type ThemePreference,
} from '../../../../renderer/stores/ui';

beforeEach(() => {
  window.localStorage.clear();
  setActivePinia(createPinia());
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('nextThemePreference', () => {
  it('goes from the system theme to the other look, then the system look, then back to the system', () => {
    const cycle = (systemTheme: Theme) => {
      const seen: ThemePreference[] = ['system'];
      for (let step = 0; step < 3; step += 1) seen.push(nextThemePreference(seen.at(-1)!, systemTheme));
      return seen;
    };
    expect(cycle('light')).toEqual(['system', 'dark', 'light', 'system']);
    expect(cycle('dark')).toEqual(['system', 'light', 'dark', 'system']);
  });
});

describe('useUiStore', () => {
  it('follows the system until the user chooses, and keeps the choice', () => {
    const ui = useUiStore();
    expect(ui.themePreference).toBe('system');

    ui.cycleTheme();
    const chosen = ui.themePreference;
    expect(chosen).not.toBe('system');
    expect(ui.theme).toBe(chosen);
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe(chosen);

    setActivePinia(createPinia());
    expect(useUiStore().themePreference).toBe(chosen);
  });

  it('starts in the browser language the app speaks, else English, and keeps a chosen one', () => {
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['fr-BE', 'en']);
    expect(useUiStore().locale).toBe('fr');

    setActivePinia(createPinia());
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['ja-JP']);
    const ui = useUiStore();
    expect(ui.locale).toBe('en');

    ui.setLocale('it');
    expect(window.localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('it');
    setActivePinia(createPinia());
    expect(useUiStore().locale).toBe('it');
  });

  it('ignores stored values it does not know', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    window.localStorage.setItem(LOCALE_STORAGE_KEY, 'tlh');
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de']);
    const ui = useUiStore();
    expect([ui.themePreference, ui.locale]).toEqual(['system', 'de']);
  });
});
