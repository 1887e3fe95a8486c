/** The locks on every web contents and on the default session, whoever's page it shows. */
import type { Session, WebContents } from 'electron';
import { isAppUrl } from '../app-protocol';
import { CONTENT_SECURITY_POLICY } from '../content-security-policy';

/**
 * Locks every web contents down, the window's and any other: no webviews, no navigation away from the app's origin
 * (also not through a redirect), and no new windows.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  // Links to other sites are opened through the bridge's shell:open-external, which the renderer calls on a click.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Denies the page every permission (camera, notifications, clipboard reading, …) and sets the CSP on every response. */
export function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}
