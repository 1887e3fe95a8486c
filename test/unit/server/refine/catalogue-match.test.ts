import { describe, expect, it } from 'vitest';
import { ElementType, MatchType } from '../../../../shared/api/enums';
import {
  buildCatalogueRules,
  matchCatalogue,
  normaliseProductCode,
  productCodeRule,
  type CatalogueRule,
  type MatchableElement,
} from '../../../../server/refine/catalogue-match';

const PREFERRED = 'db-preferred';
const SECOND = 'db-second';
const PLATFORM = 'db-platform';

function rule(id: string, matchType: number, value: string, databaseId = PLATFORM, type: ElementType = ElementType.Material): CatalogueRule {
  return { databaseId, type, id, matchType, value };
}

function element(materialName: string | null, typeName: string | null = null, materialId: string | null = null): MatchableElement {
  return { materialName, typeName, materialId };
}

/** What the element's materialId or the rules map it to; the keyword table's fallback is tested on its own below. */
function matchedId(rules: CatalogueRule[], subject: MatchableElement, order = [PREFERRED, SECOND, PLATFORM]): string | null {
  const match = matchCatalogue(subject, buildCatalogueRules(order, rules));
  return match === null || match.source === 'keyword' ? null : match.id;
}

describe('matchCatalogue: what gave the mapping', () => {
  const concreteRule = rule('concrete-rule', MatchType.Contains, 'beton');

  it('says model for a readable materialId, rule for a match rule, keyword for the keyword table', () => {
    const rulesIndex = buildCatalogueRules([PLATFORM], [concreteRule]);
    const readable = new Map([['named', { type: ElementType.Material, id: 'named' }]]);
    expect(matchCatalogue(element('Beton', null, 'NAMED'), rulesIndex, readable)).toEqual({ type: ElementType.Material, id: 'named', source: 'model' });
    expect(matchCatalogue(element('Beton C20/25'), rulesIndex)).toEqual({ type: ElementType.Material, id: 'concrete-rule', source: 'rule' });
    expect(matchCatalogue(element('Hochlochziegel'), rulesIndex)).toMatchObject({ type: ElementType.Material, source: 'keyword' });
  });

  it('reads the keyword table after every rule, in the element’s names and then its material hints', () => {
    const rulesIndex = buildCatalogueRules([PLATFORM], [concreteRule]);
    expect(matchCatalogue(element('Ziegel', 'Beton'), rulesIndex)?.source).toBe('rule');
    expect(matchCatalogue({ ...element('Solid'), materialHints: ['Kiefer'] }, rulesIndex)?.source).toBe('keyword');
    expect(matchCatalogue({ ...element('Default', '<By Category>'), materialHints: ['Material'] }, rulesIndex)).toBeNull();
  });
});

