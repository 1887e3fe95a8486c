/**
 * Looks for an update of the app at start and every few hours, downloads it, and says where it is, so the header can
 * show the download and offer *Restart to update*. It drives electron-updater's `autoUpdater` through the small part
 * of it used here, which lets Node tests drive it with a stand-in.
 */
import type { UpdateState } from '../shared/ipc';

/** The part of electron-updater's `autoUpdater` the checker uses. */
export interface AppUpdater {
  autoDownload: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(event: 'update-available', listener: () => void): unknown;
  on(event: 'update-not-available', listener: () => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'update-downloaded', listener: (update: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** How the checker runs. */
export interface UpdateCheckerOptions {
  updater: AppUpdater;
  /** Time between two checks. */
  intervalMs?: number;
  log: (message: string, error?: unknown) => void;
}

/** Six hours: an update reaches a machine that runs for days within the working day it was published. */
export const DEFAULT_UPDATE_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Periodic update checks and the update's state. */
export class UpdateChecker {
  private current: UpdateState = { state: 'idle' };
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(state: UpdateState) => void>();

  constructor(private readonly options: UpdateCheckerOptions) {
    const { updater } = options;
    updater.autoDownload = true;
    updater.on('checking-for-update', () => {
      if (this.current.state !== 'checking') this.set({ state: 'checking' });
    });
    updater.on('update-available', () => this.set({ state: 'downloading', percent: 0 }));
    updater.on('update-not-available', () => this.set({ state: 'idle' }));
    updater.on('download-progress', ({ percent }) => this.set({ state: 'downloading', percent: Math.min(100, Math.max(0, percent)) }));
    updater.on('update-downloaded', ({ version }) => this.set({ state: 'ready', version }));
    updater.on('error', (error) => {
      options.log('Updating the app failed.', error);
      this.set({ state: 'failed', message: error.message });
    });
  }

  /** The update's state now. */
  state(): UpdateState {
    return this.current;
  }

  /** Calls `listener` on every change of state. */
  onChange(listener: (state: UpdateState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Checks now and then every interval, until `stop`. */
  start(): void {
    void this.checkNow();
    this.timer = setInterval(() => void this.checkNow(), this.options.intervalMs ?? DEFAULT_UPDATE_INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Looks for an update unless one is being looked for, downloaded or waits to be installed; resolves with the state
   * the check left (a failure is in the state, never thrown).
   */
  async checkNow(): Promise<UpdateState> {
    const { state } = this.current;
    if (state === 'checking' || state === 'downloading' || state === 'ready') return this.current;
    this.set({ state: 'checking' });
    try {
      await this.options.updater.checkForUpdates();
      // An updater without a feed answers without a word of its own.
      if (this.state().state === 'checking') this.set({ state: 'idle' });
    } catch (error) {
      // The updater emits `error` too for most failures; one it only rejects with must still show.
      if (this.state().state !== 'failed') {
        this.options.log('Checking for updates failed.', error);
        this.set({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    }
    return this.current;
  }

  /** Quits and installs the downloaded update; false when none is ready. */
  restartToUpdate(): boolean {
    if (this.current.state !== 'ready') return false;
    this.options.updater.quitAndInstall();
    return true;
  }

  private set(state: UpdateState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
