/**
 * The NL-SfB 2019 element codes with their Dutch descriptions (972 codes), the classification method the API knows:
 * the server seeds its classification method from them, the app offers them in its classification picker. Generated
 * from the platform's published code list by `npm run seed:generate` (server/store/seed/generate.ts).
 */
import nlSfbJson from './nl-sfb.json' with { type: 'json' };

/** One code; `parentCode` is the next coarser code that exists (`21.25` → `21.2` → `21` → `2-`). */
export interface NlSfbCodeEntry {
  code: string;
  parentCode: string | null;
  name: string;
}

/** Every code of the list, in its order. */
export const NL_SFB_CODES: readonly NlSfbCodeEntry[] = nlSfbJson.codes;
