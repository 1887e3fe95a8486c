/**
 * The group of the import report the file page opened on (`?focus=`, element-focus.ts): put into the grid's query,
 * named in the user's words (an item by its name, a class and type name as the report says them), and left by going
 * back to the whole file.
 */
import { computed, watch } from 'vue';
import { useI18n } from 'vue-i18n';
import { useRoute, useRouter } from 'vue-router';
import { useMappingNames } from '../../components/use-mapping-names';
import { focusOf } from './element-focus';
import type { ElementQuery } from './element-view';
import { useGroupWords } from './use-group-words';

export function useReportFocus(query: ElementQuery) {
  const { t } = useI18n();
  const route = useRoute();
  const router = useRouter();
  const focus = computed(() => focusOf(route.query['focus']));
  watch(
    focus,
    (value) => {
      query.focus = value;
    },
    { immediate: true },
  );
  const { mappingText, mappingLanguage } = useMappingNames(() => (focus.value?.kind === 'mapped-to' ? [focus.value.itemId] : []));
  const { classAndType } = useGroupWords();
  const focusText = computed(() => {
    const shown = focus.value;
    if (shown === null) return '';
    return shown.kind === 'mapped-to' ? t('importReport.focusMappedTo', { name: mappingText({ id: shown.itemId }) }) : classAndType(shown);
  });

  /** The language the focused item's name is shown in when it is not the user's, for a mark; else null. */
  const focusLanguage = computed(() => (focus.value?.kind === 'mapped-to' ? mappingLanguage({ id: focus.value.itemId }) : null));

  function clearFocus(): void {
    void router.replace({ query: {} });
  }

  return { focus, focusText, focusLanguage, clearFocus };
}
