/**
 * Which of a page's popovers is open: at most one, opening one closes the others, and Escape closes it. Escape is
 * listened for on the document: a popover's content lives outside the page, and Escape is pressed wherever the focus is.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';

export function useOpenPopover<Popover extends string>() {
  const openPopover = ref(null) as Ref<Popover | null>;

  function showPopover(popover: Popover, show: boolean): void {
    if (show) openPopover.value = popover;
    else if (openPopover.value === popover) openPopover.value = null;
  }

  function closePopoverOnEscape(event: KeyboardEvent): void {
    if (event.key === 'Escape') openPopover.value = null;
  }
  onMounted(() => document.addEventListener('keydown', closePopoverOnEscape));
  onBeforeUnmount(() => document.removeEventListener('keydown', closePopoverOnEscape));

  return { openPopover, showPopover };
}
