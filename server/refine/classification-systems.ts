/**
 * Classification references of other systems mapped to NL-SfB: which system an IfcClassification names, and the NL-SfB
 * code a reference code of that system stands for. Pure tables and parsing, no I/O. NL-SfB codes themselves are read by
 * `normaliseNlSfbCode` (nl-sfb.ts); a result here is a code of `nl-sfb.json` as that list writes it.
 *
 * Choice of targets, the same in every table: the two-digit NL-SfB element (`21`, `56`); its `.2` child where the source
 * names the load-bearing part (`331 Tragende Außenwände` → `21.2`, a roof construction → `27.2`) and `.1` where it names
 * the non-load-bearing one; a main group (`5-`, `8-`) where the source spans several elements of it. Main groups `2-`,
 * `3-` and `4-` are never targets: they carry no brand layer, so such a reference tells refinement nothing it can use.
 */
import { BB_SFB_ROWS } from './classification-tables/bb-sfb';
import { DIN276_ROWS } from './classification-tables/din276';
import { NS3451_ROWS } from './classification-tables/ns3451';
import { OMNICLASS_ROWS } from './classification-tables/omniclass';
import type { ReferenceRow } from './classification-tables/reference-row';
import { UNICLASS_ROWS } from './classification-tables/uniclass';
import { UNIFORMAT_ROWS } from './classification-tables/uniformat';

/** The classification systems whose references are read. */
export type ClassificationSystem = 'nl-sfb' | 'omniclass' | 'uniclass' | 'din276' | 'bb-sfb' | 'ns3451' | 'uniformat';

/** The systems with a table to NL-SfB (NL-SfB itself needs none). */
export type MappedClassificationSystem = Exclude<ClassificationSystem, 'nl-sfb'>;

/** How tools write a system's name in IfcClassification.Name, Source or Edition; the first that matches wins. */
const SYSTEM_NAMES: readonly (readonly [ClassificationSystem, RegExp])[] = [
  // CI/SfB is the British parent of BB/SfB; its table 1 has the same structure.
  ['bb-sfb', /\b(?:bb|ci)\s*[/_-]?\s*sfb\b/i],
  ['nl-sfb', /\bnl\s*[/_-]?\s*sfb/i],
  ['omniclass', /omni\s*class/i],
  ['uniclass', /uni\s*class/i],
  ['din276', /\bdin\s*[-_]?\s*276|\bkostengruppe/i],
  ['ns3451', /\bns\s*[-_]?\s*3451|\bbygningsdel/i],
  // Revit names its Uniformat parameter "Assembly Code".
  ['uniformat', /uni\s*format|\bassembly\s*code/i],
];

/**
 * The system an IfcClassification's Name (or Source, Edition) denotes, tolerant of how tools write it: "NL/SfB",
 * "NLSfB 2019", "OmniClass Table 21", "Uniclass2015", "DIN276-1:2008-12", "CI/SfB" (as BB/SfB), "NS3451:2022",
 * "UniFormat II", "Assembly Code". Null for none of these.
 */
export function classificationSystemOf(name: string | null): ClassificationSystem | null {
  if (name === null) return null;
  const text = name.normalize('NFKC');
  return SYSTEM_NAMES.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}


/** The tables, by system: what a README table of the mappings is made from. */
export const CLASSIFICATION_TABLES: Readonly<Record<MappedClassificationSystem, readonly ReferenceRow[]>> = {
  omniclass: OMNICLASS_ROWS,
  uniclass: UNICLASS_ROWS,
  din276: DIN276_ROWS,
  'bb-sfb': BB_SFB_ROWS,
  ns3451: NS3451_ROWS,
  uniformat: UNIFORMAT_ROWS,
};

// Dashes other than U+002D that word processors put in codes ("21–02 10 10", "(2–)").
const DASHES = /[\u2010-\u2015\u2212]/g;

/** A reference code as the readers below expect it: NFKC (full-width digits), plain dashes, no surrounding spaces. */
function cleaned(code: string): string {
  return code.normalize('NFKC').replace(DASHES, '-').trim();
}

/** The codes a list of two-digit groups stands for, most specific first: [a, b, c] → [abc, ab, a]. */
function prefixesOf<T>(parts: readonly T[], join: (parts: readonly T[]) => string): string[] {
  return parts.map((_, index) => join(parts.slice(0, parts.length - index)));
}

const pairsOf = (digits: string): string[] => digits.match(/\d\d/g) ?? [];

// After a code: its end, or a name after spaces ("21-02 10 10 Floor Construction"), not more digits.
const END = String.raw`(?=$|\s+\D)`;

// "21-02 10 10", "21-021010", "21-02 10 10 10"; with the system named, also dots or dashes between the pairs.
const OMNICLASS = new RegExp(String.raw`^21\s*-\s*(\d\d(?:[\s.-]?\d\d){0,5})${END}`);
const OMNICLASS_SHAPE = new RegExp(String.raw`^21-\d\d(?: ?\d\d){0,5}${END}`);
// "EF_25_10", "Ss_25_10_30", "ss 25 10", "EF-25-10": a table prefix and two-digit groups.
const UNICLASS = new RegExp(String.raw`^(ef|ss)[\s_-]?(\d\d(?:[\s_-]?\d\d)*)${END}`, 'i');
// "KG 331", "331", "331.10": three digits, then deeper levels the table does not list.
const DIN276 = /^(?:kg\s*)?([1-8]\d\d)(?:\.\d+)*(?=$|\s)/i;
// "(21)", "(2-)", "(21.1)" (anything may follow the bracket: "(21) Fg2"), "21", "2-".
const BB_SFB = /^(?:\((\d[\d-])(?:\.\d+)?\)|(\d[\d-])(?:\.\d+)?(?=$|\s))/;
// "2", "23", "231", "231.1".
const NS3451 = /^([2-7]\d{0,2})(?:\.\d+)*(?=$|\s)/;
// "B", "B20", "B2010", "B2010.10", and Revit's deeper "B2010100".
const UNIFORMAT = new RegExp(String.raw`^([a-g])(\d\d)?(\d\d)?(?:\.?\d+)?${END}`, 'i');
const UNIFORMAT_SHAPE = new RegExp(String.raw`^[a-g]\d{4}(?:\.\d+)?${END}`, 'i');

