/**
 * A split element's parts, recognised by their ids alone (the API's element has no parent field): a layer is
 * `<GlobalId>-L<n>`, a constituent or a material of a list `<GlobalId>-C<n>`, n from 1. An IFC GlobalId is 22
 * characters of 0-9, A-Z, a-z, `_` and `$`, never a '-', so requiring that shape before the suffix keeps the free-text
 * ids of spreadsheets (`W-L1`) from being read as parts. The tests work on a range of a longer text too, so that a
 * packed list of ids (packed-ids.ts) is read without making a string per id.
 */

/** The length of an IFC GlobalId. */
export const GLOBAL_ID_LENGTH = 22;

/** What kind of part an id is: none, a layer (`-L<n>`) or a constituent or list material (`-C<n>`). */
export const PartKind = { None: 0, Layer: 1, Constituent: 2 } as const;
/** A PartKind value. */
export type PartKind = (typeof PartKind)[keyof typeof PartKind];

const DASH = 45;
const LAYER = 76;
const CONSTITUENT = 67;
const ZERO = 48;
const NINE = 57;

function isGlobalIdCode(code: number): boolean {
  return (code >= ZERO && code <= NINE) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/** The kind of part the id `text[start, end)` is. */
export function partKindIn(text: string, start: number, end: number): PartKind {
  // The shortest part id: the GlobalId, '-', the letter and one digit.
  if (end - start < GLOBAL_ID_LENGTH + 3 || text.charCodeAt(start + GLOBAL_ID_LENGTH) !== DASH) return PartKind.None;
  const letter = text.charCodeAt(start + GLOBAL_ID_LENGTH + 1);
  if (letter !== LAYER && letter !== CONSTITUENT) return PartKind.None;
  // n counts from 1: no leading zero.
  if (text.charCodeAt(start + GLOBAL_ID_LENGTH + 2) === ZERO) return PartKind.None;
  for (let index = start + GLOBAL_ID_LENGTH + 2; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) return PartKind.None;
  }
  for (let index = start; index < start + GLOBAL_ID_LENGTH; index += 1) if (!isGlobalIdCode(text.charCodeAt(index))) return PartKind.None;
  return letter === LAYER ? PartKind.Layer : PartKind.Constituent;
}

/** The n of the part id `text[start, end)`, which must be one. */
export function partNumberIn(text: string, start: number, end: number): number {
  let number = 0;
  for (let index = start + GLOBAL_ID_LENGTH + 2; index < end; index += 1) number = number * 10 + text.charCodeAt(index) - ZERO;
  return number;
}
