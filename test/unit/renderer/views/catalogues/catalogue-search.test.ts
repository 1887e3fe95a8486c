import { describe, expect, it } from 'vitest';
import { ProductType } from '../../../../../shared/api/enums';
import type { MaterialRow, ProductRow } from '../../../../../renderer/db/schema';
import { fold, matchesWords, queryWords, searchTextOf } from '../../../../../renderer/views/catalogues/catalogue-search';

const material = { id: 'abc-1', name: { nl: 'Gewapend beton', fr: 'Béton armé' }, supplier: 'Mebin', elementFamily: 'stone' } as unknown as MaterialRow;
const product = { id: 'p-2', name: { en: 'Window frame' }, supplier: null, productCode: '8712345678906', type: ProductType.QuantityProduct } as unknown as ProductRow;

describe('the catalogue search', () => {
  it('ignores case and accents', () => {
    expect(fold('Béton ARMÉ')).toBe('beton arme');
    expect(queryWords('  Béton   Armé ')).toEqual(['beton', 'arme']);
    expect(queryWords('   ')).toEqual([]);
  });

  it('looks in every language of the name, the supplier, the family, the product code and the id', () => {
    const text = searchTextOf(material);
    expect(matchesWords(text, queryWords('beton arme'))).toBe(true);
    expect(matchesWords(text, queryWords('gewapend mebin'))).toBe(true);
    expect(matchesWords(text, queryWords('stone abc-1'))).toBe(true);
    expect(matchesWords(text, queryWords('beton steel'))).toBe(false);
    expect(matchesWords(searchTextOf(product), queryWords('87123 frame'))).toBe(true);
    expect(matchesWords(searchTextOf(product), [])).toBe(true);
  });
});
