/**
 * Puts the focus on the first field of a form when it opens, rather than on the close button of the drawer around it:
 * the user opened the form to type. Drawers that hold such a form leave their own first focus off (`auto-focus`).
 */
import { nextTick, onMounted, type Ref } from 'vue';

const FIELD = 'input:not([disabled]):not([readonly]):not([type="checkbox"]), textarea:not([disabled]):not([readonly])';

/** Focuses the first field inside `root` once the component that calls it is mounted. */
export function useFirstFieldFocus(root: Ref<{ $el: unknown } | null>): void {
  onMounted(async () => {
    await nextTick();
    const element = root.value?.$el;
    if (element instanceof Element) element.querySelector<HTMLElement>(FIELD)?.focus();
  });
}