describe('matchCatalogue: match types', () => {
  it('Equals, StartWith, EndsWith and Contains compare case-insensitively, spacing normalised', () => {
    expect(matchedId([rule('eq', MatchType.Equals, 'Gibo')], element('  GIBO '))).toBe('eq');
    expect(matchedId([rule('eq', MatchType.Equals, 'Gibo')], element('Gibo plaat'))).toBeNull();
    expect(matchedId([rule('sw', MatchType.StartWith, 'houtwolcem')], element('Houtwolcement plaat'))).toBe('sw');
    expect(matchedId([rule('sw', MatchType.StartWith, 'houtwolcem')], element('plaat houtwolcement'))).toBeNull();
    expect(matchedId([rule('ew', MatchType.EndsWith, 'glas')], element('Isolatie GLAS'))).toBe('ew');
    expect(matchedId([rule('ew', MatchType.EndsWith, 'glas')], element('glaswol'))).toBeNull();
    expect(matchedId([rule('co', MatchType.Contains, 'Beton  (C30/35)')], element('Wand beton (c30/35) 200mm'))).toBe('co');
    expect(matchedId([rule('co', MatchType.Contains, 'beton')], element('Baksteen'))).toBeNull();
  });

  it('keeps accents: Béton is not Beton', () => {
    expect(matchedId([rule('co', MatchType.Contains, 'Béton')], element('Beton'))).toBeNull();
    expect(matchedId([rule('co', MatchType.Contains, 'Béton')], element('BÉTON armé'))).toBe('co');
  });

  it('ignores empty rule values and unknown match types', () => {
    expect(matchedId([rule('empty', MatchType.Contains, '  ')], element('Beton'))).toBeNull();
    expect(matchedId([rule('odd', 99, 'Beton')], element('Beton'))).toBeNull();
  });

  it('Equals beats StartWith beats EndsWith beats Contains, whatever the lengths', () => {
    const all = [
      rule('contains', MatchType.Contains, 'beton c20/25 prefab'),
      rule('endsWith', MatchType.EndsWith, 'prefab'),
      rule('startsWith', MatchType.StartWith, 'beton'),
      rule('equals', MatchType.Equals, 'beton c20/25 prefab'),
    ];
    const subject = element('Beton C20/25 prefab');
    expect(matchedId(all, subject)).toBe('equals');
    expect(matchedId(all.filter((r) => r.id !== 'equals'), subject)).toBe('startsWith');
    expect(matchedId(all.filter((r) => !['equals', 'startsWith'].includes(r.id)), subject)).toBe('endsWith');
    expect(matchedId(all.filter((r) => r.id === 'contains'), subject)).toBe('contains');
  });

  it('within a tier the longest value wins, then material before product, then the smaller id', () => {
    const concrete = rule('concrete', MatchType.Contains, 'Beton');
    const c2025 = rule('c2025', MatchType.Contains, 'C20/25');
    expect(matchedId([concrete, c2025], element('Beton C20/25'))).toBe('c2025');
    expect(matchedId([c2025, concrete], element('Beton C20/25'))).toBe('c2025');
    expect(matchedId([rule('sw-short', MatchType.StartWith, 'be'), rule('sw-long', MatchType.StartWith, 'beton')], element('Betonblok'))).toBe('sw-long');
    expect(matchedId([rule('ew-short', MatchType.EndsWith, 'blok'), rule('ew-long', MatchType.EndsWith, 'tonblok')], element('Betonblok'))).toBe('ew-long');
    const product = rule('a-product', MatchType.Equals, 'kozijn', PLATFORM, ElementType.QuantityProduct);
    const material = rule('z-material', MatchType.Equals, 'kozijn');
    expect(matchedId([product, material], element('Kozijn'))).toBe('z-material');
    expect(matchedId([rule('b', MatchType.Contains, 'hout'), rule('a', MatchType.Contains, 'HOUT')], element('Hout'))).toBe('a');
    expect(matchedId([rule('x', MatchType.Contains, 'hout'), rule('y', MatchType.Contains, 'vuren')], element('vurenhout'))).toBe('y');
  });

  it('finds overlapping Contains values (one pass over the name)', () => {
    const rules = [
      rule('he', MatchType.Contains, 'he'),
      rule('she', MatchType.Contains, 'she'),
      rule('his', MatchType.Contains, 'his'),
      rule('hers', MatchType.Contains, 'hers'),
    ];
    expect(matchedId(rules, element('ushers'))).toBe('hers');
    expect(matchedId(rules, element('xshex'))).toBe('she');
    expect(matchedId(rules, element('ahisa'))).toBe('his');
    expect(matchedId(rules, element('xyz'))).toBeNull();
  });
});

describe('matchCatalogue: order of databases and names', () => {
  it('a preferred database beats the platform, even with a weaker match type', () => {
    const rules = [rule('platform-eq', MatchType.Equals, 'beton'), rule('own-contains', MatchType.Contains, 'eto', PREFERRED)];
    expect(matchedId(rules, element('Beton'))).toBe('own-contains');
  });

  it('preferred databases in the file’s order', () => {
    const rules = [rule('second', MatchType.Equals, 'beton', SECOND), rule('first', MatchType.Equals, 'beton', PREFERRED)];
    expect(matchedId(rules, element('Beton'))).toBe('first');
    expect(matchedId(rules, element('Beton'), [SECOND, PREFERRED, PLATFORM])).toBe('second');
  });

  it('ignores rules of databases that are not searched', () => {
    expect(matchedId([rule('elsewhere', MatchType.Equals, 'beton', 'db-other')], element('Beton'))).toBeNull();
  });

  it('materialName beats typeName within a database; typeName when materialName finds nothing', () => {
    const rules = [rule('by-type', MatchType.Equals, 'Wand 200'), rule('by-material', MatchType.Contains, 'beton')];
    expect(matchedId(rules, element('Beton', 'Wand 200'))).toBe('by-material');
    expect(matchedId(rules, element('Kalkzandsteen', 'Wand 200'))).toBe('by-type');
    expect(matchedId(rules, element(null, 'Wand 200'))).toBe('by-type');
    expect(matchedId(rules, element('', 'Wand 200'))).toBe('by-type');
    expect(matchedId(rules, element(null, null))).toBeNull();
  });
});

