/**
 * The checks of a catalogue item's drafts as the user types: the form's errors and warnings, each list's errors, how
 * many errors each tab holds, and whether the item can be saved.
 */
import { computed, type Ref } from 'vue';
import type { CacheQuery } from '../../components/use-cache-query';
import { FIGURES, isItemValid, itemErrors, itemWarnings } from './catalogue-form';
import { anyErrors, childErrors, matchErrors, valueErrors } from './catalogue-list-forms';
import { childContextOf, type CatalogueIndex } from './use-catalogue-index';
import type { ItemAddress } from './use-cached-item';
import type { ItemDrafts, ItemTab } from './use-item-drafts';

/** What is checked: the item's drafts, the catalogue its children must be in, and whether a price's date refuses a typed text. */
export interface CheckSource extends ItemAddress {
  drafts: ItemDrafts;
  index: CacheQuery<CatalogueIndex>;
  datesRefused: Readonly<Ref<boolean>>;
}

export function useItemChecks({ kind, itemId, isNew, drafts, index, datesRefused }: CheckSource) {
  const { form, matches, values, children, itemDirty } = drafts;

  const errors = computed(() => itemErrors(kind.value, form.value, isNew.value));
  // A new item says its name or product type is missing once the user changed something, not in red as it opens.
  const shownErrors = computed(() => (isNew.value && !itemDirty.value ? { ...errors.value, nameMissing: false, choiceMissing: false } : errors.value));
  const warnings = computed(() => itemWarnings(kind.value, form.value));
  const listErrors = computed(() => ({
    matches: matchErrors(matches.value),
    values: valueErrors(values.value),
    children: childErrors(children.value, childContextOf(index.value.value, isNew.value ? '' : itemId.value)),
  }));

  function figureErrorCount(group: string): number {
    return FIGURES[kind.value].filter((spec) => spec.group === group && shownErrors.value.figures[spec.path] !== undefined).length;
  }

  const tabErrors = computed<Record<ItemTab, number>>(() => ({
    general: figureErrorCount('identity') + (shownErrors.value.nameMissing ? 1 : 0) + (shownErrors.value.choiceMissing ? 1 : 0),
    circular: figureErrorCount('circular'),
    financial:
      figureErrorCount('financial') + listErrors.value.values.filter((each) => Object.keys(each).length > 0).length + (datesRefused.value ? 1 : 0),
    matches: listErrors.value.matches.filter((each) => each !== undefined).length,
    children: listErrors.value.children.filter((each) => Object.keys(each).length > 0).length,
  }));
  const valid = computed(
    () =>
      isItemValid(errors.value) &&
      !anyErrors(listErrors.value.matches) &&
      !anyErrors(listErrors.value.values) &&
      !anyErrors(listErrors.value.children) &&
      !datesRefused.value,
  );

  return { shownErrors, warnings, tabErrors, valid };
}
