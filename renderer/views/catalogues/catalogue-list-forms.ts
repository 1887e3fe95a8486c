/**
 * The catalogue editor's model for an item's lists, which the API replaces as a whole: matches, financial values and
 * a product's children. Each list has its rows as the form holds them, the values the form refuses (what the server
 * would refuse with a 400), likely mistakes, and the list as the API takes it.
 */
import { MatchType, PriceUnit } from '../../../shared/api/enums';
import {
  MaterialMatchRequest,
  ProductChildCircularInformationRequest,
  type MaterialFinancialValue,
  type MaterialMatch,
  type ProductChild,
  type ProductChildCircularInformation,
} from '../../../shared/api/schemas';
import { toFormUnit, toWireUnit } from './catalogue-form';

// --- matches ----------------------------------------------------------------------------------------------------------

/** A match as the form holds it. */
export interface MatchDraft {
  value: string;
  matchType: MatchType;
}

/** Why the form refuses a match. */
export type MatchError = 'empty' | 'duplicate';

/** The match types an item of each catalogue is matched by: EAN codes are product codes (decisions §9). */
export const MATCH_TYPES = {
  materials: [MatchType.Equals, MatchType.Contains, MatchType.StartWith, MatchType.EndsWith],
  products: [MatchType.Equals, MatchType.Contains, MatchType.StartWith, MatchType.EndsWith, MatchType.Ean],
} as const;

const MATCH_MIN_LENGTH = (MaterialMatchRequest.properties.value as { minLength?: number }).minLength ?? 1;

/** The drafts of a cached list. */
export function matchDraftsOf(items: readonly MaterialMatch[]): MatchDraft[] {
  return items.map((item) => ({ value: item.value, matchType: item.matchType }));
}

/** The error of each draft (undefined: acceptable): a value too short, or the same match twice. */
export function matchErrors(drafts: readonly MatchDraft[]): Array<MatchError | undefined> {
  const seen = new Set<string>();
  return drafts.map((draft) => {
    const value = draft.value.trim();
    if (value.length < MATCH_MIN_LENGTH) return 'empty';
    const key = `${draft.matchType}:${value.toLowerCase()}`;
    if (seen.has(key)) return 'duplicate';
    seen.add(key);
    return undefined;
  });
}

/** The list as the API takes it. */
export function matchesOf(drafts: readonly MatchDraft[]): MaterialMatch[] {
  return drafts.map((draft) => ({ value: draft.value.trim(), matchType: draft.matchType }));
}

// --- financial values -------------------------------------------------------------------------------------------------

/** A price as the form holds it: its moment as a timestamp (ms), null until chosen. */
export interface ValueDraft {
  value: number | null;
  valueDate: number | null;
  currency: string;
  unit: PriceUnit;
}

/** Why the form refuses a price, per field. */
export interface ValueErrors {
  value?: 'required' | 'notFinite';
  valueDate?: 'required';
  currency?: 'code';
}

/** The server takes ISO 4217 codes of three letters only (in any case) and answers 400 to anything else. */
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/** The drafts of a cached list. */
export function valueDraftsOf(items: readonly MaterialFinancialValue[]): ValueDraft[] {
  return items.map((item) => {
    const time = Date.parse(item.valueDate);
    return { value: item.value, valueDate: Number.isNaN(time) ? null : time, currency: item.currency, unit: item.unit };
  });
}

/** A new price: dated `now`, in the currency and unit of the last one (the API's defaults, EUR per tonne, for the first). */
export function newValueDraft(drafts: readonly ValueDraft[], now: number): ValueDraft {
  const last = drafts.at(-1);
  return { value: null, valueDate: now, currency: last?.currency ?? 'EUR', unit: last?.unit ?? PriceUnit.mt };
}

/** The errors of each draft (an empty object: acceptable). */
export function valueErrors(drafts: readonly ValueDraft[]): ValueErrors[] {
  return drafts.map((draft) => {
    const errors: ValueErrors = {};
    if (draft.value === null) errors.value = 'required';
    else if (!Number.isFinite(draft.value)) errors.value = 'notFinite';
    if (draft.valueDate === null || !Number.isFinite(draft.valueDate)) errors.valueDate = 'required';
    if (!CURRENCY_CODE.test(draft.currency.trim())) errors.currency = 'code';
    return errors;
  });
}

/** The list as the API takes it, as the server stores it (currency in capitals, dates in UTC). Drafts must be valid. */
export function financialValuesOf(drafts: readonly ValueDraft[]): MaterialFinancialValue[] {
  return drafts.map((draft) => ({
    value: draft.value ?? 0,
    valueDate: new Date(draft.valueDate ?? 0).toISOString(),
    currency: draft.currency.trim().toUpperCase(),
    unit: draft.unit,
  }));
}

// --- children ---------------------------------------------------------------------------------------------------------

/** A flag of a child relation that takes a group of figures from the child itself. */
export type InheritFlag = 'inheritFeedstockPercentages' | 'inheritEndOfLifePercentages' | 'inheritEfficiencyPercentages';

/**
 * The figures each inherit flag stands for: in the schema, each flag is followed by the figures it takes from the
 * child, so the groups are read from its order.
 */
