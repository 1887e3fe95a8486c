/**
 * A mapping made for a type name kept as a match rule on the type name (decisions §9, the platform's IFC import
 * document §2.6.5, "criterion valid for ifcElement typename"): an Equals rule with the type name, which refinement
 * tries on an element's `typeName` after its `materialName`. Only the account's own items can hold it; for an item of
 * the platform's database (read-only), the platform's own way: an own product named after the type, made of that item,
 * holding the rule. Pure: the caller writes through the catalogue store.
 */
import { MatchType, ProductType } from '../../../shared/api/enums';
import type { MaterialMatch, ProductChild } from '../../../shared/api/schemas';
import type { NewProduct } from '../../db/edits';
import { childrenOf, newChildDraft } from '../catalogues/catalogue-list-forms';

/** The rule that maps elements of a type name. */
export function typeNameRule(typeName: string): MaterialMatch {
  return { value: typeName, matchType: MatchType.Equals };
}

/** A text as refinement compares it: NFC, lower case, trimmed, whitespace runs as one space. */
function folded(text: string): string {
  return text.normalize('NFC').toLowerCase().trim().replace(/\s+/gu, ' ');
}

/** A list of rules with the type name's rule added, or null when it already holds an Equals rule for that name. */
export function withTypeNameRule<Match extends MaterialMatch>(matches: readonly Match[], typeName: string): Match[] | null {
  const held = matches.some((match) => match.matchType === MatchType.Equals && folded(match.value) === folded(typeName));
  return held ? null : [...matches, typeNameRule(typeName) as Match];
}

/** The item a rule product is made of: a material with its specific weight, or a product with its type. */
export type RuleItem = { kind: 'materials'; id: string; specificWeight: number | null } | { kind: 'products'; id: string; type: number };

/**
 * The own product that holds a type-name rule for an item of another database: named after the type, of the item's
 * measure, made of one unit of it (a material: its specific weight in kg per m³; a product: one of it), its circular
 * figures all the item's own, so an element mapped to it weighs and counts as one mapped to the item.
 */
export function ruleProduct(typeName: string, item: RuleItem): { request: NewProduct; children: ProductChild[]; matches: MaterialMatch[] } {
  const type = item.kind === 'materials' ? ProductType.VolumeProduct : (item.type as NewProduct['type']);
  const value = item.kind === 'materials' ? item.specificWeight : 1;
  return {
    request: { name: { en: typeName }, type },
    children: childrenOf([{ ...newChildDraft(item.id), value }]),
    matches: [typeNameRule(typeName)],
  };
}

