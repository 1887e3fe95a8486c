/**
 * A keyword table from the names CAD tools and people give materials ("Beton C30/37", "Mauerziegel", "Metal - Steel -
 * 345 MPa", "Kalkzandsteen / Minerale wol / Baksteen") to the materials of the platform's database
 * (server/store/seed/platform-materials.json): a weaker fallback after the match rules, which know few of the words
 * real models use. Pure: no I/O. The table is `material-keyword-table.ts`; this is its matching. See README.md beside
 * this file.
 */
import { MATERIAL_KEYWORDS, type MaterialKeywordGroup } from './material-keyword-table';

/** A material of the platform's database found by keyword in an element's material or type name. */
export interface KeywordMatch {
  materialId: string;
  /** The keyword that found it, as the table spells it. */
  keyword: string;
}

type KeywordField = 'en' | 'nl' | 'de' | 'fr' | 'it' | 'es' | 'cad';

const KEYWORD_FIELDS: readonly KeywordField[] = ['en', 'nl', 'de', 'fr', 'it', 'es', 'cad'];

/**
 * Dutch and German write a material and what qualifies it as one word, the material at either end: last as the
 * compound's head ("Stahlbeton", "Vloerbeton", "Mauerziegel", "Titanzink", "Vollholz") or first as its modifier
 * ("Holzbalken", "Zinkblech", "houtskelet"). English, French, Italian and Spanish write separate words.
 */
const COMPOUNDING_FIELDS: ReadonlySet<KeywordField> = new Set<KeywordField>(['nl', 'de']);

/** Keywords this long or shorter are whole words (outside compounds): as prefixes they would find other words. */
const SHORT_KEYWORD_LENGTH = 5;

/**
 * Text as keywords and names are compared: compatibility-composed (NFKC), lower case, accents removed, "ß" as "ss",
 * every run of other characters than letters and digits as one space ("C30/37" → "c30 37", "Sand/Cement" → "sand
 * cement").
 */
function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

type CharacterKind = 'letter' | 'digit' | 'other';

function kindOf(character: string | undefined): CharacterKind {
  if (character === undefined) return 'other';
  if (/\p{L}/u.test(character)) return 'letter';
  return /\p{N}/u.test(character) ? 'digit' : 'other';
}

/** One keyword, folded, with what decides where it may match. */
interface IndexedKeyword {
  text: string;
  spelling: string;
  materialId: string;
  /** Dutch or German: may also start or end inside a compound word. */
  compound: boolean;
  /** Short or ending in a digit: must not run on into a longer word or number. */
  wholeWord: boolean;
  first: CharacterKind;
  last: CharacterKind;
}

/**
 * The table's keywords by folded text. A keyword in two groups would make the table's answer depend on its order:
 * that is a mistake in the table, reported when this module loads.
 */
function indexKeywords(groups: readonly MaterialKeywordGroup[]): IndexedKeyword[] {
  const byText = new Map<string, IndexedKeyword>();
  for (const group of groups) {
    for (const field of KEYWORD_FIELDS) {
      for (const spelling of group[field] ?? []) {
        const text = foldText(spelling);
        const compound = COMPOUNDING_FIELDS.has(field);
        const known = byText.get(text);
        if (known !== undefined) {
          if (known.materialId !== group.materialId) {
            throw new Error(`Keyword "${spelling}" is in the groups of ${known.materialId} and ${group.materialId}.`);
          }
          known.compound ||= compound;
          continue;
        }
        const last = kindOf(text.at(-1));
        byText.set(text, {
          text,
          spelling,
          materialId: group.materialId,
          compound,
          wholeWord: text.length <= SHORT_KEYWORD_LENGTH || last === 'digit',
          first: kindOf(text[0]),
          last,
        });
      }
    }
  }
  return [...byText.values()];
}

/** Per material, the materials it refines, directly or through others. */
function broaderMaterials(groups: readonly MaterialKeywordGroup[]): Map<string, Set<string>> {
  const direct = new Map(groups.map((group) => [group.materialId, group.refines ?? []]));
  const broader = new Map<string, Set<string>>();
  for (const materialId of direct.keys()) {
    const found = new Set<string>();
    const pending = [...(direct.get(materialId) ?? [])];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (found.has(next)) continue;
      found.add(next);
      pending.push(...(direct.get(next) ?? []));
    }
    broader.set(materialId, found);
  }
  return broader;
}

