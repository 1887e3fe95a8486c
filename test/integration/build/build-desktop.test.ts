import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import vm from 'node:vm';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDesktop, MAIN_EXTERNALS, REPOSITORY_ROOT, type BuildDesktopResult } from '../../../scripts/build-desktop';
import { embeddedServerMessageOf } from '../../../shared/embedded-server';
import { IPC_CHANNELS, IPC_EVENT_CHANNEL, bridgeMethodOf } from '../../../shared/ipc';
import { PASSPORT_FONT_DIR_ENV } from '../../../shared/embedded-server';
import { ifcFixture } from '../../fixtures/files';
import { DROPPED_FILES_CHANNEL } from '../../../shared/dropped-files';

const fixture = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');
const packageJson = JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

// The packaged app's layout: dist/ beside package.json and the production node_modules.
let app: string;
let dist: string;
let result: BuildDesktopResult;
beforeAll(async () => {
  app = await mkdtemp(path.join(tmpdir(), 'cd-build-desktop-'));
  dist = path.join(app, 'dist');
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ type: 'module' }));
  await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(app, 'node_modules'), 'dir');
  result = await buildDesktop({ outDir: dist });
}, 120_000);
afterAll(async () => {
  await rm(app, { recursive: true, force: true });
});

/** Every module name a CommonJS bundle requires, and whether any require takes a computed name. */
function requiresOf(source: string): { names: string[]; computed: number } {
  const names = [...source.matchAll(/(?<![\w$.#])require\(\s*(["'])([^"']+)\1\s*\)/g)].map((match) => match[2] ?? '');
  // A call with anything but a string literal; `require(id) {` is a method of that name, not a call.
  const computed = [...source.matchAll(/(?<![\w$.#])require\(\s*(?!["'])[^)]*\)(?!\s*\{)/g)].length;
  return { names: [...new Set(names)].sort(), computed };
}

/** The package a bare specifier belongs to (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier);
}

/** Every package an ES module bundle imports, from its inputs as esbuild recorded them. */
function packagesImportedBy(metafile: BuildDesktopResult['metafiles']['server']): string[] {
  const imported = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((each) => each.external).map((each) => each.path));
  return [...new Set(imported.filter((specifier) => !isBuiltin(specifier)).map(packageOf))].sort();
}

describe('the desktop bundles', () => {
  it('writes the main process, the preload, the server, its IFC worker, the fonts, the demo model, the tray icons and the README', () => {
    expect(result.files).toEqual(
      expect.arrayContaining([
        'README.md',
        'electron/main.cjs',
        'electron/preload.cjs',
        'electron/tray.png',
        'electron/tray@2x.png',
        'server/cli.mjs',
        'server/ifc-worker.js',
        'server/sheet-worker.js',
        'server/image-scale-worker.js',
        'server/passport-pdf-worker.js',
        'server/fonts/DejaVuSans.ttf',
        'server/fonts/DejaVuSans-Bold.ttf',
        'server/fonts/DejaVuSansCondensed.ttf',
        'server/fonts/DejaVuSansCondensed-Bold.ttf',
        'server/demo/demo-office.ifc',
      ]),
    );
  });

  it('makes a sandboxed preload: one CommonJS file whose only require is electron', async () => {
    const source = await readFile(path.join(dist, 'electron', 'preload.cjs'), 'utf8');
    expect(requiresOf(source)).toEqual({ names: ['electron'], computed: 0 });
    expect(source).not.toMatch(/\bimport\s*\(/);
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).toContain('exposeInMainWorld');
    expect(source).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });

  it('makes a preload that exposes the named bridge and the dropped files’ choices, and only them, over ipcRenderer', async () => {
    const source = await readFile(path.join(dist, 'electron', 'preload.cjs'), 'utf8');
    const exposed: [string, unknown][] = [];
    const invoked: [string, unknown][] = [];
    const listeners = new Map<string, (event: unknown, message: unknown) => void>();
    const paths = new Map<unknown, string>();
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
      webUtils: { getPathForFile: (file: unknown) => paths.get(file) ?? '' },
      ipcRenderer: {
        invoke: async (channel: string, request: unknown) => {
          invoked.push([channel, request]);
          return { ok: true, value: null };
        },
        on: (channel: string, listener: (event: unknown, message: unknown) => void) => listeners.set(channel, listener),
        removeListener: (channel: string) => listeners.delete(channel),
      },
    };
    // A sandboxed preload's world: the web's globals but none of Node's, and `require` knows only 'electron'.
    const module = { exports: {} };
    vm.runInNewContext(source, {
      TextEncoder,
      TextDecoder,
      URL,
      console,
      module,
      exports: module.exports,
      require: (name: string) => {
        if (name !== 'electron') throw new Error(`A sandboxed preload cannot require '${name}'.`);
        return electron;
      },
    });
    expect(exposed.map(([key]) => key)).toEqual(['bridge', 'droppedFiles']);
    const bridge = exposed[0]?.[1] as Record<string, Record<string, (request?: unknown) => Promise<unknown>>> & {
      on: (event: string, listener: (payload: unknown) => void) => () => void;
    };
    for (const channel of IPC_CHANNELS) {
      const { namespace, method } = bridgeMethodOf(channel);
      expect(typeof bridge[namespace]?.[method], channel).toBe('function');
    }
    expect(Object.keys(bridge).sort()).toEqual([...new Set(IPC_CHANNELS.map((channel) => bridgeMethodOf(channel).namespace)), 'on'].sort());

    expect(await bridge['vault']?.['hasKey']?.({ connectionId: 'c1' })).toEqual({ ok: true, value: null });
    await bridge['connections']?.['list']?.();
    expect(invoked).toEqual([
      ['vault:has-key', { connectionId: 'c1' }],
      ['connections:list', {}],
    ]);

    const droppedFiles = exposed[1]?.[1] as { choicesOf(files: unknown[]): Promise<unknown> };
    const onDisk = { name: 'tower.ifc' };
    paths.set(onDisk, '/home/user/models/tower.ifc');
    await droppedFiles.choicesOf([onDisk, { name: 'made-by-a-script.ifc' }]);
    expect(invoked.at(-1)).toEqual([DROPPED_FILES_CHANNEL, ['/home/user/models/tower.ifc', '']]);

    const received: unknown[] = [];
    const stop = bridge.on('local:status-changed', (payload) => received.push(payload));
    const deliver = listeners.get(IPC_EVENT_CHANNEL);
    expect(deliver).toBeDefined();
    deliver?.({}, { event: 'local:status-changed', payload: { state: 'running' } });
    deliver?.({}, { event: 'http:activity', payload: { connectionId: 'c1', queued: 0, running: 1 } });
    deliver?.({}, { event: 'not-an-event', payload: 1 });
    deliver?.({}, 'garbage');
    stop();
    deliver?.({}, { event: 'local:status-changed', payload: { state: 'stopped' } });
    expect(received).toEqual([{ state: 'running' }]);
  });

  it('keeps the main process to Node built-ins and the external packages, all shipped as dependencies', async () => {
    const source = await readFile(path.join(dist, 'electron', 'main.cjs'), 'utf8');
    const { names, computed } = requiresOf(source);
    expect(computed).toBe(0);
    const packages = names.filter((name) => !isBuiltin(name)).map(packageOf);
    expect(packages.every((name) => MAIN_EXTERNALS.includes(name))).toBe(true);
    expect(packages).toContain('electron');
    for (const name of packages.filter((each) => each !== 'electron')) expect(packageJson.dependencies).toHaveProperty([name]);
  });

  it('leaves to node_modules only packages the app ships (dependencies, not devDependencies)', () => {
    const imported = [
      ...packagesImportedBy(result.metafiles.server),
      ...packagesImportedBy(result.metafiles.worker),
      ...packagesImportedBy(result.metafiles.sheetWorker),
      ...packagesImportedBy(result.metafiles.imageScaleWorker),
      ...packagesImportedBy(result.metafiles.passportPdfWorker),
    ];
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(packageJson.dependencies, name).toHaveProperty([name]);
  });

  it('bundles the seed catalogues into the server instead of reading them beside its sources', async () => {
    const source = await readFile(path.join(dist, 'server', 'cli.mjs'), 'utf8');
    expect(source).not.toMatch(/(from|import\()\s*["'][^"']*\.json["']/);
    expect(Object.keys(result.metafiles.server.inputs).some((input) => input.endsWith('nl-sfb.json'))).toBe(true);
  });
});

describe('the bundled embedded server', () => {
  const key = 'bundle-test-key-0123456789abcdefghijklmnop';
  let child: ChildProcess;
  let baseUrl: string;
  let exited: Promise<number | null>;
  const output: string[] = [];

  beforeAll(async () => {
    const dataDir = path.join(app, 'data');
    await mkdir(dataDir);
    child = fork(path.join(dist, 'server', 'cli.mjs'), ['serve', '--port', '0', '--data', dataDir, '--demo'], {
      cwd: app,
      env: { ...process.env, CIRCULARITY_BOOTSTRAP_KEY: key, [PASSPORT_FONT_DIR_ENV]: path.join(dist, 'server', 'fonts') },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    baseUrl = await new Promise<string>((resolve, reject) => {
      child.on('message', (raw) => {
        const message = embeddedServerMessageOf(raw);
        if (message?.type === 'listening') resolve(message.url);
        if (message?.type === 'failed') reject(new Error(message.message));
      });
      child.once('exit', (code) => reject(new Error(`The bundled server exited (${code}): ${output.join('')}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  async function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${baseUrl}/api/v2.3${route}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('answers with the key it was given through the environment', async () => {
    const response = await call('GET', '/accounts/current');
    expect(response.status).toBe(200);
    // Started alone, as here, the server names its account after the computer; the desktop names its own.
    expect(((await response.json()) as { name: string }).name).toMatch(/^Circularity Desk on ./);
  });

  it('gives the demo building the model bundled beside it, processed: active, Mapped, with figures and its passports', async () => {
    const buildings = (await (await call('GET', '/buildings')).json()) as { id: string; name: string }[];
    const demo = buildings.find((building) => building.name === 'Demo office, Utrecht');
    if (demo === undefined) throw new Error(`No demo building among ${JSON.stringify(buildings)}`);
    const files = await until(
      async () => (await (await call('GET', `/buildings/${demo.id}/files`)).json()) as { type: number; status: number; isActive: boolean }[],
      (list) => list.filter((file) => file.type === 1000 || file.type === 1001).length === 2 && list.every((file) => file.status !== 6),
    );
    expect(files.find((file) => file.type === 0)).toMatchObject({ status: 3, isActive: true });
    expect(files.filter((file) => file.type >= 1000).map((file) => file.status)).toEqual([1, 1]);
    const circular = (await (await call('GET', `/buildings/${demo.id}/circular`)).json()) as { madasterCiScore: number | null };
    expect(circular.madasterCiScore).toBeGreaterThan(0);
  }, 120_000);

  it('imports an IFC model in its bundled worker and makes a PDF passport with the bundled fonts', async () => {
    const portfolio = (await (await call('POST', '/portfolios', { name: 'Bundle' })).json()) as { id: string };
    const building = (await (await call('POST', '/buildings', { portfolioId: portfolio.id, name: 'Bundle' })).json()) as { id: string };
    const file = (await (await call('POST', `/buildings/${building.id}/files`, { type: 0 })).json()) as { id: string };
    const upload = await fetch(`${baseUrl}/api/v2.3/buildings/${building.id}/files/${file.id}/upload/model.ifc`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' },
      body: await readFile(fixture),
    });
    expect(upload.status).toBe(201);
    const statusUrl = new URL(upload.headers.get('location') ?? '', baseUrl).href;
    const status = await until(
      async () => (await (await fetch(statusUrl, { headers: { 'x-api-key': key } })).json()) as { status: number; statusMessage: string | null; elementCount: number },
      (value) => value.status !== 1 && [0, 3, 99].includes(value.status),
    );
    expect(status.status, status.statusMessage ?? '').toBe(3);
    expect(status.elementCount).toBe(1);

    const activated = await call('POST', `/buildings/${building.id}/files/${file.id}/active`, true);
    expect(activated.status).toBeLessThan(300);
    const requested = await call('POST', `/buildings/${building.id}/exportpassport`, undefined, { 'accept-language': 'en' });
    expect(requested.status).toBe(202);
    const passportStatusUrl = new URL(requested.headers.get('location') ?? '', baseUrl).href;
    const passport = await until(
      async () => (await (await fetch(passportStatusUrl, { headers: { 'x-api-key': key } })).json()) as { status: number; statusMessage: string | null },
      (value) => value.status === 0 || value.status === 1,
    );
    expect(passport.status, passport.statusMessage ?? '').toBe(1);
    const download = (await (await fetch(passportStatusUrl.replace(/\/status$/, '/download'), { headers: { 'x-api-key': key } })).json()) as { url: string };
    const pdf = Buffer.from(await (await fetch(new URL(download.url, baseUrl))).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);

  it('stops cleanly when its parent asks it to', async () => {
    child.send({ type: 'shutdown' });
    // A guard against a hang that says what the server printed; how long a stop takes is not asserted.
    let guard: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_resolve, reject) => {
      guard = setTimeout(() => reject(new Error(`The bundled server did not exit; it printed: ${output.join('')}`)), 80_000);
    });
    try {
      expect(await Promise.race([exited, hung])).toBe(0);
    } finally {
      clearTimeout(guard);
    }
  }, 90_000);
});