describe('matchCatalogue: Ean against product codes', () => {
  const product = productCodeRule({ databaseId: PLATFORM, type: ElementType.AreaProduct, id: 'panel', productCode: '8712345678906' });

  it('matches a name that is the product code, spaces, hyphens and leading zeros ignored', () => {
    expect(product).not.toBeNull();
    const rules = product === null ? [] : [product];
    const rulesIndex = buildCatalogueRules([PLATFORM], rules);
    expect(matchCatalogue(element('8712345678906'), rulesIndex)).toEqual({ type: ElementType.AreaProduct, id: 'panel', source: 'rule' });
    expect(matchCatalogue(element('0 8712345-678906'), rulesIndex)?.id).toBe('panel');
    expect(matchCatalogue(element('Panel', '08712345678906'), rulesIndex)?.id).toBe('panel');
    expect(matchCatalogue(element('871234567890'), rulesIndex)).toBeNull();
  });

  it('matches the value of an Ean rule too, and beats the name rules of the same database', () => {
    const rules = [
      rule('by-ean', MatchType.Ean, '4006381333931', PLATFORM, ElementType.QuantityProduct),
      rule('by-contains', MatchType.Contains, '400'),
      rule('by-equals', MatchType.Equals, '4006381333931'),
    ];
    expect(matchedId(rules, element('4006381333931'))).toBe('by-ean');
  });

  it('needs a product code', () => {
    expect(productCodeRule({ databaseId: PLATFORM, type: ElementType.AreaProduct, id: 'p', productCode: null })).toBeNull();
    expect(productCodeRule({ databaseId: PLATFORM, type: ElementType.AreaProduct, id: 'p', productCode: ' ' })).toBeNull();
    expect(normaliseProductCode('00 1234-5678')).toBe('12345678');
    expect(normaliseProductCode('abc-12')).toBe('ABC12');
  });
});

describe('matchCatalogue: materialId', () => {
  const rules = buildCatalogueRules([PLATFORM], [rule('by-name', MatchType.Contains, 'beton')]);
  const readable = new Map([
    ['3f1c0b9e-0000-4000-8000-000000000001', { type: ElementType.Material, id: '3f1c0b9e-0000-4000-8000-000000000001' }],
    ['3f1c0b9e-0000-4000-8000-000000000002', { type: ElementType.LengthProduct, id: '3f1c0b9e-0000-4000-8000-000000000002' }],
  ]);

  it('a readable materialId wins over every rule, in any letter case', () => {
    expect(matchCatalogue(element('Beton', null, '3F1C0B9E-0000-4000-8000-000000000001'), rules, readable)).toEqual({
      type: ElementType.Material,
      id: '3f1c0b9e-0000-4000-8000-000000000001',
      source: 'model',
    });
    expect(matchCatalogue(element('Beton', null, '3f1c0b9e-0000-4000-8000-000000000002'), rules, readable)?.type).toBe(
      ElementType.LengthProduct,
    );
  });

  it('an unreadable or unknown materialId falls back to the rules', () => {
    expect(matchCatalogue(element('Beton', null, '3f1c0b9e-0000-4000-8000-000000000009'), rules, readable)?.id).toBe('by-name');
    expect(matchCatalogue(element('Plaat', null, '3f1c0b9e-0000-4000-8000-000000000009'), rules, readable)).toBeNull();
  });
});
