/**
 * `npm run build:desktop`: bundles what the packaged app runs besides the renderer (which Vite builds into
 * `dist/renderer/`):
 *
 * - `dist/electron/main.cjs`    the main process (Electron and the native or wasm packages stay external);
 * - `dist/electron/preload.cjs` the sandboxed preload: one CommonJS file whose only require is 'electron';
 * - `dist/server/cli.mjs`       the embedded server the Local workspace runs, with `ifc-worker.js` and
 *                               `sheet-worker.js` beside it, where server/imports/import-worker.ts starts them from, and
 *                               `image-scale-worker.js` and `passport-pdf-worker.js`, where server/worker-thread.ts starts
 *                               them from; npm packages stay in node_modules, because
 *                               several read their own files at run time (pdfkit's font metrics, web-ifc's wasm);
 * - `dist/server/fonts/`        the DejaVu fonts passports are set in, which Windows and macOS do not have;
 * - `dist/electron/tray.png`    the tray icon (and its @2x), rendered from build/tray.svg by scripts/render-icons.ts.
 * - `dist/README.md`            the README, which the menu's Help opens.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { passportFonts } from '../server/passports/fonts';

/** The repository this script belongs to. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages the main process loads from node_modules instead of the bundle: Electron itself, native addons and wasm
 * packages (their binaries sit beside their code, unpacked from the asar), and the updater.
 */
export const MAIN_EXTERNALS = ['electron', 'better-sqlite3', 'web-ifc', '@napi-rs/keyring', '@resvg/resvg-js', 'electron-updater'];

/** Node version of the embedded server's bundle: Electron's own Node runs it, and so can a plain Node (browser mode). */
const SERVER_TARGET = 'node20';
/** Electron 45 runs Node 22 and a Chromium well past 130. */
const MAIN_TARGET = 'node22';
const PRELOAD_TARGET = 'chrome130';

/** Fonts that are not found cannot be bundled: the message says where they were looked for. */
const LICENSE_CANDIDATES = (fontDir: string): string[] => [
  path.join(fontDir, 'LICENSE'),
  path.join(fontDir, 'LICENSE.txt'),
  '/usr/share/doc/fonts-dejavu-core/copyright',
  '/usr/share/licenses/dejavu-sans-fonts/LICENSE',
  '/usr/share/licenses/ttf-dejavu/LICENSE',
];

/** What to build and where. */
export interface BuildDesktopOptions {
  /** The folder `electron/` and `server/` are written into (the app's `dist/`). */
  outDir: string;
  /** The repository to build from. */
  root?: string;
  /** Called with each line of progress. */
  report?: (line: string) => void;
}

/** What was built: every file written, relative to `outDir`, and esbuild's record of the inputs of each bundle. */
export interface BuildDesktopResult {
  files: string[];
  metafiles: { main: Metafile; preload: Metafile; server: Metafile; worker: Metafile; sheetWorker: Metafile; imageScaleWorker: Metafile; passportPdfWorker: Metafile };
}

async function bundle(options: BuildOptions & { outfile: string }): Promise<Metafile> {
  const result = await build({ ...options, bundle: true, logLevel: 'warning', metafile: true, legalComments: 'none' });
  return result.metafile;
}

