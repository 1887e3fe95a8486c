import { describe, expect, it } from 'vitest';
import { decideField, planMerge } from '../../../../renderer/sync/conflict-policy';

describe('decideField', () => {
  it('applies a field only the user changed', () => {
    expect(decideField('Old', 'Mine', 'Old')).toBe('apply');
  });

  it('keeps the server value of a field the user changed back to its base', () => {
    expect(decideField('Old', 'Old', 'Theirs')).toBe('unchanged');
    expect(decideField('Old', 'Old', 'Old')).toBe('equal');
  });

  it('has nothing to do when the server already holds the user value', () => {
    expect(decideField('Old', 'Same', 'Same')).toBe('equal');
  });

  it('is a conflict when both sides changed the field differently', () => {
    expect(decideField('Old', 'Mine', 'Theirs')).toBe('conflict');
    expect(decideField(1, 2, 3)).toBe('conflict');
  });

  it('takes null and absent as the same value, also inside objects', () => {
    expect(decideField(null, undefined, 'x')).toBe('unchanged');
    expect(decideField('x', null, undefined)).toBe('equal');
    expect(decideField({ nl: 'a' }, { nl: 'b' }, { nl: 'a', en: null })).toBe('apply');
  });

  it('compares lists and objects by value, lists in order', () => {
    expect(decideField([{ value: 'a' }], [{ value: 'a' }, { value: 'b' }], [{ value: 'a' }])).toBe('apply');
    expect(decideField(['a', 'b'], ['b', 'a'], ['a', 'b', 'c'])).toBe('conflict');
    expect(decideField({ a: 1 }, { a: 1 }, { a: 1 })).toBe('equal');
  });

  it('tells a number from a string that spells it', () => {
    expect(decideField(1, '1', 1)).toBe('apply');
  });
});

describe('planMerge', () => {
  const base = { name: { nl: 'Beton', en: 'Concrete' }, supplier: 'A', lifeTime: 50, circular: { recycled: 0.1, landfill: 0.5 } };

  it('applies the fields only the user changed and leaves everything else to the server', () => {
    const theirs = { ...base, supplier: 'B', name: { nl: 'Beton', en: 'Concrete', de: 'Beton' } };
    const plan = planMerge(base, theirs, { lifeTime: 60, 'name.nl': 'Gewapend beton' });

    expect(plan).toEqual({ decisions: { lifeTime: 'apply', 'name.nl': 'apply' }, apply: { lifeTime: 60, 'name.nl': 'Gewapend beton' }, conflicts: [] });
  });

  it('merges nested fields one by one: another language or another figure is no conflict', () => {
    const theirs = { ...base, name: { nl: 'Beton', en: 'Reinforced concrete' }, circular: { recycled: 0.1, landfill: 0.4 } };
    const plan = planMerge(base, theirs, { 'name.nl': 'Gewapend beton', 'circular.recycled': 0.3 });

    expect(plan.conflicts).toEqual([]);
    expect(plan.apply).toEqual({ 'name.nl': 'Gewapend beton', 'circular.recycled': 0.3 });
  });

  it('lists every field changed on both sides with its base, mine and theirs, and applies nothing of them', () => {
    const theirs = { ...base, supplier: 'Server', lifeTime: 40 };
    const plan = planMerge(base, theirs, { supplier: 'Mine', lifeTime: 40, 'circular.landfill': 0.2 });

    expect(plan.decisions).toEqual({ supplier: 'conflict', lifeTime: 'equal', 'circular.landfill': 'apply' });
    expect(plan.conflicts).toEqual([{ path: 'supplier', base: 'A', mine: 'Mine', theirs: 'Server' }]);
    expect(plan.apply).toEqual({ 'circular.landfill': 0.2 });
  });

  it('reports a field missing on one side as null', () => {
    const plan = planMerge({}, { floor: '02' }, { floor: '01' });

    expect(plan.conflicts).toEqual([{ path: 'floor', base: null, mine: '01', theirs: '02' }]);
  });

  it('keeps the server value of a field changed here and back again', () => {
    const plan = planMerge(base, { ...base, supplier: 'Server' }, { supplier: 'A' });

    expect(plan).toEqual({ decisions: { supplier: 'unchanged' }, apply: {}, conflicts: [] });
  });
});
