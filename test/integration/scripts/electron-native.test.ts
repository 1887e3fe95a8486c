/**
 * The database module built for Electron by `npm start`: found by the installed Electron's own metadata, reused while
 * it matches, told apart from Node's build by the ABI it registers, and refused by a Node process as built for
 * Electron's ABI.
 */
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { builtAbiOf, electronNativeBuildOf, ensureElectronNativeBuild, installedElectron } from '../../../scripts/electron-native';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE_BUILD = path.join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
let scratch: string | undefined;

afterEach(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** A project root holding the installed Electron's metadata and better-sqlite3's package file, nothing else. */
async function projectWithElectron(): Promise<string> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'electron-native-'));
  await mkdir(path.join(scratch, 'node_modules', 'electron'), { recursive: true });
  await mkdir(path.join(scratch, 'node_modules', 'better-sqlite3'), { recursive: true });
  for (const file of ['package.json', 'abi_version']) {
    await cp(path.join(ROOT, 'node_modules', 'electron', file), path.join(scratch, 'node_modules', 'electron', file));
  }
  await cp(path.join(ROOT, 'node_modules', 'better-sqlite3', 'package.json'), path.join(scratch, 'node_modules', 'better-sqlite3', 'package.json'));
  return scratch;
}

describe('the database module built for Electron', () => {
  it('reads the ABI a build registers: Node’s own build registers this Node’s', async () => {
    expect(await builtAbiOf(NODE_BUILD)).toBe(process.versions.modules);
  });

  it('reads the installed Electron’s version and ABI from its package', async () => {
    const electron = await installedElectron(ROOT);
    expect(electron?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(electron?.abi).toMatch(/^\d+$/);
    expect(electron?.abi).not.toBe(process.versions.modules);
  });

  it('gives a reason, and builds nothing, where Electron is not installed', async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'electron-native-'));
    expect(await ensureElectronNativeBuild(scratch)).toEqual({ reason: 'Electron is not installed' });
    expect(await exists(path.join(scratch, '.electron-native'))).toBe(false);
  });

  it('reuses a build made for the same Electron, better-sqlite3, platform and architecture', async () => {
    const root = await projectWithElectron();
    const electron = await installedElectron(root);
    if (electron === undefined) throw new Error('the scratch project has no Electron');
    const build = electronNativeBuildOf(root, electron.version);
    await mkdir(path.dirname(build.binding), { recursive: true });
    await writeFile(build.binding, `\u007fELF node_register_module_v${electron.abi}`);
    const { version } = createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string };
    await writeFile(
      build.stamp,
      JSON.stringify({ electron: electron.version, electronAbi: electron.abi, betterSqlite3: version, platform: process.platform, arch: process.arch }),
    );
    expect(await ensureElectronNativeBuild(root)).toEqual({ binding: build.binding });
  });

  it('is refused by Node as built for Electron’s ABI, wherever npm start has built it', async (context) => {
    const electron = await installedElectron(ROOT);
    const build = electron === undefined ? undefined : electronNativeBuildOf(ROOT, electron.version);
    context.skip(
      build === undefined || !(await exists(build.binding)),
      'npm start has not built the module for Electron on this machine (it needs Electron’s headers or a prebuilt binary from the network)',
    );
    if (electron === undefined || build === undefined) return;
    expect(await builtAbiOf(build.binding)).toBe(electron.abi);
    expect(() => createRequire(import.meta.url)(build.binding)).toThrow(new RegExp(`NODE_MODULE_VERSION ${electron.abi}\\b`));
  });
});
