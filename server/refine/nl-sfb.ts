/**
 * NL-SfB rules of refinement (decisions §9): reading a classification lookup as an NL-SfB code, the fallback walk to
 * coarser codes, and the brand layer (building level) a code belongs to. Pure: no I/O. See README.md beside this file.
 */
import { createHash } from 'node:crypto';
import type { BuildingLevelName } from '../../shared/api/enums';

/** An NL-SfB code as the classification method lists it. */
export interface ClassificationCode {
  code: string;
  name: string;
}

/** The codes of the NL-SfB method, by code (as `nl-sfb.json` writes them: `2-`, `21`, `21.2`, `0-.10`). */
export type NlSfbCodes = ReadonlyMap<string, ClassificationCode>;

/** Indexes classification codes (e.g. the `classification_codes` rows of the NL-SfB method) by code. */
export function nlSfbCodeIndex(codes: Iterable<ClassificationCode>): NlSfbCodes {
  const index = new Map<string, ClassificationCode>();
  for (const { code, name } of codes) index.set(code, { code, name });
  return index;
}

/** The next coarser NL-SfB code: one decimal less, then no decimals, then the main group ("21" → "2-"). */
export function coarserNlSfbCode(code: string): string | null {
  const decimal = /^(.+)\.(\d+)$/.exec(code);
  if (decimal !== null) {
    const [, base = '', digits = ''] = decimal;
    return digits.length > 1 ? `${base}.${digits.slice(0, -1)}` : base;
  }
  return /^\d\d$/.test(code) ? `${code.charAt(0)}-` : null;
}

// Dashes other than U+002D that spreadsheets and word processors put in "2-" or "0-.10".
const DASHES = /[\u2010-\u2015\u2212]/g;
// "NL-SfB", "NL SfB", "NLSfB", "SfB", optionally followed by ":" or "=": a label some models put before the code.
const LABEL = /^(?:nl\s*-?\s*)?sfb\s*[:=]?\s*/i;
// Two characters (a digit, then a digit or "-"), optionally a decimal part after "." (spaces allowed) or a decimal
// comma (none: "21, 22" lists two codes), optionally in parentheses (the NL-SfB notation "(21)"); what follows must
// not continue the number ("212", "21.2.4").
const CODE = /^\(?\s*(\d[\d-])(?:\s*\.\s*(\d+)|,(\d+))?\s*\)?(?!\d|[.,]\d)/;

/**
 * The NL-SfB code a classification lookup value starts with, in the form the code list uses, else null. Tolerates what
 * models write around a code: surrounding and inner spaces (" 21 . 24 "), a decimal comma ("21,24"), parentheses
 * ("(21.24)"), typographic dashes ("2–"), a leading label ("NL-SfB: 21.24") and a trailing name ("21.24 Buitenwanden").
 * The code must start the value: "Beton C20/25" is no code "20".
 */
export function normaliseNlSfbCode(lookup: string): string | null {
  const text = lookup.normalize('NFKC').replace(DASHES, '-').trim().replace(LABEL, '');
  const match = CODE.exec(text);
  if (match === null) return null;
  const [, group = '', afterPoint, afterComma] = match;
  const decimals = afterPoint ?? afterComma;
  return decimals === undefined ? group : `${group}.${decimals}`;
}

/**
 * The NL-SfB code an element's classification lookups match (decisions §9): for each lookup in turn, the code as given
 * if the list has it, else its parents in turn down to the two-digit level (`21.24` → `21.2` → `21`). A code none of
 * whose levels down to two digits is listed (`99.99`, `29`) is unknown, not its main group: `9-` would claim a site
 * element for a code the list does not know. The first lookup that matches wins; null when none does.
 */
export function classify(lookups: readonly string[], codes: NlSfbCodes): ClassificationCode | null {
  for (const lookup of lookups) {
    const known = listedCodeOf(normaliseNlSfbCode(lookup), codes);
    if (known !== null) return known;
  }
  return null;
}

/** The listed code itself, else its nearest listed parent down to the two-digit level; null when there is none. */
export function listedCodeOf(code: string | null, codes: NlSfbCodes): ClassificationCode | null {
  let candidate = code;
  while (candidate !== null) {
    const known = codes.get(candidate);
    if (known !== undefined) return known;
    candidate = TWO_DIGITS.test(candidate) ? null : coarserNlSfbCode(candidate);
  }
  return null;
}

const TWO_DIGITS = /^\d\d$/;

/** The codes decisions §9 assigns a brand layer to; any code below a listed one inherits its layer. */
const BRAND_LAYER_CODES: Readonly<Record<Exclude<BuildingLevelName, 'Unknown'>, readonly string[]>> = {
  Site: ['9-'],
  Structure: ['1-', '23', '24', '28', '21.2', '22.2', '27.2'],
  Skin: ['21', '27', '31', '37', '41', '47'],
  Services: ['5-', '6-'],
  SpacePlan: ['22', '32', '33', '34', '38', '42', '43', '44', '45', '48', '7-'],
  Stuff: ['8-'],
};

const BRAND_LAYER_BY_CODE: ReadonlyMap<string, BuildingLevelName> = new Map(
  Object.entries(BRAND_LAYER_CODES).flatMap(([layer, layerCodes]) =>
    layerCodes.map((code) => [code, layer as BuildingLevelName] as const),
  ),
);

/**
 * The brand layer of an NL-SfB code (decisions §9), from the most specific level that is listed: `21.24` → `21.2`
 * (Structure) before `21` (Skin). Unknown for no code, a code of `0-` and a code none of whose levels is listed.
 */
export function brandLayerOf(code: string | null): BuildingLevelName {
  let candidate = code === null ? null : normaliseNlSfbCode(code);
  while (candidate !== null) {
    const layer = BRAND_LAYER_BY_CODE.get(candidate);
    if (layer !== undefined) return layer;
    candidate = coarserNlSfbCode(candidate);
  }
  return 'Unknown';
}

/**
 * The `classificationMatch.id` of a code: codes have no id of their own, so it is the name-based UUID (RFC 9562
 * version 5, SHA-1) of the code in the method's id as namespace. Stable across installs and releases.
 */
export function classificationCodeId(methodId: string, code: string): string {
  return uuidV5(methodId, code);
}

/** RFC 9562 version 5 UUID of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const namespaceBytes = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  if (namespaceBytes.length !== 16) throw new Error(`Namespace '${namespace}' is not a UUID`);
  const bytes = createHash('sha1').update(namespaceBytes).update(name, 'utf8').digest().subarray(0, 16);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x50, 6);
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
