/**
 * The names of the import report's groups of elements (shared/counting.ts): a material name; where the model names
 * none, the IFC class and type name ("IfcDoor · Single-Flush 0915 x 2134mm"), or what of them it has.
 */
import { useI18n } from 'vue-i18n';
import type { ElementGroupKey } from '../../../shared/counting';

export function useGroupWords() {
  const { t } = useI18n();

  /** A group by IFC class and type name, with words for what the model leaves out. */
  function classAndType(key: Pick<ElementGroupKey, 'elementClass' | 'typeName'>): string {
    if (key.elementClass === null && key.typeName === null) return t('importReport.noClassOrType');
    return [key.elementClass ?? t('importReport.noElementClass'), key.typeName ?? t('importReport.noTypeName')].join(' · ');
  }

  /** A group of unmapped elements: its material name, else its IFC class and type name. */
  function unmappedName(key: ElementGroupKey): string {
    return key.materialName ?? classAndType(key);
  }

  return { classAndType, unmappedName };
}