/** Builds the desktop bundles into `outDir`, replacing its `electron/` and `server/` folders. */
export async function buildDesktop(options: BuildDesktopOptions): Promise<BuildDesktopResult> {
  const root = options.root ?? REPOSITORY_ROOT;
  const outDir = path.resolve(options.outDir);
  const report = options.report ?? (() => undefined);
  const electronOut = path.join(outDir, 'electron');
  const serverOut = path.join(outDir, 'server');
  await rm(electronOut, { recursive: true, force: true });
  await rm(serverOut, { recursive: true, force: true });

  const [main, preload, server, worker, sheetWorker, imageScaleWorker, passportPdfWorker] = await Promise.all([
    bundle({
      entryPoints: [path.join(root, 'electron', 'main.ts')],
      outfile: path.join(electronOut, 'main.cjs'),
      platform: 'node',
      format: 'cjs',
      target: MAIN_TARGET,
      external: MAIN_EXTERNALS,
      // Bundled ES modules that ask for their own address get the bundle's, as they would running unbundled.
      define: { 'import.meta.url': '__bundleUrl' },
      banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
    bundle({
      entryPoints: [path.join(root, 'electron', 'preload.ts')],
      outfile: path.join(electronOut, 'preload.cjs'),
      // A sandboxed preload has no Node: only 'electron' (and a few polyfills) can be required.
      platform: 'browser',
      format: 'cjs',
      target: PRELOAD_TARGET,
      external: ['electron'],
    }),
    bundle({
      entryPoints: [path.join(root, 'server', 'cli.ts')],
      outfile: path.join(serverOut, 'cli.mjs'),
      platform: 'node',
      format: 'esm',
      target: SERVER_TARGET,
      packages: 'external',
    }),
    bundle({
      entryPoints: [path.join(root, 'server', 'imports', 'ifc-worker.ts')],
      outfile: path.join(serverOut, 'ifc-worker.js'),
      platform: 'node',
      format: 'esm',
      target: SERVER_TARGET,
      packages: 'external',
    }),
    bundle({
      entryPoints: [path.join(root, 'server', 'imports', 'sheet-worker.ts')],
      outfile: path.join(serverOut, 'sheet-worker.js'),
      platform: 'node',
      format: 'esm',
      target: SERVER_TARGET,
      packages: 'external',
    }),
    bundle({
      entryPoints: [path.join(root, 'server', 'images', 'image-scale-worker.ts')],
      outfile: path.join(serverOut, 'image-scale-worker.js'),
      platform: 'node',
      format: 'esm',
      target: SERVER_TARGET,
      packages: 'external',
    }),
    bundle({
      entryPoints: [path.join(root, 'server', 'passports', 'passport-pdf-worker.ts')],
      outfile: path.join(serverOut, 'passport-pdf-worker.js'),
      platform: 'node',
      format: 'esm',
      target: SERVER_TARGET,
      packages: 'external',
    }),
  ]);
  const files = ['electron/main.cjs', 'electron/preload.cjs', 'server/cli.mjs', 'server/ifc-worker.js', 'server/sheet-worker.js', 'server/image-scale-worker.js', 'server/passport-pdf-worker.js'];

  // The menu's Help opens it.
  await copyFile(path.join(root, 'README.md'), path.join(outDir, 'README.md'));
  files.push('README.md');

  for (const icon of ['tray.png', 'tray@2x.png']) {
    await copyFile(path.join(root, 'build', icon), path.join(electronOut, icon));
    files.push(`electron/${icon}`);
  }

  const fonts = passportFonts();
  const fontsOut = path.join(serverOut, 'fonts');
  await mkdir(fontsOut, { recursive: true });
  for (const file of Object.values(fonts)) {
    await copyFile(file, path.join(fontsOut, path.basename(file)));
    files.push(`server/fonts/${path.basename(file)}`);
  }
  const license = LICENSE_CANDIDATES(path.dirname(fonts.regular)).find((candidate) => existsSync(candidate));
  if (license === undefined) {
    report(`warning: no license file of the DejaVu fonts found beside ${path.dirname(fonts.regular)}; ship one with them.`);
  } else {
    await copyFile(license, path.join(fontsOut, 'LICENSE'));
    files.push('server/fonts/LICENSE');
  }
  // The demo building's model, found beside the server's bundle as beside its source module (store/seed/demo-model.ts).
  const demoOut = path.join(serverOut, 'demo');
  await mkdir(demoOut, { recursive: true });
  for (const file of ['demo-office.ifc', 'SOURCES.md']) {
    await copyFile(path.join(root, 'server', 'store', 'seed', 'demo', file), path.join(demoOut, file));
    files.push(`server/demo/${file}`);
  }
  for (const file of files) report(`${path.relative(process.cwd(), path.join(outDir, file))}`);
  return { files, metafiles: { main, preload, server, worker, sheetWorker, imageScaleWorker, passportPdfWorker } };
}

async function cli(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(REPOSITORY_ROOT, 'dist') } } });
  await buildDesktop({ outDir: values.out, report: (line) => console.log(line) });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
