/**
 * The words of why elements do not count in the circularity index (shared/counting.ts), with their number: the file
 * row's summary and the dashboard say them alike. Every text is a literal key.
 */
import { useI18n } from 'vue-i18n';
import type { ElementReason } from '../../shared/status-messages';

export function useCountWords() {
  const { t, n } = useI18n();

  /** "20 have no mass (their material has no specific weight)". */
  function reasonText(reason: ElementReason, elements: number): string {
    const named = { count: n(elements, 'integer') };
    switch (reason) {
      case 'no-material':
        return t('statusMessage.counts.noMaterial', named, elements);
      case 'no-quantity':
        return t('statusMessage.counts.noQuantity', named, elements);
      case 'no-mass':
        return t('statusMessage.counts.noMass', named, elements);
      case 'no-building-layer':
        return t('statusMessage.counts.noBuildingLayer', named, elements);
      case 'no-circular-data':
        return t('statusMessage.counts.noCircularData', named, elements);
    }
  }

  return { reasonText };
}
