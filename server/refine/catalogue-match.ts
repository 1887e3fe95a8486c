/**
 * Automatic mapping of elements to materials and products (decisions §9): the match rules of the candidate databases,
 * indexed once so that each element costs a few map look-ups and one pass over its names. Pure: no I/O. See README.md.
 */
import type { MappingSource } from '../../shared/api';
import { ElementType, MatchType } from '../../shared/api/enums';
import { materialByKeyword } from './material-keywords';

/** What an element is mapped to: a material (10) or a product (its ProductType, 20–50) and its id. */
export interface CatalogueMapping {
  type: ElementType;
  id: string;
}

/**
 * One match rule of a material or product in database `databaseId`. A product's `productCode` is handed in as a rule
 * of type Ean too (see `productCodeRule`).
 */
export interface CatalogueRule {
  databaseId: string;
  type: ElementType;
  id: string;
  matchType: number;
  value: string;
}

/** The element fields matching reads. */
export interface MatchableElement {
  materialName: string | null;
  typeName: string | null;
  materialId: string | null;
  /** What the source's material properties say (the importer's material hints); read by the keyword table only. */
  materialHints?: readonly string[];
}

/** Materials and products an element may name by id, by lower-case id: those of the databases its account may read. */
export type ReadableCatalogueItems = ReadonlyMap<string, CatalogueMapping>;

/**
 * The tiers of match types, strongest first (Ean, Equals, StartWith, EndsWith, Contains): within one database and one
 * element field the first tier that matches wins.
 */
type Tier = 'ean' | 'equals' | 'startsWith' | 'endsWith' | 'contains';

const TIER_OF_MATCH_TYPE: ReadonlyMap<number, Tier> = new Map<number, Tier>([
  [MatchType.Ean, 'ean'],
  [MatchType.Equals, 'equals'],
  [MatchType.StartWith, 'startsWith'],
  [MatchType.EndsWith, 'endsWith'],
  [MatchType.Contains, 'contains'],
]);

const ELEMENT_TYPES: ReadonlySet<number> = new Set(Object.values(ElementType));

/** A rule's target and the length of its (normalised) value, which decides between rules of one tier. */
interface Candidate extends CatalogueMapping {
  length: number;
}

/**
 * Whether `a` wins over `b` among matches of one tier: the longer (more specific) value; then a material before a
 * product, products by type; then the smaller id (code-unit order). A total order, so matching is deterministic.
 */
function wins(a: Candidate, b: Candidate): boolean {
  if (a.length !== b.length) return a.length > b.length;
  if (a.type !== b.type) return a.type < b.type;
  return a.id < b.id;
}

function better(a: Candidate | undefined, b: Candidate | undefined): Candidate | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return wins(b, a) ? b : a;
}

/**
 * Text as names and rule values are compared: composed (NFC), lower case, trimmed, whitespace runs as one space.
 * Accents are kept ("Béton" is not "Beton").
 */
