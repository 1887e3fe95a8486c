import { describe, expect, it } from 'vitest';
import { distinctionsOf, type CatalogueListItem } from '../../../../../renderer/views/catalogues/catalogue-list';

function item(id: string, name: string, fields: Partial<CatalogueListItem> = {}): CatalogueListItem {
  return { id, name, names: { en: name }, detail: 'stone', supplier: '', changed: false, local: false, ...fields };
}

describe('what tells apart catalogue items of the same name', () => {
  it('is nothing for a name of its own, whatever its case or accents', () => {
    expect(distinctionsOf([item('1', 'Brick'), item('2', 'Béton'), item('3', 'Steel')], 'en').size).toBe(0);
    expect(distinctionsOf([item('1', 'Beton'), item('2', 'béton')], 'en').size).toBe(2);
  });

  it('is the first of family, supplier, name in another language and id that differs for every one of them', () => {
    const byFamily = distinctionsOf([item('1', 'Pumice', { detail: 'stone' }), item('2', 'Pumice', { detail: 'glass' })], 'en');
    expect([...byFamily.values()]).toEqual([
      { kind: 'detail', text: 'stone' },
      { kind: 'detail', text: 'glass' },
    ]);
    const bySupplier = distinctionsOf([item('1', 'Adhesive', { supplier: 'Bostik' }), item('2', 'Adhesive', { supplier: 'Sika' })], 'en');
    expect(bySupplier.get('2')).toEqual({ kind: 'supplier', text: 'Sika' });
    const pine = ['Naaldhout - grenen', 'Naaldhout', 'Naaldhout - dennen'].map((dutch, index) =>
      item(`p${index}`, 'Pine wood', { names: { en: 'Pine wood', nl: dutch } }),
    );
    expect(distinctionsOf(pine, 'en').get('p2')).toEqual({ kind: 'name', language: 'nl', text: 'Naaldhout - dennen' });
    // In Dutch the English names are all alike: only the ids differ.
    const marmoleum = [item('6b1c0a7e-1', 'Marmoleum'), item('0c9d4e2f-2', 'Marmoleum')];
    expect(distinctionsOf(marmoleum, 'nl').get('0c9d4e2f-2')).toEqual({ kind: 'id', text: '0c9d4e2f' });
  });

  it('gives whole ids when their first characters are alike', () => {
    const distinctions = distinctionsOf([item('abcdefgh-1', 'Slate'), item('abcdefgh-2', 'Slate')], 'en');
    expect(distinctions.get('abcdefgh-2')).toEqual({ kind: 'id', text: 'abcdefgh-2' });
  });
});
