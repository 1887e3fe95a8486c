/** The names of an element's fields in the current language, written out so each text is a literal i18n key. */
import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import type { ElementFormField } from './element-form';

/** Every field's name, as the element form, the bulk edit and the grid's columns show it. */
export function useElementLabels(): ComputedRef<Record<ElementFormField, string>> {
  const { t } = useI18n();
  return computed(() => ({
    name: t('element.name'),
    materialName: t('element.materialName'),
    typeName: t('element.typeName'),
    elementClass: t('element.elementClass'),
    floor: t('element.floor'),
    phaseLookup: t('element.phaseLookup'),
    classificationLookup: t('element.classificationLookup'),
    volume: t('element.volume'),
    area: t('element.area'),
    height: t('element.height'),
    width: t('element.width'),
    length: t('element.length'),
    weight: t('element.weight'),
  }));
}