export function normaliseMatchText(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A code as Ean rules compare it: upper case without spaces, hyphens and dots; an all-digit code (EAN-8, UPC-A,
 * EAN-13, GTIN-14) without leading zeros, so `0 8712345 678906` and `8712345678906` are one GTIN.
 */
export function normaliseProductCode(code: string): string {
  const compact = code.normalize('NFKC').toUpperCase().replace(/[\s.\-\u2010-\u2015]/g, '');
  return /^\d+$/.test(compact) ? compact.replace(/^0+(?=\d)/, '') : compact;
}

/** A product's `productCode` as the Ean rule it stands for; null without a code. */
export function productCodeRule(product: {
  databaseId: string;
  type: ElementType;
  id: string;
  productCode: string | null;
}): CatalogueRule | null {
  if (product.productCode === null || product.productCode.trim() === '') return null;
  return { databaseId: product.databaseId, type: product.type, id: product.id, matchType: MatchType.Ean, value: product.productCode };
}

/** Rules whose value must equal, start or end the text: a map per value, and the value lengths longest first. */
class AffixIndex {
  private readonly byValue = new Map<string, Candidate>();
  private lengths: number[] = [];

  add(value: string, candidate: Candidate): void {
    this.byValue.set(value, better(this.byValue.get(value), candidate) ?? candidate);
  }

  seal(): void {
    this.lengths = [...new Set([...this.byValue.keys()].map((value) => value.length))].sort((a, b) => b - a);
  }

  get size(): number {
    return this.byValue.size;
  }

  /** The rule whose value is the text. */
  equal(text: string): Candidate | undefined {
    return this.byValue.get(text);
  }

  /** The longest rule value the text starts with (one value per length, so the first found is the winner). */
  prefixOf(text: string): Candidate | undefined {
    for (const length of this.lengths) {
      if (length > text.length) continue;
      const found = this.byValue.get(text.slice(0, length));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The longest rule value the text ends with. */
  suffixOf(text: string): Candidate | undefined {
    for (const length of this.lengths) {
      if (length > text.length) continue;
      const found = this.byValue.get(text.slice(text.length - length));
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/**
 * Rules whose value must occur in the text: an Aho–Corasick automaton over the values, each state carrying the winning
 * rule among the values that end there, so one pass over the text finds the winner.
 */
class ContainsIndex {
  private readonly next: Map<string, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  private readonly best: (Candidate | undefined)[] = [undefined];
  private size = 0;

  add(value: string, candidate: Candidate): void {
    let state = 0;
    for (const character of value) {
      const transitions = this.next[state] ?? new Map<string, number>();
      let target = transitions.get(character);
      if (target === undefined) {
        target = this.next.length;
        transitions.set(character, target);
        this.next.push(new Map());
        this.fail.push(0);
        this.best.push(undefined);
      }
      state = target;
    }
    this.best[state] = better(this.best[state], candidate);
    this.size += 1;
  }

  /** Links each state to its longest proper suffix state and folds the suffixes' winners in (breadth first). */
  seal(): void {
    const queue: number[] = [...(this.next[0]?.values() ?? [])];
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] ?? 0;
      for (const [character, target] of this.next[state] ?? []) {
        let fallback = this.fail[state] ?? 0;
        while (fallback !== 0 && !(this.next[fallback]?.has(character) ?? false)) fallback = this.fail[fallback] ?? 0;
        this.fail[target] = this.next[fallback]?.get(character) ?? 0;
        this.best[target] = better(this.best[target], this.best[this.fail[target] ?? 0]);
        queue.push(target);
      }
    }
  }

  get isEmpty(): boolean {
    return this.size === 0;
  }

  /** The winning rule among those whose value occurs in the text. */
  within(text: string): Candidate | undefined {
    let state = 0;
    let found: Candidate | undefined;
    for (const character of text) {
      while (state !== 0 && !(this.next[state]?.has(character) ?? false)) state = this.fail[state] ?? 0;
      state = this.next[state]?.get(character) ?? 0;
      found = better(found, this.best[state]);
    }
    return found;
  }
}

/** The indexed rules of one database. */
class DatabaseRules {
  private readonly ean = new AffixIndex();
  private readonly equals = new AffixIndex();
  private readonly startsWith = new AffixIndex();
  private readonly endsWith = new AffixIndex();
  private readonly contains = new ContainsIndex();

  add(tier: Tier, value: string, mapping: CatalogueMapping): void {
    const key = tier === 'ean' ? normaliseProductCode(value) : normaliseMatchText(value);
    // An empty value would match every name (Contains) or none: it is no rule.
    if (key === '') return;
    const candidate: Candidate = { type: mapping.type, id: mapping.id, length: key.length };
    this[tier].add(key, candidate);
  }

  get hasEan(): boolean {
    return this.ean.size > 0;
  }

  seal(): void {
    this.ean.seal();
    this.equals.seal();
    this.startsWith.seal();
    this.endsWith.seal();
    this.contains.seal();
  }

  /**
   * The winner for one element field, tier by tier: `text` normalised with normaliseMatchText, `code` with
   * normaliseProductCode (undefined when no database has Ean rules).
   */
  lookup(text: string, code: string | undefined): Candidate | undefined {
    return (
      (code === undefined ? undefined : this.ean.equal(code)) ??
      this.equals.equal(text) ??
      this.startsWith.prefixOf(text) ??
      this.endsWith.suffixOf(text) ??
      (this.contains.isEmpty ? undefined : this.contains.within(text))
    );
  }
}

/** Results kept per distinct pair of names: models repeat a few hundred names over many thousand elements. */
const MEMO_LIMIT = 100_000;

/** The match rules of the candidate databases, indexed; build with `buildCatalogueRules`. */
export class CatalogueRules {
  private readonly databases: DatabaseRules[];
  private readonly hasEan: boolean;
  private readonly memo = new Map<string, CatalogueMapping | null>();

  /** `databaseOrder`: the databases to search, most preferred first; rules of other databases are ignored. */
  constructor(databaseOrder: readonly string[], rules: Iterable<CatalogueRule>) {
    const byDatabase = new Map<string, DatabaseRules>();
    for (const databaseId of databaseOrder) {
      if (!byDatabase.has(databaseId)) byDatabase.set(databaseId, new DatabaseRules());
    }
    for (const rule of rules) {
      const tier = TIER_OF_MATCH_TYPE.get(rule.matchType);
      const database = byDatabase.get(rule.databaseId);
      if (tier === undefined || database === undefined || !ELEMENT_TYPES.has(rule.type)) continue;
      database.add(tier, rule.value, { type: rule.type, id: rule.id });
    }
    for (const database of byDatabase.values()) database.seal();
    this.databases = [...byDatabase.values()];
    this.hasEan = this.databases.some((database) => database.hasEan);
  }

  /**
   * The mapping the rules give for an element's names: database by database in preference order; within a database
   * materialName before typeName; within a name the tiers Ean, Equals, StartWith, EndsWith, Contains; within a tier
   * the longest value, then material before product, then the smaller id.
   */
  match(materialName: string | null, typeName: string | null): CatalogueMapping | null {
    const key = `${materialName ?? ''}\u0000${typeName ?? ''}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const result = this.search([materialName, typeName]);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, result);
    return result;
  }

  private search(names: readonly (string | null)[]): CatalogueMapping | null {
    const fields = names
      .filter((name): name is string => name !== null)
      .map((name) => ({ text: normaliseMatchText(name), code: this.hasEan ? normaliseProductCode(name) : undefined }))
      .filter(({ text }) => text !== '');
    for (const database of this.databases) {
      for (const { text, code } of fields) {
        const found = database.lookup(text, code);
        if (found !== undefined) return { type: found.type, id: found.id };
      }
    }
    return null;
  }
}

/** Indexes the rules of `databaseOrder` (most preferred first). */
export function buildCatalogueRules(databaseOrder: readonly string[], rules: Iterable<CatalogueRule>): CatalogueRules {
  return new CatalogueRules(databaseOrder, rules);
}

/** A mapping and what gave it: the element's own `materialId` (model), a match rule, or the keyword table. */
export interface CatalogueMatch extends CatalogueMapping {
  source: Exclude<MappingSource, 'none'>;
}

/**
 * The mapping of an element (decisions §9): the material or product its `materialId` names if that is readable
 * (`readable`, by lower-case id), else what the match rules give, else the platform material a keyword of its material
 * or type name names (material-keywords.ts: a weaker guess than a rule, so it comes last), else null.
 */
export function matchCatalogue(
  element: MatchableElement,
  rules: CatalogueRules,
  readable: ReadableCatalogueItems = new Map(),
): CatalogueMatch | null {
  if (element.materialId !== null) {
    const named = readable.get(element.materialId.trim().toLowerCase());
    if (named !== undefined) return { type: named.type, id: named.id, source: 'model' };
  }
  const ruled = rules.match(element.materialName, element.typeName);
  if (ruled !== null) return { ...ruled, source: 'rule' };
  const keyword = materialByKeyword(element.materialName, element.typeName, ...(element.materialHints ?? []));
  return keyword === null ? null : { type: ElementType.Material, id: keyword.materialId, source: 'keyword' };
}
