/**
 * better-sqlite3 built for the installed Electron, beside Node's build rather than over it. Electron has an ABI of its
 * own and cannot load the build in node_modules, which `npm run serve`, `npm run web` and the tests keep using. The
 * build goes into `.electron-native/<electron>-<platform>-<arch>/`, a small project holding a copy of the package
 * (`@electron/rebuild` takes a prebuilt binary for Electron where one is published, else compiles it), once per
 * Electron and better-sqlite3 version. `npm start` names the file to the app (`ELECTRON_SQLITE_BINDING_ENV`);
 * installers are unaffected, since electron-builder rebuilds node_modules for them.
 */
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPOSITORY_ROOT } from './build-desktop';

/** What a build was made for; a build made for anything else is made again. */
interface BuildStamp {
  electron: string;
  electronAbi: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

/** The installed Electron's version and ABI, from its own package metadata; undefined when it is not installed. */
export async function installedElectron(root: string = REPOSITORY_ROOT): Promise<{ version: string; abi: string } | undefined> {
  const folder = path.join(root, 'node_modules', 'electron');
  try {
    const { version } = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as { version: string };
    const abi = (await readFile(path.join(folder, 'abi_version'), 'utf8')).trim();
    return { version, abi };
  } catch {
    return undefined;
  }
}

/** Where the build for an Electron version lives, and the binary in it. */
export function electronNativeBuildOf(root: string, electronVersion: string): { folder: string; binding: string; stamp: string } {
  const folder = path.join(root, '.electron-native', `${electronVersion}-${process.platform}-${process.arch}`);
  return {
    folder,
    binding: path.join(folder, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
    stamp: path.join(folder, 'build-stamp.json'),
  };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** The ABI a native module was built for, from the registration symbol every non-N-API module exports. */
export async function builtAbiOf(binary: string): Promise<string | undefined> {
  return /node_register_module_v(\d+)/.exec((await readFile(binary)).toString('latin1'))?.[1];
}

async function readStamp(file: string): Promise<BuildStamp | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as BuildStamp;
  } catch {
    return undefined;
  }
}

function sameStamp(a: BuildStamp | undefined, b: BuildStamp): boolean {
  return a !== undefined && (Object.keys(b) as (keyof BuildStamp)[]).every((key) => a[key] === b[key]);
}

/**
 * The path of better-sqlite3 built for the installed Electron, building it first when there is none for this version;
 * the reason when it cannot be had (no Electron, no prebuilt binary and no compiler, no network for the headers).
 */
export async function ensureElectronNativeBuild(root: string = REPOSITORY_ROOT): Promise<{ binding: string } | { reason: string }> {
  const electron = await installedElectron(root);
  if (electron === undefined) return { reason: 'Electron is not installed' };
  const packageFolder = path.join(root, 'node_modules', 'better-sqlite3');
  const { version: betterSqlite3 } = JSON.parse(await readFile(path.join(packageFolder, 'package.json'), 'utf8')) as { version: string };
  const wanted: BuildStamp = { electron: electron.version, electronAbi: electron.abi, betterSqlite3, platform: process.platform, arch: process.arch };
  const build = electronNativeBuildOf(root, electron.version);
  if ((await exists(build.binding)) && sameStamp(await readStamp(build.stamp), wanted)) return { binding: build.binding };

  console.log(`Building the database module for Electron ${electron.version} (once per Electron version)…`);
  await rm(build.folder, { recursive: true, force: true });
  await mkdir(build.folder, { recursive: true });
  await writeFile(
    path.join(build.folder, 'package.json'),
    `${JSON.stringify({ name: 'electron-native-build', private: true, dependencies: { 'better-sqlite3': betterSqlite3 } }, null, 2)}\n`,
  );
  // Node's binary stays behind: what is built here is Electron's alone.
  await cp(packageFolder, path.join(build.folder, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    filter: (source) => path.relative(packageFolder, source).split(path.sep)[0] !== 'build',
  });
  // An npm `nodedir` (set for offline machines) makes node-gyp build against that Node's headers, whatever Electron says.
  const nodedir = process.env['npm_config_nodedir'];
  delete process.env['npm_config_nodedir'];
  try {
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({ buildPath: build.folder, electronVersion: electron.version, onlyModules: ['better-sqlite3'], force: true });
  } catch (error) {
    await rm(build.folder, { recursive: true, force: true });
    const message = error instanceof Error ? error.message : String(error);
    return { reason: `the database module could not be built for Electron ${electron.version} (${message.split('\n')[0]})` };
  } finally {
    if (nodedir !== undefined) process.env['npm_config_nodedir'] = nodedir;
  }
  if (!(await exists(build.binding))) {
    await rm(build.folder, { recursive: true, force: true });
    return { reason: `building the database module for Electron ${electron.version} left no binary` };
  }
  const builtAbi = await builtAbiOf(build.binding);
  if (builtAbi !== electron.abi) {
    await rm(build.folder, { recursive: true, force: true });
    return { reason: `the database module was built for ABI ${builtAbi ?? 'unknown'}, not Electron ${electron.version}'s ${electron.abi} (were Electron's headers reachable?)` };
  }
  await writeFile(build.stamp, `${JSON.stringify(wanted, null, 2)}\n`);
  return { binding: build.binding };
}
