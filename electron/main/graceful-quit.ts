/**
 * A quit held until the app closed what it runs: the window hides at once, and the app quits once `close` ended or
 * `QUIT_TIMEOUT_MS` passed, whichever comes first.
 */
import type { App } from 'electron';
import { log } from './main-log';

/** A quit waits this long for the Local workspace to stop before it goes ahead anyway. */
const QUIT_TIMEOUT_MS = 20_000;

/** At the first quit, calls `hide` and runs `close` once, and quits when it ended. */
export function closeBeforeQuit(app: App, hide: () => void, close: () => Promise<void>): void {
  let quitState: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (quitState === 'closed') return;
    event.preventDefault();
    if (quitState === 'closing') return;
    quitState = 'closing';
    hide();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS).unref());
    Promise.race([close(), timeout])
      .catch((error: unknown) => log('Closing the app failed', error))
      .finally(() => {
        quitState = 'closed';
        app.quit();
      });
  });
}