/** How a system's codes are read: the table keys to try for a code, and whether a code's shape alone tells the system. */
interface SystemReader {
  /** The table's keys to try for a (cleaned) reference code, most specific first; none when it is no code of the system. */
  readonly keysOf: (code: string) => readonly string[];
  /** Set for the systems whose codes no other system writes alike: whether a code has that shape. */
  readonly hasOwnShape?: (code: string) => boolean;
}

const READERS: Readonly<Record<MappedClassificationSystem, SystemReader>> = {
  omniclass: {
    keysOf: (code) => {
      const digits = OMNICLASS.exec(code)?.[1]?.replace(/\D/g, '') ?? '';
      // Trailing 00 pairs say "no further level": 21-02 10 00 is 21-02 10.
      const pairs = pairsOf(digits.replace(/(?:00)+$/, ''));
      return prefixesOf(pairs, ([first, ...rest]) => [`21-${first ?? ''}`, ...rest].join(' '));
    },
    hasOwnShape: (code) => OMNICLASS_SHAPE.test(code),
  },
  uniclass: {
    keysOf: (code) => {
      const match = UNICLASS.exec(code);
      if (match === null) return [];
      const table = match[1]?.toLowerCase() === 'ef' ? 'EF' : 'Ss';
      return prefixesOf(pairsOf(match[2] ?? ''), (pairs) => [table, ...pairs].join('_'));
    },
    hasOwnShape: (code) => UNICLASS.test(code),
  },
  din276: {
    keysOf: (code) => {
      const group = DIN276.exec(code)?.[1];
      if (group === undefined) return [];
      // 331 → 330 → 300: each level zeroes one more digit.
      return [...new Set([group, `${group.slice(0, 2)}0`, `${group.charAt(0)}00`])];
    },
  },
  'bb-sfb': {
    keysOf: (code) => {
      const match = BB_SFB.exec(code);
      const element = match?.[1] ?? match?.[2];
      if (element === undefined) return [];
      const group = `(${element.charAt(0)}-)`;
      return element.endsWith('-') ? [group] : [`(${element})`, group];
    },
  },
  ns3451: {
    keysOf: (code) => {
      const digits = NS3451.exec(code)?.[1];
      return digits === undefined ? [] : prefixesOf([...digits], (parts) => parts.join(''));
    },
  },
  uniformat: {
    keysOf: (code) => {
      const match = UNIFORMAT.exec(code);
      if (match === null) return [];
      const [, letter = '', group, element] = match;
      const levels = [letter.toUpperCase(), group, element].filter((level): level is string => level !== undefined);
      return prefixesOf(levels, (parts) => parts.join(''));
    },
    hasOwnShape: (code) => UNIFORMAT_SHAPE.test(code),
  },
};

const TABLE_INDEX: ReadonlyMap<MappedClassificationSystem, ReadonlyMap<string, string>> = new Map(
  Object.entries(CLASSIFICATION_TABLES).map(([system, table]) => [
    system as MappedClassificationSystem,
    new Map(table.map((row) => [row.code, row.nlSfb])),
  ]),
);

const SHAPED_SYSTEMS = (Object.keys(READERS) as MappedClassificationSystem[]).filter(
  (system) => READERS[system].hasOwnShape !== undefined,
);

/**
 * The NL-SfB code (as nl-sfb.json writes it: `21`, `21.2`, `8-`) a classification reference code of `system` stands
 * for, else null. A code more specific than its table falls back to its nearest listed parent in its own system
 * (DIN `331.10` → `331`, OmniClass `21-02 10 10 20` → `21-02 10 10`, Uniclass `Ss_25_10_30_35` → `Ss_25_10_30`).
 * Without a system, only codes whose shape tells their system are read: Uniclass 2015 (`EF_25_10`, `ss-25-10-30`),
 * OmniClass table 21 (`21-02 10 10`, `21-021010`), Uniformat II (`B2010`, `B2010.10`); a plain number is null (it could
 * be NL-SfB, DIN 276 or NS 3451). `nl-sfb` gives null: its codes are read by `normaliseNlSfbCode`.
 */
export function nlSfbOfReference(system: ClassificationSystem | null, code: string): string | null {
  if (system === 'nl-sfb') return null;
  const text = cleaned(code);
  const readAs = system ?? SHAPED_SYSTEMS.find((shaped) => READERS[shaped].hasOwnShape?.(text) === true);
  if (readAs === undefined) return null;
  const table = TABLE_INDEX.get(readAs);
  for (const key of READERS[readAs].keysOf(text)) {
    const nlSfb = table?.get(key);
    if (nlSfb !== undefined) return nlSfb;
  }
  return null;
}