export const INHERIT_GROUPS: ReadonlyArray<{ flag: InheritFlag; figures: readonly (keyof ProductChildCircularInformation)[] }> = (() => {
  const groups: Array<{ flag: InheritFlag; figures: (keyof ProductChildCircularInformation)[] }> = [];
  for (const [name, property] of Object.entries(ProductChildCircularInformationRequest.properties)) {
    const type = (property as { type?: unknown }).type;
    const isFlag = type === 'boolean' || (Array.isArray(type) && type.includes('boolean'));
    if (isFlag) groups.push({ flag: name as InheritFlag, figures: [] });
    else groups.at(-1)?.figures.push(name as keyof ProductChildCircularInformation);
  }
  return groups;
})();

/** A child relation as the form holds it: its figures in % (null for none). */
export interface ChildDraft {
  childId: string;
  value: number | null;
  inherit: Record<InheritFlag, boolean>;
  figures: Partial<Record<keyof ProductChildCircularInformation, number | null>>;
}

/** Why the form refuses a child. */
export interface ChildErrors {
  /** The product itself, or a product that holds it: the server refuses a product that contains itself. */
  child?: 'self' | 'cycle';
  value?: 'notFinite';
  figures?: Partial<Record<keyof ProductChildCircularInformation, 'notFinite'>>;
}

/** Likely mistakes in a child. */
export interface ChildWarnings {
  /** Not in the cache (yet): its name and kind are unknown here. */
  child?: 'unknown' | 'duplicate';
  value?: 'negative';
}

/** The drafts of a cached list. */
export function childDraftsOf(items: readonly ProductChild[]): ChildDraft[] {
  return items.map((item) => {
    const inherit = {} as Record<InheritFlag, boolean>;
    const figures: ChildDraft['figures'] = {};
    for (const group of INHERIT_GROUPS) {
      inherit[group.flag] = item.circular[group.flag];
      for (const figure of group.figures) {
        const value = item.circular[figure];
        figures[figure] = typeof value === 'number' ? toFormUnit('percent', value) : null;
      }
    }
    return { childId: item.childId, value: item.value, inherit, figures };
  });
}

/** A new child relation: all of its figures taken from the child itself. */
export function newChildDraft(childId: string): ChildDraft {
  const inherit = Object.fromEntries(INHERIT_GROUPS.map((group) => [group.flag, true])) as Record<InheritFlag, boolean>;
  return { childId, value: null, inherit, figures: {} };
}

/**
 * Whether product `from` is `target` or holds it somewhere down its children, by the children the cache holds
 * (`childrenOf`): adding `from` to `target` would make `target` contain itself.
 */
export function holdsProduct(childrenOf: (productId: string) => readonly string[], from: string, target: string): boolean {
  const seen = new Set<string>();
  const queue = [from];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === target) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...childrenOf(next));
  }
  return false;
}

/** What the child checks need to know of the cache. */
export interface ChildContext {
  /** The product whose children these are. */
  productId: string;
  /** Whether an id is a cached material or product. */
  isKnown: (id: string) => boolean;
  /** Whether an id is a cached product. */
  isProduct: (id: string) => boolean;
  /** The child ids of a cached product. */
  childrenOf: (productId: string) => readonly string[];
}

/** The errors of each draft (an empty object: acceptable). */
export function childErrors(drafts: readonly ChildDraft[], context: ChildContext): ChildErrors[] {
  return drafts.map((draft) => {
    const errors: ChildErrors = {};
    if (draft.childId === context.productId) errors.child = 'self';
    else if (context.isProduct(draft.childId) && holdsProduct(context.childrenOf, draft.childId, context.productId)) errors.child = 'cycle';
    if (draft.value !== null && !Number.isFinite(draft.value)) errors.value = 'notFinite';
    for (const group of INHERIT_GROUPS) {
      if (draft.inherit[group.flag]) continue;
      for (const figure of group.figures) {
        const value = draft.figures[figure];
        if (value !== undefined && value !== null && !Number.isFinite(value)) errors.figures = { ...errors.figures, [figure]: 'notFinite' };
      }
    }
    return errors;
  });
}

/** The likely mistakes of each draft. */
export function childWarnings(drafts: readonly ChildDraft[], context: ChildContext): ChildWarnings[] {
  const seen = new Set<string>();
  return drafts.map((draft) => {
    const warnings: ChildWarnings = {};
    if (!context.isKnown(draft.childId)) warnings.child = 'unknown';
    else if (seen.has(draft.childId)) warnings.child = 'duplicate';
    seen.add(draft.childId);
    if (draft.value !== null && draft.value < 0) warnings.value = 'negative';
    return warnings;
  });
}

/** The list as the API takes it; the figures of an inherited group are kept as they were, the child supplies them. */
export function childrenOf(drafts: readonly ChildDraft[]): ProductChild[] {
  return drafts.map((draft) => {
    const circular = {} as Record<string, boolean | number | null>;
    for (const group of INHERIT_GROUPS) {
      circular[group.flag] = draft.inherit[group.flag];
      for (const figure of group.figures) {
        const value = draft.figures[figure];
        circular[figure] = value === undefined || value === null ? null : toWireUnit('percent', value);
      }
    }
    return { childId: draft.childId, value: draft.value, circular: circular as ProductChildCircularInformation };
  });
}

/** Whether a list of errors holds any. */
export function anyErrors(errors: ReadonlyArray<object | string | undefined>): boolean {
  return errors.some((error) => (typeof error === 'object' ? Object.keys(error).length > 0 : error !== undefined));
}
