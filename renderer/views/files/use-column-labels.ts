/** The grid's column names in the current language, written out so each text is a literal i18n key. */
import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import type { ElementColumnKey } from './element-columns';

/** Every column's name. */
export function useColumnLabels(): ComputedRef<Record<ElementColumnKey, string>> {
  const { t } = useI18n();
  return computed(() => ({
    id: t('element.id'),
    name: t('element.name'),
    materialName: t('element.materialName'),
    mapping: t('grid.mapping'),
    typeName: t('element.typeName'),
    elementClass: t('element.elementClass'),
    floor: t('element.floor'),
    phase: t('element.phaseLookup'),
    classification: t('element.classificationLookup'),
    volume: t('element.volume'),
    area: t('element.area'),
    height: t('element.height'),
    width: t('element.width'),
    length: t('element.length'),
    weight: t('element.weight'),
  }));
}
