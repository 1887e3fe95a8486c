/**
 * The words of each building process phase that an element's phase lookups are matched with (decisions §9), in the
 * order the phases are tried: an element whose lookups name a demolition is a demolition even if they also say new
 * or existing ("Existing, to be demolished"). The server's refinement matches them (`server/refine/phase.ts`); the
 * app offers them where a phase is typed.
 */
import type { PhaseName } from './api/enums';

export const PHASE_WORDS: readonly (readonly [PhaseName, readonly string[]])[] = [
  ['Demolition', ['demolition', 'to be demolished', 'sloop', 'rückbau']],
  ['New', ['new', 'nieuw', 'neu', 'einbau']],
  ['Existing', ['existing', 'bestaand', 'casco', 'rohbau']],
];
