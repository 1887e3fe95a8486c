/**
 * What the app does when a part of it crashes or hangs: a window whose page is gone is reloaded (a few times a
 * minute at most, so a page that crashes as it loads does not spin), a window that stops answering asks the user to
 * wait or reload, and a helper process that is gone is logged. Crash dumps stay on this computer (main.ts starts the
 * crash reporter without upload).
 */

/** Why a renderer or helper process went, as Electron says it. */
export interface ProcessGoneDetails {
  reason: string;
  exitCode: number;
}

/** The part of a window's webContents the recovery uses. */
export interface RecoverableContents {
  reload(): void;
  isDestroyed(): boolean;
  on(event: 'render-process-gone', listener: (event: unknown, details: ProcessGoneDetails) => void): unknown;
  on(event: 'unresponsive', listener: () => void): unknown;
}

/** What the user chose for a window that does not answer. */
export type UnresponsiveChoice = 'wait' | 'reload';

/** How the recovery runs. */
export interface CrashRecoveryOptions {
  contents: RecoverableContents;
  /** Asks the user whether to wait for the window or reload it (main.ts: a message box). */
  askWaitOrReload: () => Promise<UnresponsiveChoice>;
  log: (message: string, error?: unknown) => void;
  /** Reloads after a crash within `reloadWindowMs` before the window is left as it is. */
  maxReloads?: number;
  reloadWindowMs?: number;
  now?: () => number;
}

/** Reloads its page after a crash, and asks the user what to do with a window that hangs. */
export function recoverWindowContents(options: CrashRecoveryOptions): void {
  const { contents, log } = options;
  const now = options.now ?? Date.now;
  const maxReloads = options.maxReloads ?? 3;
  const reloadWindowMs = options.reloadWindowMs ?? 60_000;
  let reloads: number[] = [];
  let asking = false;

  contents.on('render-process-gone', (_event, { reason, exitCode }) => {
    // A clean exit is the app closing the window, not a crash.
    if (reason === 'clean-exit') return;
    const at = now();
    reloads = reloads.filter((time) => at - time < reloadWindowMs);
    if (reloads.length >= maxReloads) {
      log(`The window's page is gone (${reason}, exit code ${exitCode}) after ${maxReloads} reloads within ${reloadWindowMs / 1000} s; it is not reloaded again.`);
      return;
    }
    reloads.push(at);
    log(`The window's page is gone (${reason}, exit code ${exitCode}); it is reloaded.`);
    if (!contents.isDestroyed()) contents.reload();
  });

  contents.on('unresponsive', () => {
    if (asking) return;
    asking = true;
    log('The window does not answer.');
    options
      .askWaitOrReload()
      .then((choice) => {
        log(`The user chose to ${choice} for the window that did not answer.`);
        if (choice === 'reload' && !contents.isDestroyed()) contents.reload();
      })
      .catch((error: unknown) => log('Asking about the window that does not answer failed.', error))
      .finally(() => {
        asking = false;
      });
  });
}

/** The log line of a helper process (GPU, utility, plugin) that is gone. */
export function childProcessGoneMessage(details: ProcessGoneDetails & { type: string; name?: string }): string {
  const name = details.name === undefined ? details.type : `${details.type} (${details.name})`;
  return `A helper process is gone: ${name}, ${details.reason}, exit code ${details.exitCode}.`;
}
