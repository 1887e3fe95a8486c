import { describe, expect, it } from 'vitest';
import { MatchType, ProductType } from '../../../../../shared/api/enums';
import { ruleProduct, typeNameRule, withTypeNameRule } from '../../../../../renderer/views/files/type-rule';

const TYPE = 'Single-Flush 0915 x 2134mm';

describe('a type-name rule', () => {
  it('is an Equals rule on the type name, added once: refinement compares names in any case and spacing', () => {
    expect(typeNameRule(TYPE)).toEqual({ value: TYPE, matchType: MatchType.Equals });
    const others = [{ value: 'Oak', matchType: MatchType.Contains }];
    expect(withTypeNameRule(others, TYPE)).toEqual([...others, { value: TYPE, matchType: MatchType.Equals }]);
    expect(withTypeNameRule([{ value: ' single-flush  0915 x 2134MM', matchType: MatchType.Equals }], TYPE)).toBeNull();
    expect(withTypeNameRule([{ value: TYPE, matchType: MatchType.Contains }], TYPE)).toHaveLength(2);
  });

  it('for a platform material, is held by an own volume product of the type made of one m³ of it, its data inherited', () => {
    const made = ruleProduct(TYPE, { kind: 'materials', id: 'oak', specificWeight: 700 });
    expect(made.request).toEqual({ name: { en: TYPE }, type: ProductType.VolumeProduct });
    expect(made.matches).toEqual([{ value: TYPE, matchType: MatchType.Equals }]);
    expect(made.children).toHaveLength(1);
    expect(made.children[0]).toMatchObject({
      childId: 'oak',
      value: 700,
      circular: { inheritFeedstockPercentages: true, inheritEndOfLifePercentages: true, inheritEfficiencyPercentages: true },
    });
  });

  it('for a platform product, by an own product of its type made of one of it', () => {
    const made = ruleProduct(TYPE, { kind: 'products', id: 'door', type: ProductType.QuantityProduct });
    expect(made.request.type).toBe(ProductType.QuantityProduct);
    expect(made.children[0]).toMatchObject({ childId: 'door', value: 1 });
  });
});
