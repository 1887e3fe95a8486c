/**
 * The words that tell catalogue items apart where elements are mapped (the catalogue picker, the import report's
 * groups): a product's type, an item's mass per unit of what it is measured by, its database, and a measure. Every
 * text is a literal key, so the i18n checks find unused and missing ones.
 */
import { useI18n } from 'vue-i18n';
import { ElementType, ProductType } from '../../shared/api/enums';
import { measureOf, type Measure } from '../../shared/counting';
import type { CatalogueDatabase } from '../stores/catalogues';

/** Which database an item is in, as the report names it: an item the app does not hold is another account's. */
export type ItemDatabase = CatalogueDatabase | 'other';

export function useCatalogueWords() {
  const { t, n } = useI18n();

  function productType(type: number): string {
    switch (type) {
      case ProductType.VolumeProduct:
        return t('catalogues.productType.VolumeProduct');
      case ProductType.QuantityProduct:
        return t('catalogues.productType.QuantityProduct');
      case ProductType.AreaProduct:
        return t('catalogues.productType.AreaProduct');
      case ProductType.LengthProduct:
        return t('catalogues.productType.LengthProduct');
      default:
        return t('pickers.product');
    }
  }

  /** The unit of a measure after "kg/" (m³, m², m, piece). */
  function unit(measure: Measure): string {
    switch (measure) {
      case 'volume':
        return t('pickers.unit.volume');
      case 'area':
        return t('pickers.unit.area');
      case 'length':
        return t('pickers.unit.length');
      case 'piece':
        return t('pickers.unit.piece');
    }
  }

  /** What an element lacks when it has no quantity of a measure. */
  function measure(value: Measure): string {
    switch (value) {
      case 'volume':
        return t('pickers.measure.volume');
      case 'area':
        return t('pickers.measure.area');
      case 'length':
        return t('pickers.measure.length');
      case 'piece':
        return t('pickers.measure.piece');
    }
  }

  /**
   * An item's mass per unit (`type` its mapping type: 10 a material, else a ProductType): "2,400 kg/m³", "no specific
   * weight", "no mass per m²", or, for a product whose children the app does not hold, that it cannot tell.
   */
  function massPerUnit(value: number | null, type: number | null): string {
    if (value === null) return t('pickers.compositionUnknown');
    const per = measureOf(type ?? ElementType.Material) ?? 'volume';
    if (value > 0) return t('pickers.kgPerUnit', { mass: n(value, 'quantity'), unit: unit(per) });
    return type === ElementType.Material ? t('pickers.noSpecificWeight') : t('pickers.noMassPer', { unit: unit(per) });
  }

  function database(value: ItemDatabase): string {
    switch (value) {
      case 'own':
        return t('pickers.database.own');
      case 'platform':
        return t('pickers.database.platform');
      case 'other':
        return t('pickers.database.other');
    }
  }

  return { productType, massPerUnit, database, measure };
}
