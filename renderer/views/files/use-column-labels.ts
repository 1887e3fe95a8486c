/** The grid's column names in the current language: the element's field names, and those of the id and the mapping. */
import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import type { ElementColumnKey } from './element-columns';
import { useElementLabels } from './use-element-labels';

/** Every column's name. */
export function useColumnLabels(): ComputedRef<Record<ElementColumnKey, string>> {
  const { t } = useI18n();
  const fieldLabels = useElementLabels();
  return computed(() => {
    const { phaseLookup, classificationLookup, ...sameNamed } = fieldLabels.value;
    return { ...sameNamed, id: t('element.id'), mapping: t('grid.mapping'), phase: phaseLookup, classification: classificationLookup };
  });
}
