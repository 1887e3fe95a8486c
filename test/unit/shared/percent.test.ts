import { describe, expect, it } from 'vitest';
import { formatPercent, percentFractionDigits } from '../../../shared/percent';

describe('formatPercent', () => {
  it('writes whole percents in the locale’s way', () => {
    expect(formatPercent(0.4863, 'en')).toBe('49%');
    expect(formatPercent(0.4863, 'de')).toBe('49\u00a0%');
    expect(formatPercent(1, 'nl')).toBe('100%');
    expect(formatPercent(0, 'en')).toBe('0%');
  });

  it('gives a share below 1 % one decimal, so it never reads as 0 %', () => {
    expect(formatPercent(0.003, 'nl')).toBe('0,3%');
    expect(formatPercent(0.003, 'en')).toBe('0.3%');
    expect(formatPercent(-0.0049, 'en')).toBe('-0.5%');
    expect(percentFractionDigits(0.0095)).toBe(0);
    expect(formatPercent(0.0096, 'en')).toBe('1%');
    expect(formatPercent(0.0004, 'en')).toBe('0%');
    expect(formatPercent(-0.00001, 'en')).toBe('0%');
  });
});
