/** The update checker over a stand-in for electron-updater's `autoUpdater` (Electron cannot run here) and fake timers. */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateState } from '../../../shared/ipc';
import { UpdateChecker, type AppUpdater } from '../../../electron/update-checker';

/** Answers each check as the test says, emitting what electron-updater emits. */
class FakeUpdater extends EventEmitter implements AppUpdater {
  autoDownload = false;
  checks = 0;
  installs = 0;
  answer: () => Promise<unknown> = async () => {
    this.emit('checking-for-update');
    this.emit('update-not-available');
    return null;
  };

  checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    return this.answer();
  }

  quitAndInstall(): void {
    this.installs += 1;
  }
}

const HOUR = 60 * 60 * 1000;
let updater: FakeUpdater;
let checker: UpdateChecker;
let states: UpdateState[];

beforeEach(() => {
  vi.useFakeTimers();
  updater = new FakeUpdater();
  checker = new UpdateChecker({ updater, intervalMs: 6 * HOUR, log: () => undefined });
  states = [];
  checker.onChange((state) => states.push(state));
});

afterEach(() => {
  checker.stop();
  vi.useRealTimers();
});

describe('UpdateChecker', () => {
  it('checks at start and every six hours, and downloads what it finds by itself', async () => {
    expect(updater.autoDownload).toBe(true);
    checker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(6 * HOUR - 1);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(12 * HOUR);
    expect(updater.checks).toBe(4);
    expect(checker.state()).toEqual({ state: 'idle' });
    expect(states).toEqual(Array.from({ length: 4 }, () => [{ state: 'checking' }, { state: 'idle' }]).flat());
  });

  it('follows the download, is ready with its version, and installs it only then; no check goes out meanwhile', async () => {
    expect(checker.restartToUpdate()).toBe(false);
    updater.answer = async () => {
      updater.emit('checking-for-update');
      updater.emit('update-available', { version: '1.2.0' });
      return { updateInfo: { version: '1.2.0' } };
    };
    checker.start();
    await vi.advanceTimersByTimeAsync(0);
    updater.emit('download-progress', { percent: 42.5 });
    expect(checker.state()).toEqual({ state: 'downloading', percent: 42.5 });
    await vi.advanceTimersByTimeAsync(6 * HOUR);
    expect(updater.checks).toBe(1);
    updater.emit('update-downloaded', { version: '1.2.0' });
    expect(checker.state()).toEqual({ state: 'ready', version: '1.2.0' });
    expect(await checker.checkNow()).toEqual({ state: 'ready', version: '1.2.0' });
    expect(updater.checks).toBe(1);
    expect(states).toEqual([
      { state: 'checking' },
      { state: 'downloading', percent: 0 },
      { state: 'downloading', percent: 42.5 },
      { state: 'ready', version: '1.2.0' },
    ]);
    expect(checker.restartToUpdate()).toBe(true);
    expect(updater.installs).toBe(1);
  });

  it('says why a check failed, whether the updater emits the error or only rejects, and forgets it once a check goes well', async () => {
    updater.answer = async () => {
      updater.emit('checking-for-update');
      updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
      throw new Error('net::ERR_INTERNET_DISCONNECTED');
    };
    expect(await checker.checkNow()).toEqual({ state: 'failed', message: 'net::ERR_INTERNET_DISCONNECTED' });
    updater.answer = async () => {
      throw new Error('Cannot find latest.yml in the latest release artifacts');
    };
    expect(await checker.checkNow()).toEqual({ state: 'failed', message: 'Cannot find latest.yml in the latest release artifacts' });
    updater.answer = async () => null;
    expect(await checker.checkNow()).toEqual({ state: 'idle' });
    expect(updater.checks).toBe(3);
  });
});
