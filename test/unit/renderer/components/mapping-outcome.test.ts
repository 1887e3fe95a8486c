import { describe, expect, it } from 'vitest';
import { ElementDimensionType, ProductType } from '../../../../shared/api/enums';
import type { ProductChild } from '../../../../shared/api/schemas';
import { massPerUnit, mappingOutcome, type CachedCatalogue } from '../../../../renderer/components/mapping-outcome';
import type { MaterialRow, ProductRow } from '../../../../renderer/db/schema';

const material = (id: string, specificWeight: number | null) => ({ id, specificWeight }) as MaterialRow;
const product = (id: string, type: number, defaultDimensions: ProductRow['defaultDimensions'] = []) => ({ id, type, defaultDimensions }) as ProductRow;
const child = (childId: string, value: number | null) => ({ childId, value }) as ProductChild;

const catalogue: CachedCatalogue = {
  materials: new Map([
    ['oak', material('oak', 700)],
    ['bare', material('bare', null)],
  ]),
  products: new Map([
    ['frame', product('frame', ProductType.VolumeProduct)],
    ['panel', product('panel', ProductType.AreaProduct, [{ dimensionType: ElementDimensionType.Area, dimensionValue: 2 }])],
    ['door', product('door', ProductType.QuantityProduct)],
    ['empty', product('empty', ProductType.VolumeProduct)],
    ['unloaded', product('unloaded', ProductType.VolumeProduct)],
    ['loop', product('loop', ProductType.QuantityProduct)],
  ]),
  children: new Map([
    ['frame', [child('oak', 700)]],
    ['panel', [child('oak', 30), child('bare', 10)]],
    ['door', [child('frame', 0.05), child('panel', 2)]],
    ['empty', [child('bare', null)]],
    ['loop', [child('loop', 1)]],
  ]),
};

describe('massPerUnit', () => {
  it('is a material’s specific weight, and a product’s composition per its measure’s unit', () => {
    expect(massPerUnit(catalogue, 'materials', 'oak')).toBe(700);
    expect(massPerUnit(catalogue, 'materials', 'bare')).toBe(0);
    expect(massPerUnit(catalogue, 'products', 'frame')).toBe(700);
    // Children's amounts are for the default dimension of two m².
    expect(massPerUnit(catalogue, 'products', 'panel')).toBe(20);
    expect(massPerUnit(catalogue, 'products', 'door')).toBeCloseTo(0.05 * 700 + 2 * 20, 9);
    expect(massPerUnit(catalogue, 'products', 'empty')).toBe(0);
    expect(massPerUnit(catalogue, 'products', 'loop')).toBe(0);
  });

  it('cannot tell for a product whose children the app does not hold', () => {
    expect(massPerUnit(catalogue, 'products', 'unloaded')).toBeNull();
    expect(massPerUnit(catalogue, 'products', 'unknown')).toBeNull();
  });
});

describe('mappingOutcome', () => {
  const elements = [{ volume: 1 }, { volume: 2, weight: 50 }, { area: 3 }, {}];

  it('counts the elements a material without a specific weight leaves without a mass, and those it cannot measure', () => {
    expect(mappingOutcome(catalogue, 'materials', 'bare', elements)).toEqual({ measure: 'volume', withoutMass: 1, withoutQuantity: 2 });
    expect(mappingOutcome(catalogue, 'materials', 'oak', elements)).toEqual({ measure: 'volume', withoutMass: 0, withoutQuantity: 2 });
  });

  it('measures elements as the product’s type does, and says nothing where it cannot tell', () => {
    expect(mappingOutcome(catalogue, 'products', 'panel', elements)).toEqual({ measure: 'area', withoutMass: 0, withoutQuantity: 2 });
    expect(mappingOutcome(catalogue, 'products', 'door', elements)).toEqual({ measure: 'piece', withoutMass: 0, withoutQuantity: 0 });
    expect(mappingOutcome(catalogue, 'products', 'empty', elements)).toEqual({ measure: 'volume', withoutMass: 1, withoutQuantity: 2 });
    expect(mappingOutcome(catalogue, 'products', 'unloaded', elements)).toBeNull();
  });
});
