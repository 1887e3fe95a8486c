/**
 * The words of a catalogue item's figures: field labels by the API's field name, the circular block's sections, units,
 * and the reasons a value is refused or looks wrong. Every text is a literal key, so the i18n checks find unused and
 * missing ones.
 */
import { computed } from 'vue';
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import type { CircularSection, FigureError, FigureUnit, FigureWarning } from './catalogue-form';

/** The labels and formatters of a catalogue item's figures; call from a component's setup. */
export function useFigureLabels() {
  const { t, n } = useI18n();

  /** Field labels by the last part of their path (`circular.recycledPercentageFeedstock` → its name). */
  const fieldLabels = computed<Record<string, string>>(() => ({
    elementFamily: t('catalogues.field.elementFamily'),
    supplier: t('catalogues.field.supplier'),
    priceSetId: t('catalogues.field.priceSetId'),
    productCode: t('catalogues.field.productCode'),
    specificWeight: t('catalogues.field.specificWeight'),
    lifeTime: t('catalogues.field.lifeTime'),
    recycledPercentageFeedstock: t('catalogues.field.recycledPercentageFeedstock'),
    rapidRenewablesPercentageFeedstock: t('catalogues.field.rapidRenewablesPercentageFeedstock'),
    virginPercentageFeedstock: t('catalogues.field.virginPercentageFeedstock'),
    recycledPercentageEndOfLife: t('catalogues.field.recycledPercentageEndOfLife'),
    landfillPercentageEndOfLife: t('catalogues.field.landfillPercentageEndOfLife'),
    incinerationPercentageEndOfLife: t('catalogues.field.incinerationPercentageEndOfLife'),
    efficiencyPercentageRecyclingFeedstock: t('catalogues.field.efficiencyPercentageRecyclingFeedstock'),
    efficiencyPercentageRecyclingEndOfLife: t('catalogues.field.efficiencyPercentageRecyclingEndOfLife'),
    transportCosts: t('catalogues.field.transportCosts'),
    handlingFeedstockEuroKg: t('catalogues.field.handlingFeedstockEuroKg'),
    handlingFeedstockPercentage: t('catalogues.field.handlingFeedstockPercentage'),
    technicalLifetime: t('catalogues.field.technicalLifetime'),
    functionalLifetime: t('catalogues.field.functionalLifetime'),
    productReusedPercentageFeedstock: t('catalogues.field.productReusedPercentageFeedstock'),
    productRecycledPercentageFeedstock: t('catalogues.field.productRecycledPercentageFeedstock'),
    productRapidRenewablesPercentageFeedstock: t('catalogues.field.productRapidRenewablesPercentageFeedstock'),
    productVirginPercentageFeedstock: t('catalogues.field.productVirginPercentageFeedstock'),
    productReusedPercentageEndOfLife: t('catalogues.field.productReusedPercentageEndOfLife'),
    productRecycledPercentageEndOfLife: t('catalogues.field.productRecycledPercentageEndOfLife'),
    productLandfillPercentageEndOfLife: t('catalogues.field.productLandfillPercentageEndOfLife'),
    productIncinerationPercentageEndOfLife: t('catalogues.field.productIncinerationPercentageEndOfLife'),
  }));

  /** The label of a field by its path. */
  function fieldLabel(path: string): string {
    const name = path.slice(path.lastIndexOf('.') + 1);
    return fieldLabels.value[name] ?? name;
  }

  /** The heading of a part of the circular block. */
  function sectionLabel(section: CircularSection): string {
    switch (section) {
      case 'feedstock':
        return t('catalogues.section.feedstock');
      case 'endOfLife':
        return t('catalogues.section.endOfLife');
      case 'efficiency':
        return t('catalogues.section.efficiency');
      case 'lifetimes':
        return t('catalogues.section.lifetimes');
      case 'productFeedstock':
        return t('catalogues.section.productFeedstock');
      case 'productEndOfLife':
        return t('catalogues.section.productEndOfLife');
      default:
        return assertNever(section, 'circular section');
    }
  }

  /** The unit a figure is edited in, as shown after its value. */
  function unitLabel(unit: FigureUnit): string {
    switch (unit) {
      case 'percent':
        return '%';
      case 'years':
        return t('catalogues.unit.years');
      case 'kgPerM3':
        return 'kg/m³';
      case 'eurPerKg':
        return '€/kg';
      case 'number':
        return '';
      default:
        return assertNever(unit, 'figure unit');
    }
  }

  /** A value in the form's units, with its unit: "100 %", "1,000 years". */
  function withUnit(value: number, unit: FigureUnit): string {
    const number = n(value, 'quantity');
    const label = unitLabel(unit);
    return label === '' ? number : `${number} ${label}`;
  }

  /** Why a figure is refused, in words. */
  function figureErrorText(error: FigureError | undefined, unit: FigureUnit): string | undefined {
    if (error === undefined) return undefined;
    switch (error.kind) {
      case 'notFinite':
        return t('catalogues.error.notFinite');
      case 'notInteger':
        return t('catalogues.error.notInteger');
      case 'below':
        return t('catalogues.error.below', { limit: withUnit(error.limit, unit) });
      case 'above':
        return t('catalogues.error.above', { limit: withUnit(error.limit, unit) });
      default:
        return assertNever(error, 'figure error');
    }
  }

  /** A likely mistake in a figure, in words. */
  function figureWarningText(warning: FigureWarning | undefined): string | undefined {
    if (warning === undefined) return undefined;
    switch (warning) {
      case 'outsideWhole':
        return t('catalogues.warning.outsideWhole');
      case 'negative':
        return t('catalogues.warning.negative');
      default:
        return assertNever(warning, 'figure warning');
    }
  }

  return { fieldLabel, sectionLabel, unitLabel, withUnit, figureErrorText, figureWarningText };
}
