import { describe, expect, it } from 'vitest';
import { phaseOf } from '../../../../server/refine/phase';

describe('phaseOf', () => {
  it.each([
    // English
    ['Demolition', 'Demolition'],
    ['To be demolished', 'Demolition'],
    ['New', 'New'],
    ['New Construction', 'New'],
    ['Existing', 'Existing'],
    // Dutch
    ['Sloop', 'Demolition'],
    ['sloopwerk', 'Demolition'],
    ['Nieuw', 'New'],
    ['Nieuwbouw', 'New'],
    ['Bestaand', 'Existing'],
    ['Bestaande bouw', 'Existing'],
    ['Casco', 'Existing'],
    // German
    ['Rückbau', 'Demolition'],
    ['RÜCKBAU', 'Demolition'],
    ['Teilrückbau', 'Demolition'],
    // "ü" written decomposed (u + combining diaeresis), as some tools do
    ['Ru\u0308ckbau', 'Demolition'],
    ['Neu', 'New'],
    ['Neubau', 'New'],
    ['Einbau', 'New'],
    ['Wiedereinbau', 'New'],
    ['Rohbau', 'Existing'],
    // Mixed case and spacing
    ['  TO   BE\tDEMOLISHED ', 'Demolition'],
    ['nEw', 'New'],
  ])('%j → %s', (lookup, phase) => {
    expect(phaseOf([lookup])).toBe(phase);
  });

  it('finds the three-letter words only where a word starts', () => {
    expect(phaseOf(['renewed'])).toBe('Existing');
    expect(phaseOf(['erneuert'])).toBe('Existing');
    expect(phaseOf(['Phase: new'])).toBe('New');
    expect(phaseOf(['(neu)'])).toBe('New');
  });

  it('is Existing when nothing matches or there are no lookups', () => {
    expect(phaseOf([])).toBe('Existing');
    expect(phaseOf([''])).toBe('Existing');
    expect(phaseOf(['Phase 1', 'Temporary'])).toBe('Existing');
  });

  it('prefers Demolition over New over Existing, across all lookups', () => {
    expect(phaseOf(['Existing, to be demolished'])).toBe('Demolition');
    expect(phaseOf(['Bestaand', 'Sloop'])).toBe('Demolition');
    expect(phaseOf(['Existing', 'New'])).toBe('New');
    expect(phaseOf(['Neubau', 'Rückbau'])).toBe('Demolition');
  });
});
