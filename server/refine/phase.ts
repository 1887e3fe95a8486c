/**
 * The building process phase of an element from its phase lookups (decisions §9). Pure: no I/O. See README.md.
 */
import type { PhaseName } from '../../shared/api/enums';
import { PHASE_WORDS } from '../../shared/phase-words';

/**
 * Words this short are found only where a word starts, so that they start compounds ("Neubau", "New construction")
 * without being found inside other words ("renewed", "erneuert"). Longer words are found anywhere, also inside and
 * at the end of compounds ("Nieuwbouw", "Bestaande", "Sloopwerk", "Teilrückbau", "Wiedereinbau").
 */
const SHORT_WORD_LENGTH = 3;

/** A compiled test per phase, in trial order. */
const PHASE_TESTS: readonly (readonly [PhaseName, (text: string) => boolean])[] = PHASE_WORDS.map(([phase, words]) => {
  const anywhere = words.filter((word) => word.length > SHORT_WORD_LENGTH);
  const short = words.filter((word) => word.length <= SHORT_WORD_LENGTH);
  const atWordStart = new RegExp(`(?<![\\p{L}\\p{N}])(?:${short.map(escapeRegExp).join('|')})`, 'u');
  return [
    phase,
    (text: string) => anywhere.some((word) => text.includes(word)) || (short.length > 0 && atWordStart.test(text)),
  ] as const;
});

/** Lower case, composed (NFC: a decomposed "ü" is "ü"), whitespace runs as one space. */
export function normalisePhaseText(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The phase an element's phase lookups name (decisions §9), case-insensitively: Demolition if any lookup names a
 * demolition, else New if any names new, else Existing (also when nothing matches or there are no lookups).
 */
export function phaseOf(lookups: readonly string[]): PhaseName {
  const texts = lookups.map(normalisePhaseText).filter((text) => text !== '');
  for (const [phase, test] of PHASE_TESTS) {
    if (texts.some(test)) return phase;
  }
  return 'Existing';
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
