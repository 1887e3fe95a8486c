import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  fitWindowState,
  loadWindowState,
  saveWindowState,
  trackWindowState,
  windowStateFile,
  type Rectangle,
  type StatefulWindow,
  type Timers,
  type WindowState,
} from '../../../electron/window-state';

const laptop: Rectangle = { x: 0, y: 0, width: 1920, height: 1040 };
const rightMonitor: Rectangle = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('fitWindowState', () => {
  it('opens a first window at the default size, centred on the primary display', () => {
    expect(fitWindowState(undefined, [laptop, rightMonitor])).toEqual({
      x: (1920 - DEFAULT_WINDOW_SIZE.width) / 2,
      y: (1040 - DEFAULT_WINDOW_SIZE.height) / 2,
      ...DEFAULT_WINDOW_SIZE,
      maximized: false,
    });
  });

  it('keeps a saved window that lies on a connected display', () => {
    const saved: WindowState = { x: 2100, y: 100, width: 1400, height: 900, maximized: true };
    expect(fitWindowState(saved, [laptop, rightMonitor])).toEqual(saved);
  });

  it('moves a window whose display was unplugged onto the primary display', () => {
    const saved: WindowState = { x: 2100, y: 100, width: 1400, height: 900, maximized: true };
    const placed = fitWindowState(saved, [laptop]);
    expect(placed).toEqual({ ...fitWindowState(undefined, [laptop]), maximized: true });
  });

  it('pulls a window hanging over an edge fully onto the display it overlaps most', () => {
    const placed = fitWindowState({ x: 1800, y: -50, width: 1000, height: 700, maximized: false }, [laptop, rightMonitor]);
    expect(placed).toEqual({ x: 1920, y: 0, width: 1000, height: 700, maximized: false });
  });

  it('shrinks a window larger than its display to the display, never below the minimum size a display allows', () => {
    const small: Rectangle = { x: 0, y: 0, width: 1366, height: 728 };
    expect(fitWindowState({ x: 10, y: 10, width: 3000, height: 2000, maximized: false }, [small])).toEqual({
      x: 0,
      y: 0,
      width: 1366,
      height: 728,
      maximized: false,
    });
    expect(fitWindowState({ x: 10, y: 10, width: 200, height: 100, maximized: false }, [small])).toMatchObject({
      width: MIN_WINDOW_SIZE.width,
      height: MIN_WINDOW_SIZE.height,
    });
  });

  it('works with displays at negative coordinates (a monitor left of the primary one)', () => {
    const left: Rectangle = { x: -1280, y: 0, width: 1280, height: 1024 };
    const saved: WindowState = { x: -1200, y: 50, width: 1000, height: 700, maximized: false };
    expect(fitWindowState(saved, [laptop, left])).toEqual(saved);
  });

  it('opens without a position when no display is known', () => {
    expect(fitWindowState(undefined, [])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
    expect(fitWindowState({ x: 0, y: 0, width: 900, height: 700, maximized: false }, [])).toEqual({
      ...DEFAULT_WINDOW_SIZE,
      maximized: false,
    });
  });
});

let userDataDir: string;
beforeEach(async () => {
  userDataDir = await mkdtemp(path.join(tmpdir(), 'cd-window-state-'));
});
afterEach(async () => {
  await rm(userDataDir, { recursive: true, force: true });
});

describe('the window-state file', () => {
  it('lives in the user-data folder', () => {
    expect(windowStateFile(userDataDir)).toBe(path.join(userDataDir, 'window-state.json'));
  });

  it('round-trips a saved state', async () => {
    const file = windowStateFile(userDataDir);
    const state: WindowState = { x: -5, y: 20, width: 1300, height: 850, maximized: true };
    await saveWindowState(file, state);
    expect(await loadWindowState(file)).toEqual(state);
  });

  it('reads a missing, broken or foreign file as no state', async () => {
    const file = windowStateFile(userDataDir);
    expect(await loadWindowState(file)).toBeUndefined();
    await writeFile(file, '{"x": 1, "y"');
    expect(await loadWindowState(file)).toBeUndefined();
    await writeFile(file, JSON.stringify({ x: 1, y: 2, width: 0, height: 600, maximized: false }));
    expect(await loadWindowState(file)).toBeUndefined();
    await writeFile(file, JSON.stringify({ x: 1.5, y: 2, width: 800, height: 600, maximized: false }));
    expect(await loadWindowState(file)).toBeUndefined();
  });
});

/** A window whose bounds a test sets, emitting Electron's events when told to. */
class FakeWindow extends EventEmitter implements StatefulWindow {
  bounds: Rectangle = { x: 100, y: 100, width: 1200, height: 800 };
  maximized = false;
  getNormalBounds(): Rectangle {
    return this.bounds;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
}

/** Timers that run only when the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, () => void>();
  setTimeout(callback: () => void): unknown {
    const id = this.next++;
    this.pending.set(id, callback);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  runAll(): void {
    const callbacks = [...this.pending.values()];
    this.pending.clear();
    for (const callback of callbacks) callback();
  }
}

async function savedState(): Promise<unknown> {
  return JSON.parse(await readFile(windowStateFile(userDataDir), 'utf8'));
}

describe('trackWindowState', () => {
  it('saves once after a burst of moves and resizes, with the last bounds', async () => {
    const window = new FakeWindow();
    const timers = new ManualTimers();
    const tracker = trackWindowState(window, windowStateFile(userDataDir), { timers });
    window.emit('move');
    window.bounds = { x: 150, y: 120, width: 1200, height: 800 };
    window.emit('move');
    window.bounds = { x: 150, y: 120, width: 1333.4, height: 777.6 };
    window.emit('resize');
    expect(timers.pending.size).toBe(1);
    expect(await loadWindowState(windowStateFile(userDataDir))).toBeUndefined();
    timers.runAll();
    await tracker.flush();
    expect(await savedState()).toEqual({ x: 150, y: 120, width: 1333, height: 778, maximized: false });
  });

  it('saves the normal bounds and the maximized flag when maximized', async () => {
    const window = new FakeWindow();
    const timers = new ManualTimers();
    const tracker = trackWindowState(window, windowStateFile(userDataDir), { timers });
    window.maximized = true;
    window.emit('maximize');
    timers.runAll();
    await tracker.flush();
    expect(await savedState()).toEqual({ x: 100, y: 100, width: 1200, height: 800, maximized: true });
  });

  it('saves at once when the window closes, dropping the pending delayed save', async () => {
    const window = new FakeWindow();
    const timers = new ManualTimers();
    const tracker = trackWindowState(window, windowStateFile(userDataDir), { timers });
    window.bounds = { x: 7, y: 8, width: 1000, height: 700 };
    window.emit('resize');
    window.emit('close');
    expect(timers.pending.size).toBe(0);
    await tracker.flush();
    expect(await savedState()).toEqual({ x: 7, y: 8, width: 1000, height: 700, maximized: false });
  });

  it('flush writes a pending save now', async () => {
    const window = new FakeWindow();
    const timers = new ManualTimers();
    const tracker = trackWindowState(window, windowStateFile(userDataDir), { timers });
    window.emit('unmaximize');
    await tracker.flush();
    expect(timers.pending.size).toBe(0);
    expect(await savedState()).toEqual({ x: 100, y: 100, width: 1200, height: 800, maximized: false });
  });

  it('logs a failed save instead of throwing', async () => {
    const logged: string[] = [];
    const window = new FakeWindow();
    const blocked = path.join(userDataDir, 'not-a-folder');
    await writeFile(blocked, 'a file where a folder should be');
    const tracker = trackWindowState(window, path.join(blocked, 'window-state.json'), {
      timers: new ManualTimers(),
      log: (message) => logged.push(message),
    });
    window.emit('close');
    await tracker.flush();
    expect(logged).toEqual(['Saving the window state failed']);
  });
});
