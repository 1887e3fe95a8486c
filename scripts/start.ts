/**
 * `npm start`: builds what is stale and runs the app in Electron, on the Local workspace with sample data. Electron's
 * binary is fetched on first start (not at `npm ci`, so installing never depends on reaching its download host).
 * Electron gets a database module built for it (`electron-native.ts`), beside Node's. Where Electron cannot run — the
 * binary cannot be fetched, that module cannot be built, or Linux has no display — it says why and runs the same app in
 * the browser instead (`npm run web`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildDesktop, REPOSITORY_ROOT } from './build-desktop';
import { ensureElectronNativeBuild } from './electron-native';
import { ELECTRON_SQLITE_BINDING_ENV } from '../shared/native-sqlite';
import { ensureRendererBuilt } from '../electron/renderer-build';

const require = createRequire(import.meta.url);

/** The Electron binary's path, or undefined when it is not installed (the npm package throws then). */
function electronBinary(): string | undefined {
  try {
    return require('electron') as string;
  } catch {
    return undefined;
  }
}

/** The Electron binary, fetched first when missing; undefined with the reason when it cannot be had. */
function ensureElectron(): { binary: string } | { reason: string } {
  const installed = electronBinary();
  if (installed !== undefined) return { binary: installed };
  console.log('Fetching Electron (first start only)…');
  const install = spawnSync(process.execPath, [require.resolve('electron/install.js')], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  const fetched = electronBinary();
  if (fetched !== undefined) return { binary: fetched };
  const firstLine = install.stderr.split('\n').find((line) => line.trim() !== '') ?? `exit code ${install.status}`;
  return { reason: `Electron could not be fetched (${firstLine.trim()})` };
}

function hasDisplay(): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(process.env['DISPLAY'] ?? process.env['WAYLAND_DISPLAY']);
}

/** Runs a child in the foreground: its output is ours, a stop signal sent to us is passed on, its exit is ours. */
function runInForeground(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 1));
}

function runBrowserMode(reason: string, args: string[]): void {
  console.log(`${reason}: starting the app in your browser instead (npm run web).`);
  runInForeground(process.execPath, ['--import', require.resolve('tsx'), path.join(REPOSITORY_ROOT, 'electron', 'web-cli.ts'), '--open', ...args]);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!hasDisplay()) {
    runBrowserMode('There is no display (DISPLAY and WAYLAND_DISPLAY are unset)', args);
    return;
  }
  const electron = ensureElectron();
  if ('reason' in electron) {
    runBrowserMode(electron.reason, args);
    return;
  }
  const native = await ensureElectronNativeBuild();
  if ('reason' in native) {
    runBrowserMode(`The Local workspace needs ${native.reason}`, args);
    return;
  }
  await ensureRendererBuilt(REPOSITORY_ROOT, path.join(REPOSITORY_ROOT, 'dist', 'renderer'));
  await buildDesktop({ outDir: path.join(REPOSITORY_ROOT, 'dist') });
  runInForeground(electron.binary, [REPOSITORY_ROOT, ...args], { ...process.env, [ELECTRON_SQLITE_BINDING_ENV]: native.binding });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
