/**
 * The window's size, position and maximized state, kept in `<userData>/window-state.json` between runs. A saved
 * position is used only while it lies on a display that is still there, so a window last seen on an unplugged
 * monitor opens on the primary one instead of off screen.
 */
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { readJsonFile, writeJsonFile } from './json-file';

/** A screen rectangle in device-independent pixels, as Electron's `Rectangle`. */
export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest window the app's layout works in. */
export const MIN_WINDOW_SIZE = { width: 960, height: 600 } as const;
/** The size of a first window, when the display is large enough. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const;

const Coordinate = Type.Integer({ minimum: -100_000, maximum: 100_000 });
const Length = Type.Integer({ minimum: 1, maximum: 100_000 });

/** The saved document. */
export const WindowState = Type.Object(
  { x: Coordinate, y: Coordinate, width: Length, height: Length, maximized: Type.Boolean() },
  { additionalProperties: false },
);
/** The saved window state. */
export type WindowState = Static<typeof WindowState>;

/** Where to open the window: a position only when one is known, else Electron centres it. */
export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** The file the state is kept in. */
export function windowStateFile(userDataDir: string): string {
  return path.join(userDataDir, 'window-state.json');
}

function overlapArea(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

function defaultPlacement(primary: Rectangle | undefined): WindowPlacement {
  if (primary === undefined) return { ...DEFAULT_WINDOW_SIZE, maximized: false };
  const width = Math.min(DEFAULT_WINDOW_SIZE.width, primary.width);
  const height = Math.min(DEFAULT_WINDOW_SIZE.height, primary.height);
  return {
    x: primary.x + Math.round((primary.width - width) / 2),
    y: primary.y + Math.round((primary.height - height) / 2),
    width,
    height,
    maximized: false,
  };
}

/**
 * Where the window opens, given the saved state and the work areas of the displays now connected (the primary one
 * first). A saved window that overlaps no display opens at the default place on the primary one; one that overlaps a
 * display is shrunk to fit it if need be and moved fully onto the display it overlaps most.
 */
export function fitWindowState(saved: WindowState | undefined, workAreas: readonly Rectangle[]): WindowPlacement {
  const primary = workAreas[0];
  if (saved === undefined) return defaultPlacement(primary);
  let best: Rectangle | undefined;
  let bestArea = 0;
  for (const area of workAreas) {
    const overlap = overlapArea(saved, area);
    if (overlap > bestArea) {
      best = area;
      bestArea = overlap;
    }
  }
  if (best === undefined) return { ...defaultPlacement(primary), maximized: saved.maximized };
  const width = clamp(saved.width, Math.min(MIN_WINDOW_SIZE.width, best.width), best.width);
  const height = clamp(saved.height, Math.min(MIN_WINDOW_SIZE.height, best.height), best.height);
  return {
    x: clamp(saved.x, best.x, best.x + best.width - width),
    y: clamp(saved.y, best.y, best.y + best.height - height),
    width,
    height,
    maximized: saved.maximized,
  };
}

/** Reads the saved state; a missing or unreadable file means none (the state is not worth a warning). */
export async function loadWindowState(file: string): Promise<WindowState | undefined> {
  try {
    const read = await readJsonFile(file, WindowState);
    return read.kind === 'ok' ? read.value : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the state atomically. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await writeJsonFile(file, state);
}

/** The parts of a BrowserWindow the state is read from. */
export interface StatefulWindow {
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
}

/** Timers, injectable so tests decide when a delayed save happens. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How the window is tracked. */
export interface TrackWindowOptions {
  /** A move or resize is saved this long after the last one, so dragging does not write on every pixel. */
  delayMs?: number;
  timers?: Timers;
  log?: (message: string, error?: unknown) => void;
}

/** A tracked window: `flush` saves what is pending now and resolves when every save so far is on disk. */
export interface WindowStateTracker {
  flush(): Promise<void>;
}

const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

function integerState(window: StatefulWindow): WindowState {
  // The normal bounds are the ones to restore: while maximized, the current bounds are the whole display.
  const bounds = window.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.max(1, Math.round(bounds.width)),
    height: Math.max(1, Math.round(bounds.height)),
    maximized: window.isMaximized(),
  };
}

/**
 * Saves the window's state to `file` a moment after each move, resize, maximize or unmaximize, and at once when it
 * closes. Saves are written one after another, so the last one on disk is the newest.
 */
export function trackWindowState(window: StatefulWindow, file: string, options: TrackWindowOptions = {}): WindowStateTracker {
  const timers = options.timers ?? systemTimers;
  const delayMs = options.delayMs ?? 500;
  let pending: unknown;
  let writes: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    if (pending !== undefined) {
      timers.clearTimeout(pending);
      pending = undefined;
    }
    const state = integerState(window);
    writes = writes.then(() =>
      saveWindowState(file, state).catch((error: unknown) => options.log?.('Saving the window state failed', error)),
    );
    return writes;
  };
  const later = (): void => {
    if (pending !== undefined) timers.clearTimeout(pending);
    pending = timers.setTimeout(() => {
      pending = undefined;
      void save();
    }, delayMs);
  };

  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event, later);
  window.on('close', () => void save());
  return {
    flush: () => (pending === undefined ? writes : save()),
  };
}
