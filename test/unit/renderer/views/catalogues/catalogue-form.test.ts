import { describe, expect, it } from 'vitest';
import { FinancialImportType, ProductType } from '../../../../../shared/api/enums';
import type { Material, Product } from '../../../../../shared/api/schemas';
import {
  circularSections,
  displayName,
  emptyItemForm,
  FIGURES,
  figureError,
  isItemValid,
  itemChangesOf,
  itemErrors,
  itemFormOf,
  itemWarnings,
  LANGUAGES,
  parseNumberText,
  type FigureSpec,
} from '../../../../../renderer/views/catalogues/catalogue-form';

function spec(kind: 'materials' | 'products', path: string): FigureSpec {
  const found = FIGURES[kind].find((each) => each.path === path);
  if (found === undefined) throw new Error(`No figure ${path}.`);
  return found;
}

const CONCRETE: Material = {
  id: '6bcc854c-87e1-42c1-899f-9c4ad2665e77',
  name: { nl: 'Beton', en: 'Concrete' },
  elementFamily: 'stone',
  description: { en: 'Cast in place' },
  supplier: null,
  specificWeight: 2400,
  lifeTime: 100,
  circular: {
    recycledPercentageFeedstock: 0.07,
    rapidRenewablesPercentageFeedstock: 0,
    virginPercentageFeedstock: 0.93,
    recycledPercentageEndOfLife: 0.9,
    landfillPercentageEndOfLife: 0.1,
    incinerationPercentageEndOfLife: 0,
    efficiencyPercentageRecyclingFeedstock: 0.75,
    efficiencyPercentageRecyclingEndOfLife: null,
  },
  financial: { importType: FinancialImportType.Manual, priceSetId: 'CONCRETE', transportCosts: 0.01, handlingFeedstockEuroKg: 0, handlingFeedstockPercentage: 0.35 },
};

describe('the figures of the forms', () => {
  it('take their limits from the request schemas, in wire units', () => {
    expect(spec('materials', 'circular.recycledPercentageFeedstock')).toEqual({
      path: 'circular.recycledPercentageFeedstock',
      group: 'circular',
      unit: 'percent',
      limits: { minimum: 0, maximum: 1, integer: false },
    });
    // Spec §2.9 leaves virgin and incineration open.
    expect(spec('materials', 'circular.virginPercentageFeedstock').limits).toEqual({ integer: false });
    expect(spec('materials', 'lifeTime')).toMatchObject({ group: 'identity', unit: 'years', limits: { minimum: 0, integer: true } });
    expect(spec('materials', 'specificWeight')).toMatchObject({ unit: 'kgPerM3', limits: { minimum: 0, integer: false } });
    expect(spec('materials', 'financial.transportCosts')).toMatchObject({ group: 'financial', unit: 'eurPerKg', limits: { integer: false } });
    expect(spec('products', 'circular.technicalLifetime')).toMatchObject({ unit: 'years', limits: { minimum: 0, maximum: 1000, integer: true } });
    expect(spec('products', 'circular.productReusedPercentageEndOfLife').limits).toEqual({ minimum: 0, maximum: 1, integer: false });
    expect(spec('products', 'circular.productRecycledPercentageEndOfLife').limits).toEqual({ integer: false });
  });

  it('are grouped into the parts of the circular block', () => {
    expect(circularSections('materials').map(({ section, specs }) => [section, specs.length])).toEqual([
      ['feedstock', 3],
      ['endOfLife', 3],
      ['efficiency', 2],
    ]);
    expect(circularSections('products').map(({ section, specs }) => [section, specs.length])).toEqual([
      ['feedstock', 3],
      ['endOfLife', 3],
      ['efficiency', 2],
      ['lifetimes', 2],
      ['productFeedstock', 4],
      ['productEndOfLife', 4],
    ]);
  });
});

describe('the form of an item', () => {
  it('shows fractions as percentages and every language of the name', () => {
    const form = itemFormOf('materials', CONCRETE);
    expect(form.figures['circular.recycledPercentageFeedstock']).toBe(7);
    expect(form.figures['financial.handlingFeedstockPercentage']).toBe(35);
    expect(form.figures['specificWeight']).toBe(2400);
    expect(form.figures['circular.efficiencyPercentageRecyclingEndOfLife']).toBeNull();
    expect(form.name).toEqual({ nl: 'Beton', en: 'Concrete', de: '', it: '', fr: '', es: '' });
    expect(form.texts).toEqual({ elementFamily: 'stone', supplier: '', 'financial.priceSetId': 'CONCRETE' });
    expect(form.choice).toBe(FinancialImportType.Manual);
    expect(LANGUAGES).toEqual(['nl', 'en', 'de', 'it', 'fr', 'es']);
  });

  it('changes only what the user changed, in the API’s terms', () => {
    const before = itemFormOf('materials', CONCRETE);
    expect(itemChangesOf('materials', before, structuredClone(before))).toEqual({});
    const after = structuredClone(before);
    after.name.de = ' Beton ';
    after.name.en = '';
    after.texts['elementFamily'] = '  ';
    after.figures['circular.recycledPercentageFeedstock'] = 12.5;
    after.figures['lifeTime'] = null;
    after.choice = FinancialImportType.Automatic;
    expect(itemChangesOf('materials', before, after)).toEqual({
      name: { de: 'Beton', en: '' },
      elementFamily: null,
      circular: { recycledPercentageFeedstock: 0.125 },
      lifeTime: null,
      financial: { importType: FinancialImportType.Automatic },
    });
  });

  it('makes a new item of what was filled in; a material imports no prices unless told', () => {
    const form = emptyItemForm('materials');
    form.name.en = 'Reclaimed brick';
    form.figures['circular.recycledPercentageEndOfLife'] = 80;
    expect(itemChangesOf('materials', emptyItemForm('materials'), form)).toEqual({
      name: { en: 'Reclaimed brick' },
      circular: { recycledPercentageEndOfLife: 0.8 },
    });
    expect(form.choice).toBe(FinancialImportType.None);
    expect(emptyItemForm('products').choice).toBeNull();
  });
});

