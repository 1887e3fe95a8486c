/**
 * Where the bundles lie: main.ts and everything it imports are bundled into `dist/electron/main.cjs`, so `__dirname`
 * is that folder, next to the preload and the tray icons; the built renderer and the embedded server are beside it.
 */
import path from 'node:path';

export const ELECTRON_DIR = __dirname;
export const DIST_DIR = path.join(ELECTRON_DIR, '..');
export const RENDERER_DIR = path.join(DIST_DIR, 'renderer');
export const PRELOAD_FILE = path.join(ELECTRON_DIR, 'preload.cjs');
export const SERVER_ENTRY = path.join(DIST_DIR, 'server', 'cli.mjs');