const KEYWORDS = indexKeywords(MATERIAL_KEYWORDS);
const BROADER = broaderMaterials(MATERIAL_KEYWORDS);

/**
 * server/imports/ifc/materials.ts joins the materials of a layered element with " / ", the dominant layer first;
 * each layer is one material, so a keyword of one layer never refines another's.
 */
const LAYER_SEPARATOR = /\s+\/\s+/u;

interface Occurrence {
  keyword: IndexedKeyword;
  start: number;
  end: number;
}

/** Whether the keyword at `start` of folded `text` stands where words allow it (see MaterialKeywordGroup). */
function fits(text: string, start: number, keyword: IndexedKeyword): boolean {
  const atWordStart = kindOf(text[start - 1]) !== keyword.first;
  const atWordEnd = kindOf(text[start + keyword.text.length]) !== keyword.last;
  if (keyword.compound) return atWordStart || atWordEnd;
  return atWordStart && (atWordEnd || !keyword.wholeWord);
}

/** The head of the compound word `first` starts: another keyword ending that word, unless `first` is a kind of it. */
function compoundHead(text: string, first: Occurrence, occurrences: readonly Occurrence[]): Occurrence | undefined {
  const space = text.indexOf(' ', first.end);
  const wordEnd = space === -1 ? text.length : space;
  if (first.end === wordEnd) return undefined;
  const head = occurrences.find((occurrence) => occurrence.start >= first.end && occurrence.end === wordEnd);
  if (head === undefined) return undefined;
  return BROADER.get(first.keyword.materialId)?.has(head.keyword.materialId) === true ? undefined : head;
}

/**
 * The keyword that names the material of one layer (folded). First the keyword that starts first (a name lists its
 * main material first), the longest of those (the most specific: "mineral wool" before "wool"). If it starts a Dutch
 * or German compound that another keyword ends, the compound's head, its last part, names the material
 * ("Glasfaserbeton" is concrete, "Buchensperrholz" plywood), unless the first is a kind of it ("Ziegelmauerwerk" is
 * brick). Then, later in the layer, a keyword of a material that is a kind of the one found wins ("Masonry - Brick",
 * "Beton C30/37").
 */
function layerMaterial(text: string): IndexedKeyword | undefined {
  const occurrences: Occurrence[] = [];
  for (const keyword of KEYWORDS) {
    for (let start = text.indexOf(keyword.text); start >= 0; start = text.indexOf(keyword.text, start + 1)) {
      if (fits(text, start, keyword)) occurrences.push({ keyword, start, end: start + keyword.text.length });
    }
  }
  occurrences.sort((a, b) => a.start - b.start || b.end - a.end);
  const first = occurrences[0];
  if (first === undefined) return undefined;
  let found = compoundHead(text, first, occurrences) ?? first;
  for (const occurrence of occurrences) {
    if (occurrence.start < found.end) continue;
    if (BROADER.get(occurrence.keyword.materialId)?.has(found.keyword.materialId) === true) found = occurrence;
  }
  return found.keyword;
}

/**
 * The platform material an element's names speak of by keyword, or null. Names are tried in the order given (the
 * caller passes materialName, then typeName); within a name its layers (" / ") in order; within a layer the keyword
 * that starts first, the longest of those (of a Dutch or German compound, its head), unless a later keyword names a
 * kind of that material. Names that say nothing ("Default", "<By Category>", "Generic - 200mm") hold no keyword and
 * give null.
 */
export function materialByKeyword(...names: (string | null)[]): KeywordMatch | null {
  for (const name of names) {
    if (name === null) continue;
    const found = nameMaterial(name);
    if (found !== null) return found;
  }
  return null;
}

/** Results per distinct name: a model repeats a few hundred names over many thousand elements. */
const MEMO_LIMIT = 50_000;
const memo = new Map<string, KeywordMatch | null>();

/** The material one name speaks of by keyword (its layers in order), or null. */
function nameMaterial(name: string): KeywordMatch | null {
  const known = memo.get(name);
  if (known !== undefined) return known;
  let result: KeywordMatch | null = null;
  for (const layer of name.normalize('NFKC').split(LAYER_SEPARATOR)) {
    const keyword = layerMaterial(foldText(layer));
    if (keyword !== undefined) {
      result = { materialId: keyword.materialId, keyword: keyword.spelling };
      break;
    }
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(name, result);
  return result;
}
