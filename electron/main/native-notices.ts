/**
 * The services' notices as native notifications too (the window shows them in-app). Notifications on screen are held
 * so that one is not collected (and its click lost) while it is shown; the oldest are let go beyond a few, because not
 * every platform reports a notification that faded away.
 */
import type { Notification } from 'electron';
import type { Notice } from '../../shared/ipc';
import type { ElectronApi } from './electron-api';

const MAX_HELD_NOTIFICATIONS = 20;

/** Shows a notice as a native notification; a click on it calls `onClick`. */
export type ShowNativeNotice = (notice: Notice, onClick: () => void) => void;

export function nativeNotices(electron: ElectronApi): ShowNativeNotice {
  const shownNotifications = new Set<Notification>();
  return (notice, onClick) => {
    if (!electron.Notification.isSupported()) return;
    const notification = new electron.Notification({ title: notice.title, body: notice.message, silent: notice.kind !== 'error' });
    shownNotifications.add(notification);
    for (const oldest of shownNotifications) {
      if (shownNotifications.size <= MAX_HELD_NOTIFICATIONS) break;
      shownNotifications.delete(oldest);
    }
    notification.on('click', onClick);
    notification.on('close', () => shownNotifications.delete(notification));
    notification.show();
  };
}
