import { describe, expect, it } from 'vitest';
import { checkPortfolioName, PORTFOLIO_NAME_MAX_LENGTH } from '../../../../../renderer/views/portfolios/portfolio-form';

describe('checkPortfolioName', () => {
  it('trims the name it accepts', () => {
    expect(checkPortfolioName('  Woningen noord \t')).toEqual({ ok: true, name: 'Woningen noord' });
  });

  it('refuses an empty or blank name, as the request schema does', () => {
    expect(checkPortfolioName('')).toEqual({ ok: false, error: 'required' });
    expect(checkPortfolioName(' \n\t ')).toEqual({ ok: false, error: 'required' });
  });

  it('takes the maximum from the request schema, which sets none today', () => {
    expect(PORTFOLIO_NAME_MAX_LENGTH).toBeNull();
    expect(checkPortfolioName('x'.repeat(5000))).toEqual({ ok: true, name: 'x'.repeat(5000) });
  });

  it('counts characters, not UTF-16 units, against a maximum', () => {
    expect(checkPortfolioName('🏠🏠🏠', 3)).toEqual({ ok: true, name: '🏠🏠🏠' });
    expect(checkPortfolioName('🏠🏠🏠🏠', 3)).toEqual({ ok: false, error: 'too-long' });
    expect(checkPortfolioName('  abc  ', 3)).toEqual({ ok: true, name: 'abc' });
  });
});
