/**
 * Every word a passport prints, in the six passport languages (one file each, typed against `messages.ts`), and the
 * number and date formatting of each (`format.ts`). Missing values print as `—`.
 */
import { PASSPORT_LANGUAGES, type PassportLanguage } from '../passport-data';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { PassportFormat } from './format';
import { fr } from './fr';
import { it } from './it';
import type { PassportMessages } from './messages';
import { nl } from './nl';

export { MISSING, PassportFormat } from './format';
export type { PassportMessages } from './messages';

/** The messages of every passport language. */
export const PASSPORT_MESSAGES: Readonly<Record<PassportLanguage, PassportMessages>> = { nl, en, de, fr, it, es };

/** The passport language an `Accept-Language` header asks for (highest q first, ties in header order); English otherwise. */
export function passportLanguageFromAcceptLanguage(header: string | null | undefined): PassportLanguage {
  if (!header) return 'en';
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [range = '', ...parameters] = part.trim().split(';');
      const qParameter = parameters.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
      const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
      return { primary: range.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const match = PASSPORT_LANGUAGES.find((language) => language === range.primary);
    if (match) return match;
  }
  return 'en';
}

/** The words and formats of one passport language. */
export interface PassportText {
  language: PassportLanguage;
  m: PassportMessages;
  f: PassportFormat;
  /** A building level's name by its `BuildingLevel` id; an unknown id keeps `fallback`. */
  level(id: string, fallback?: string): string;
  /** A building process phase's name by its `Phase` id; an unknown id keeps `fallback`. */
  phase(id: string, fallback?: string): string;
  /** A material family's name (`stone` → `Steen`); an unknown family keeps its own name. */
  family(name: string): string;
}

const texts = new Map<PassportLanguage, PassportText>();

/** The words and formats of `language` (cached: Intl formatters are costly to build). */
export function passportText(language: PassportLanguage): PassportText {
  let text = texts.get(language);
  if (text === undefined) {
    const m = PASSPORT_MESSAGES[language];
    const levels: Record<string, string> = m.levels;
    const phases: Record<string, string> = m.phaseNames;
    const families: Record<string, string> = m.familyNames;
    text = {
      language,
      m,
      f: new PassportFormat(m.locale),
      level: (id, fallback) => levels[id.toLowerCase()] ?? fallback ?? id,
      phase: (id, fallback) => phases[id.toLowerCase()] ?? fallback ?? id,
      family: (name) => families[name.trim().toLowerCase()] ?? (name.trim() || m.familyNames.unknown),
    };
    texts.set(language, text);
  }
  return text;
}
