import { describe, expect, it } from 'vitest';
import { MatchType, PriceUnit } from '../../../../../shared/api/enums';
import type { ProductChild } from '../../../../../shared/api/schemas';
import {
  anyErrors,
  childDraftsOf,
  childErrors,
  childrenOf,
  childWarnings,
  financialValuesOf,
  holdsProduct,
  INHERIT_GROUPS,
  matchErrors,
  matchesOf,
  newChildDraft,
  newValueDraft,
  valueDraftsOf,
  valueErrors,
  type ChildContext,
} from '../../../../../renderer/views/catalogues/catalogue-list-forms';

describe('matches', () => {
  it('refuses an empty match and the same match twice, whatever its case', () => {
    const drafts = [
      { value: 'Beton', matchType: MatchType.Equals },
      { value: '  ', matchType: MatchType.Contains },
      { value: 'beton ', matchType: MatchType.Equals },
      { value: 'beton', matchType: MatchType.Contains },
    ];
    expect(matchErrors(drafts)).toEqual([undefined, 'empty', 'duplicate', undefined]);
    expect(anyErrors(matchErrors(drafts))).toBe(true);
    expect(matchesOf(drafts.slice(2))).toEqual([
      { value: 'beton', matchType: MatchType.Equals },
      { value: 'beton', matchType: MatchType.Contains },
    ]);
  });
});

describe('financial values', () => {
  it('keep the server’s values unchanged through the form', () => {
    const values = [
      { value: 57770, valueDate: '2023-07-01T00:00:00.000Z', currency: 'EUR', unit: PriceUnit.kg },
      { value: 0.5, valueDate: '2024-01-15T12:30:00.000Z', currency: 'USD', unit: PriceUnit.lb },
    ];
    expect(financialValuesOf(valueDraftsOf(values))).toEqual(values);
  });

  it('refuse a missing price or date and a currency that is not three letters', () => {
    const drafts = [
      { value: null, valueDate: 0, currency: 'EUR', unit: PriceUnit.mt },
      { value: 3, valueDate: null, currency: 'EU', unit: PriceUnit.mt },
      { value: 3, valueDate: 0, currency: 'eur', unit: PriceUnit.mt },
    ];
    expect(valueErrors(drafts)).toEqual([{ value: 'required' }, { valueDate: 'required', currency: 'code' }, {}]);
    expect(financialValuesOf(drafts.slice(2))).toEqual([{ value: 3, valueDate: '1970-01-01T00:00:00.000Z', currency: 'EUR', unit: PriceUnit.mt }]);
  });

  it('start a new price in the currency and unit of the last one', () => {
    expect(newValueDraft([], 5)).toEqual({ value: null, valueDate: 5, currency: 'EUR', unit: PriceUnit.mt });
    expect(newValueDraft([{ value: 1, valueDate: 1, currency: 'CHF', unit: PriceUnit.m3 }], 9)).toEqual({ value: null, valueDate: 9, currency: 'CHF', unit: PriceUnit.m3 });
  });
});

describe('children', () => {
  const CHILD: ProductChild = {
    childId: 'm1',
    value: 2.5,
    circular: {
      inheritFeedstockPercentages: false,
      recycledPercentageFeedstock: 0.4,
      rapidRenewablesPercentageFeedstock: null,
      inheritEndOfLifePercentages: true,
      recycledPercentageEndOfLife: null,
      landfillPercentageEndOfLife: null,
      inheritEfficiencyPercentages: true,
      efficiencyPercentageRecyclingFeedstock: null,
      efficiencyPercentageRecyclingEndOfLife: null,
    },
  };

  it('group each inherit flag with the figures it takes from the child, as the schema orders them', () => {
    expect(INHERIT_GROUPS).toEqual([
      { flag: 'inheritFeedstockPercentages', figures: ['recycledPercentageFeedstock', 'rapidRenewablesPercentageFeedstock'] },
      { flag: 'inheritEndOfLifePercentages', figures: ['recycledPercentageEndOfLife', 'landfillPercentageEndOfLife'] },
      { flag: 'inheritEfficiencyPercentages', figures: ['efficiencyPercentageRecyclingFeedstock', 'efficiencyPercentageRecyclingEndOfLife'] },
    ]);
  });

  it('show figures in percent and give them back as fractions', () => {
    const [draft] = childDraftsOf([CHILD]);
    expect(draft?.figures.recycledPercentageFeedstock).toBe(40);
    expect(draft?.inherit).toEqual({ inheritFeedstockPercentages: false, inheritEndOfLifePercentages: true, inheritEfficiencyPercentages: true });
    expect(childrenOf(childDraftsOf([CHILD]))).toEqual([CHILD]);
    expect(newChildDraft('p9').inherit).toEqual({ inheritFeedstockPercentages: true, inheritEndOfLifePercentages: true, inheritEfficiencyPercentages: true });
  });

  // a holds b, b holds c, c holds a material; d holds itself by mistake.
  const tree: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['m1'], d: ['d'] };
  const context = (productId: string): ChildContext => ({
    productId,
    isKnown: (id) => id in tree || id === 'm1',
    isProduct: (id) => id in tree,
    childrenOf: (id) => tree[id] ?? [],
  });

  it('know which products hold a product, down the children the cache holds, without looping', () => {
    expect(holdsProduct((id) => tree[id] ?? [], 'a', 'c')).toBe(true);
    expect(holdsProduct((id) => tree[id] ?? [], 'c', 'a')).toBe(false);
    expect(holdsProduct((id) => tree[id] ?? [], 'd', 'a')).toBe(false);
  });

  it('refuse the product itself and a product that holds it', () => {
    const drafts = [newChildDraft('c'), newChildDraft('a'), newChildDraft('m1'), { ...newChildDraft('b'), value: Number.NaN }];
    expect(childErrors(drafts, context('c'))).toEqual([{ child: 'self' }, { child: 'cycle' }, {}, { child: 'cycle', value: 'notFinite' }]);
    expect(childErrors([newChildDraft('c')], context('a'))).toEqual([{}]);
  });

  it('check only the figures the relation gives itself', () => {
    const draft = newChildDraft('m1');
    draft.figures.recycledPercentageFeedstock = Number.NaN;
    expect(childErrors([draft], context('a'))).toEqual([{}]);
    draft.inherit.inheritFeedstockPercentages = false;
    expect(childErrors([draft], context('a'))).toEqual([{ figures: { recycledPercentageFeedstock: 'notFinite' } }]);
  });

  it('warn of unknown, repeated and negative children', () => {
    const drafts = [{ ...newChildDraft('m1'), value: -1 }, newChildDraft('m1'), newChildDraft('zz')];
    expect(childWarnings(drafts, context('a'))).toEqual([{ value: 'negative' }, { child: 'duplicate' }, { child: 'unknown' }]);
  });
});
