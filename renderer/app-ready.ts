/**
 * The signal that the first screen is there: `data-app-ready="true"` on `#app` once the first page has mounted and
 * its first load finished or failed. The end-to-end tests wait on it instead of sleeping.
 */

/** The attribute's name on the root element, as a CSS selector would write it. */
export const APP_READY_ATTRIBUTE = 'data-app-ready';

/** Marks the page ready; later calls (other pages, reloads) change nothing. */
export function markAppReady(root: HTMLElement | null = document.getElementById('app')): void {
  if (root !== null && root.getAttribute(APP_READY_ATTRIBUTE) !== 'true') root.setAttribute(APP_READY_ATTRIBUTE, 'true');
}
