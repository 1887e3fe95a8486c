import { describe, expect, it } from 'vitest';
import {
  defaultFinancialInputs,
  financialInputErrors,
  financialQueryOf,
  hasFinancialInputs,
} from '../../../../../renderer/views/buildings/financial-inputs';

describe('the financial rates', () => {
  it('leave every rate to the server by default', () => {
    const inputs = defaultFinancialInputs();
    expect(hasFinancialInputs(inputs)).toBe(false);
    expect(financialQueryOf(inputs)).toEqual({});
  });

  it('send the typed percentages as fractions, and only those typed', () => {
    const inputs = { inflation: 2.1, bdbIndex: null, discountRate: -0.5 };
    expect(hasFinancialInputs(inputs)).toBe(true);
    expect(financialQueryOf(inputs)).toEqual({ inflation: 0.021, discountRate: -0.005 });
  });

  it('refuse rates that make the discounting meaningless or that are not numbers', () => {
    expect(financialInputErrors({ inflation: -100, bdbIndex: 100.5, discountRate: Number.POSITIVE_INFINITY })).toEqual({
      inflation: 'out-of-range',
      bdbIndex: 'out-of-range',
      discountRate: 'not-finite',
    });
    expect(financialInputErrors({ inflation: -99.9, bdbIndex: 100, discountRate: 0 })).toEqual({});
  });
});
