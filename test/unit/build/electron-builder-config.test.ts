import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util/out/DebugLogger';
import { OPENED_FILE_EXTENSIONS } from '../../../electron/launch-arguments';
import { ICON_TARGETS, renderIcons } from '../../../scripts/render-icons';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const config = await getConfig(ROOT, null, null);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is really checked by that validation (an unknown option fails)', async () => {
    const broken = { ...config, mac: { ...config.mac, notAnOption: true } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object[\s\S]*configuration\.mac/);
  });

  it('names the app and writes installers to release/', () => {
    expect(config.productName).toBe('Circularity Desk');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.directories?.output).toBe('release');
    expect(config.extraMetadata?.['main']).toBe('dist/electron/main.cjs');
  });

  it('associates the files the app opens with it, as a viewer that leaves spreadsheets to the spreadsheet apps', () => {
    const associations = [config.fileAssociations ?? []].flat();
    expect(associations.map((association) => association.ext)).toEqual([...OPENED_FILE_EXTENSIONS]);
    for (const association of associations) expect(association).toMatchObject({ role: 'Viewer', name: expect.any(String), mimeType: expect.any(String) });
    expect(associations.filter((association) => association.ext !== 'ifc').map((association) => association.rank)).toEqual(['Alternate', 'Alternate']);
  });

  it('uses the appId main.ts gives Windows for its notifications', async () => {
    const main = await readFile(path.join(ROOT, 'electron', 'main.ts'), 'utf8');
    expect(main).toContain(`const APP_ID = '${config.appId}';`);
  });

  it('packs the bundles into an asar, with native, wasm and font files unpacked', () => {
    expect(config.asar).toBe(true);
    const filters = (config.files as { filter: string[] }[]).flatMap((set) => set.filter);
    expect(filters).toEqual(expect.arrayContaining(['package.json', 'dist/**/*']));
    expect(filters.some((filter) => filter.includes('src') || filter.includes('node_modules'))).toBe(false);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/node_modules/better-sqlite3/**',
        '**/node_modules/web-ifc/**',
        '**/node_modules/@resvg/**',
        '**/node_modules/@napi-rs/**',
        'dist/server/fonts/**',
      ]),
    );
  });

  it('flips the security fuses of the Electron binary', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
    });
  });

  it('installs Windows updates only when signed by the pinned publisher', () => {
    expect(config.win?.verifyUpdateCodeSignature).toBe(true);
    expect(config.win?.signtoolOptions?.publisherName).toEqual(['Circularity Desk contributors']);
  });

  it('builds a per-user NSIS installer with a choice of folder on Windows', () => {
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
  });

  it('signs for the hardened runtime on macOS and notarizes through the afterSign hook', async () => {
    expect(config.mac).toMatchObject({
      target: [
        { target: 'dmg', arch: ['arm64', 'x64'] },
        { target: 'zip', arch: ['arm64', 'x64'] },
      ],
      hardenedRuntime: true,
      gatekeeperAssess: false,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
      notarize: false,
    });
    expect(config.afterSign).toBe('build/notarize.cjs');
    const entitlements = await readFile(path.join(ROOT, 'build', 'entitlements.mac.plist'), 'utf8');
    expect(entitlements).toContain('<key>com.apple.security.cs.allow-jit</key>');
    expect(entitlements).not.toContain('disable-library-validation');
  });

  it('makes an AppImage and a deb on Linux', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
  });

  it('publishes updates to a generic server whose address comes from the environment', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: '${env.CIRCULARITY_DESK_UPDATE_URL}' });
  });
});

describe('the update feed check before packing', () => {
  const require = createRequire(import.meta.url);
  const hook = require(path.join(ROOT, 'build', 'check-update-feed.cjs')) as {
    default: (context: unknown, env?: Record<string, string | undefined>) => Promise<void>;
  };

  it('is the beforePack hook of the configuration', () => {
    expect(config.beforePack).toBe('build/check-update-feed.cjs');
  });

  it('lets an https feed and an app without updates through', async () => {
    await expect(hook.default({}, { CIRCULARITY_DESK_UPDATE_URL: 'https://downloads.example.org/circularity-desk/' })).resolves.toBeUndefined();
    await expect(hook.default({}, { CIRCULARITY_DESK_UPDATE_URL: '' })).resolves.toBeUndefined();
  });

  it('stops a build whose feed is not https', async () => {
    await expect(hook.default({}, { CIRCULARITY_DESK_UPDATE_URL: 'http://downloads.example.org/desk/' })).rejects.toThrow(
      "CIRCULARITY_DESK_UPDATE_URL must be an https address, not 'http://downloads.example.org/desk/': the app refuses any other feed.",
    );
    await expect(hook.default({}, { CIRCULARITY_DESK_UPDATE_URL: 'downloads.example.org' })).rejects.toThrow(/is not an address/);
  });
});

describe('the notarize hook', () => {
  const require = createRequire(import.meta.url);
  const hook = require(path.join(ROOT, 'build', 'notarize.cjs')) as {
    default: (context: unknown, env?: Record<string, string | undefined>, load?: () => Promise<(options: unknown) => Promise<void>>) => Promise<void>;
  };
  const context = (platform: string) => ({
    electronPlatformName: platform,
    appOutDir: '/out/mac-arm64',
    packager: { appInfo: { productFilename: 'Circularity Desk' } },
  });
  const credentials = { APPLE_ID: 'dev@example.org', APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh', APPLE_TEAM_ID: 'TEAM123' };
  const recording = () => {
    const calls: unknown[] = [];
    return { calls, load: async () => async (options: unknown) => void calls.push(options) };
  };

  it('does nothing for Windows and Linux builds', async () => {
    const { calls, load } = recording();
    await hook.default(context('win32'), credentials, load);
    await hook.default(context('linux'), credentials, load);
    expect(calls).toEqual([]);
  });

  it('skips cleanly when no Apple credentials are set', async () => {
    const { calls, load } = recording();
    await expect(hook.default(context('darwin'), {}, load)).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('stops a build whose credentials are only partly set', async () => {
    const { calls, load } = recording();
    await expect(hook.default(context('darwin'), { APPLE_ID: 'dev@example.org' }, load)).rejects.toThrow(
      /APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID are not set/,
    );
    expect(calls).toEqual([]);
  });

  it('notarizes the signed .app with the credentials of the environment', async () => {
    const { calls, load } = recording();
    await hook.default(context('darwin'), credentials, load);
    expect(calls).toEqual([
      { appPath: '/out/mac-arm64/Circularity Desk.app', appleId: 'dev@example.org', appleIdPassword: 'abcd-efgh', teamId: 'TEAM123' },
    ]);
  });
});

describe('the icons', () => {
  it.each(ICON_TARGETS)('$output is a $size px square PNG rendered from $source as committed', async ({ output, size }) => {
    const committed = await readFile(path.join(ROOT, output));
    expect(pngSize(committed)).toEqual({ width: size, height: size });
    expect((await renderIcons(ROOT)).get(output)?.equals(committed)).toBe(true);
  });
});
