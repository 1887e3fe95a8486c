/**
 * The words of the catalogue screens that depend on a value: the enum values here, with the figures' words (field
 * labels, units, the reasons a value is refused) of `use-figure-labels.ts`. Every text is a literal key, so the i18n
 * checks find unused and missing ones.
 */
import { computed } from 'vue';
import { useI18n } from 'vue-i18n';
import { FinancialImportType, MatchType, PriceUnit, ProductType } from '../../../shared/api/enums';
import { useFigureLabels } from './use-figure-labels';

/** The labels and formatters of the catalogue screens; call from a component's setup. */
export function useCatalogueLabels() {
  const { t } = useI18n();

  const importTypeLabels = computed<Record<FinancialImportType, string>>(() => ({
    [FinancialImportType.None]: t('catalogues.importType.None'),
    [FinancialImportType.Manual]: t('catalogues.importType.Manual'),
    [FinancialImportType.Automatic]: t('catalogues.importType.Automatic'),
    [FinancialImportType.AutomaticIndex]: t('catalogues.importType.AutomaticIndex'),
  }));

  const productTypeLabels = computed<Record<ProductType, string>>(() => ({
    [ProductType.VolumeProduct]: t('catalogues.productType.VolumeProduct'),
    [ProductType.QuantityProduct]: t('catalogues.productType.QuantityProduct'),
    [ProductType.AreaProduct]: t('catalogues.productType.AreaProduct'),
    [ProductType.LengthProduct]: t('catalogues.productType.LengthProduct'),
  }));

  const matchTypeLabels = computed<Record<MatchType, string>>(() => ({
    [MatchType.Contains]: t('catalogues.matchType.Contains'),
    [MatchType.Equals]: t('catalogues.matchType.Equals'),
    [MatchType.StartWith]: t('catalogues.matchType.StartWith'),
    [MatchType.EndsWith]: t('catalogues.matchType.EndsWith'),
    [MatchType.Ean]: t('catalogues.matchType.Ean'),
  }));

  const priceUnitLabels = computed<Record<PriceUnit, string>>(() => ({
    [PriceUnit.mt]: t('catalogues.priceUnit.mt'),
    [PriceUnit.kg]: t('catalogues.priceUnit.kg'),
    [PriceUnit.m3]: t('catalogues.priceUnit.m3'),
    [PriceUnit.lb]: t('catalogues.priceUnit.lb'),
    [PriceUnit.toz]: t('catalogues.priceUnit.toz'),
    [PriceUnit.index]: t('catalogues.priceUnit.index'),
  }));

  return { ...useFigureLabels(), importTypeLabels, productTypeLabels, matchTypeLabels, priceUnitLabels };
}
