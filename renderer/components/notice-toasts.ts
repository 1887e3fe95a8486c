/**
 * Where and how long the host's notices show as toasts. They stack in the bottom-left corner, below the navigation
 * and away from the drawers and dialogs whose buttons sit on the right; no more than a few at once, and every one goes
 * away by itself: what stays is the Activity screen's history.
 */
import type { NotificationPlacement } from 'naive-ui';
import type { NoticeKind } from '../../shared/ipc';

/** The corner the toasts stack in. */
export const TOAST_PLACEMENT: NotificationPlacement = 'bottom-left';

/** The most toasts shown at once; older ones make room. */
export const TOAST_MAX = 3;

/** How long a toast stays, in ms: errors a little longer, to be read. */
export function toastDuration(kind: NoticeKind): number {
  return kind === 'error' ? 10_000 : 6_000;
}