describe('validation as the user types', () => {
  it('refuses values outside the schema’s limits, naming the limit in the form’s units', () => {
    const recycled = spec('materials', 'circular.recycledPercentageFeedstock');
    expect(figureError(recycled, 100)).toBeUndefined();
    expect(figureError(recycled, 100.5)).toEqual({ kind: 'above', limit: 100 });
    expect(figureError(recycled, -1)).toEqual({ kind: 'below', limit: 0 });
    expect(figureError(recycled, Number.NaN)).toEqual({ kind: 'notFinite' });
    expect(figureError(recycled, null)).toBeUndefined();
    const lifetime = spec('products', 'circular.functionalLifetime');
    expect(figureError(lifetime, 1000)).toBeUndefined();
    expect(figureError(lifetime, 1001)).toEqual({ kind: 'above', limit: 1000 });
    expect(figureError(lifetime, 12.5)).toEqual({ kind: 'notInteger' });
    expect(figureError(spec('materials', 'specificWeight'), -0.1)).toEqual({ kind: 'below', limit: 0 });
  });

  it('requires a name in some language, and the type of a new product', () => {
    const product = emptyItemForm('products');
    expect(itemErrors('products', product, true)).toEqual({ figures: {}, nameMissing: true, choiceMissing: true });
    product.name.fr = 'Fenêtre';
    product.choice = ProductType.QuantityProduct;
    product.figures['circular.technicalLifetime'] = 2000;
    const errors = itemErrors('products', product, true);
    expect(errors).toEqual({ figures: { 'circular.technicalLifetime': { kind: 'above', limit: 1000 } }, nameMissing: false, choiceMissing: false });
    expect(isItemValid(errors)).toBe(false);
    product.figures['circular.technicalLifetime'] = 30;
    expect(isItemValid(itemErrors('products', product, true))).toBe(true);
  });

  it('warns of shares the API takes but the method cannot use', () => {
    const form = emptyItemForm('materials');
    form.figures['circular.virginPercentageFeedstock'] = 150;
    form.figures['circular.recycledPercentageFeedstock'] = 60;
    form.figures['financial.transportCosts'] = -2;
    form.figures['circular.recycledPercentageEndOfLife'] = 100;
    const warnings = itemWarnings('materials', form);
    expect(warnings.figures).toEqual({ 'circular.virginPercentageFeedstock': 'outsideWhole', 'financial.transportCosts': 'negative' });
    expect(warnings.sums).toEqual([{ section: 'feedstock', total: 210 }]);
    // A refused value is an error, not also a warning.
    form.figures['circular.recycledPercentageFeedstock'] = 120;
    expect(itemWarnings('materials', form).figures['circular.recycledPercentageFeedstock']).toBeUndefined();
  });
});

describe('parseNumberText', () => {
  it('reads a decimal comma or point, and says when the text is not a number', () => {
    expect(parseNumberText('0,35')).toBe(0.35);
    expect(parseNumberText(' 1.5 ')).toBe(1.5);
    expect(parseNumberText('-2')).toBe(-2);
    expect(parseNumberText('1e3')).toBe(1000);
    expect(parseNumberText('19 200')).toBe(19200);
    expect(parseNumberText('')).toBeNull();
    expect(parseNumberText('abc')).toBeNaN();
    expect(parseNumberText('1,234.5')).toBeNaN();
    expect(parseNumberText('12%')).toBeNaN();
  });
});

describe('displayName', () => {
  it('takes the language asked for, else English, else the first language that has a name', () => {
    const product: Pick<Product, 'name'> = { name: { nl: 'Kozijn', en: '', fr: 'Fenêtre' } };
    expect(displayName(product.name, 'nl')).toBe('Kozijn');
    expect(displayName(product.name, 'de')).toBe('Kozijn');
    expect(displayName({ de: 'Fenster', en: 'Window' }, 'es')).toBe('Window');
    expect(displayName({}, 'en')).toBe('');
    expect(displayName(undefined, 'en')).toBe('');
  });
});
