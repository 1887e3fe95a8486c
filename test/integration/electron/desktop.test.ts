/**
 * The desktop host's Bridge handlers with every real part: the Local workspace server as a child process, a second
 * real server on 127.0.0.1 as a remote connection, the queued client between them. Only the vault is in memory.
 */
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isChannelValue, type IpcChannel, type IpcRequest, type IpcResult, type IpcValue } from '../../../shared/ipc';
import { dispatchBridgeCall } from '../../../electron/bridge-dispatch';
import type { DesktopHost } from '../../../electron/desktop';
import { startServer, type RunningServer } from '../../../server/server';
import { startTestDesktopHost } from './desktop-harness';

const REMOTE_KEY = 'remote-admin-key-0123456789abcdefghijklmnopqrstuvwxyz';

let userDataDir: string;
let remoteDataDir: string;
let host: DesktopHost;
let remote: RunningServer;
const opened: string[] = [];
const logged: string[] = [];

async function call<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>> {
  const result = await dispatchBridgeCall(host.handlers, channel, request, (message) => logged.push(message));
  if (result.ok) expect(isChannelValue(channel, result.value)).toBe(true);
  return result as IpcResult<IpcValue<C>>;
}

async function value<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcValue<C>> {
  const result = await call(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

beforeAll(async () => {
  userDataDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-host-'));
  // As an earlier version left it: readable by every user of the computer.
  await chmod(userDataDir, 0o755);
  remoteDataDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-remote-'));
  remote = await startServer({ dataDir: remoteDataDir, port: 0, bootstrapKey: REMOTE_KEY, logger: false, worker: false });
  host = await startTestDesktopHost(userDataDir, {
    opened,
    log: (message) => logged.push(message),
  });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await remote?.close();
  await rm(userDataDir, { recursive: true, force: true });
  await rm(remoteDataDir, { recursive: true, force: true });
});

describe('the Local workspace', () => {
  it('runs on first start as the active connection, with its key stored and the demo portfolio', async () => {
    expect(host.status().local.state).toBe('running');
    const list = await value('connections:list', {});
    const local = list.connections.find((connection) => connection.kind === 'local');
    expect(local).toMatchObject({ name: 'Local workspace', hasKey: true, apiVersion: 'v2.3' });
    expect(list.activeId).toBe(local?.id);

    const answer = await value('api:request', { connectionId: local?.id ?? '', operationId: 'listPortfolios' });
    expect(answer.kind).toBe('ok');
    expect(answer.kind === 'ok' && (answer.value as { name: string }[]).map((portfolio) => portfolio.name)).toContain('Demo portfolio');

    const test = await value('connections:test', { connectionId: local?.id ?? '' });
    expect(test).toMatchObject({ kind: 'ok', accountName: expect.any(String), accountType: expect.any(Number) });
  });

  it('keeps its key: the renderer can neither replace nor clear it, nor delete the connection', async () => {
    for (const result of [
      await call('vault:set-key', { connectionId: 'local', key: 'something-else' }),
      await call('vault:clear-key', { connectionId: 'local' }),
      await call('connections:remove', { connectionId: 'local' }),
    ]) {
      expect(result).toMatchObject({ ok: false, error: { code: 'conflict' } });
    }
  });
});

// Windows has no POSIX modes (NTFS ACLs keep a profile's folders its user's), so there is nothing to read there.
describe.skipIf(process.platform === 'win32')('the user-data folder', () => {
  it("is the user's alone: the folder 0700, and every folder in it 0700 and file 0600", async () => {
    await value('connections:add', { name: 'Written down', baseUrl: 'http://127.0.0.1:9', apiVersion: 'v2.3' });
    expect((await stat(userDataDir)).mode & 0o777).toBe(0o700);
    const entries = await readdir(userDataDir, { recursive: true, withFileTypes: true });
    const names = entries.map((entry) => path.relative(userDataDir, path.join(entry.parentPath, entry.name)));
    expect(names).toEqual(expect.arrayContaining(['connections.json', expect.stringMatching(/\.sqlite$/)]));
    for (const entry of entries) {
      const file = path.join(entry.parentPath, entry.name);
      expect([path.relative(userDataDir, file), (await stat(file)).mode & 0o777]).toEqual([
        path.relative(userDataDir, file),
        entry.isDirectory() ? 0o700 : 0o600,
      ]);
    }
  });
});

describe('a remote connection', () => {
  it('is added, gets a key, tests ok and answers requests with the key the vault holds', async () => {
    const connection = await value('connections:add', { name: 'Team server', baseUrl: `${remote.url}/`, apiVersion: 'v2.3' });
    expect(connection).toMatchObject({ kind: 'remote', hasKey: false, baseUrl: remote.url });
    expect(await value('vault:has-key', { connectionId: connection.id })).toBe(false);

    const withoutKey = await value('connections:test', { connectionId: connection.id });
    expect(withoutKey).toMatchObject({ kind: 'problem', status: 401 });

    await value('vault:set-key', { connectionId: connection.id, key: REMOTE_KEY });
    expect(await value('vault:has-key', { connectionId: connection.id })).toBe(true);
    expect(await value('connections:test', { connectionId: connection.id })).toMatchObject({ kind: 'ok' });

    const created = await value('api:request', {
      connectionId: connection.id,
      operationId: 'createPortfolio',
      body: { name: 'Remote portfolio' },
    });
    expect(created).toMatchObject({ kind: 'ok', status: 201, location: expect.stringContaining('/portfolios/') });

    await value('vault:clear-key', { connectionId: connection.id });
    const cleared = await value('api:request', { connectionId: connection.id, operationId: 'listPortfolios' });
    expect(cleared).toMatchObject({ kind: 'problem', status: 401 });
  });

  it('with a wrong key tests as a 401 problem the user can read', async () => {
    const connection = await value('connections:add', { name: 'Wrong key', baseUrl: remote.url, apiVersion: 'v2.3' });
    await value('vault:set-key', { connectionId: connection.id, key: 'not-the-right-key' });
    const test = await value('connections:test', { connectionId: connection.id });
    expect(test.kind).toBe('problem');
    expect(test.kind === 'problem' && test.status).toBe(401);
    expect(test.kind === 'problem' && test.detail.length).toBeGreaterThan(0);
  });

  it('is tested before it is saved, with the typed key, and nothing of it is kept', async () => {
    const before = await value('connections:list', {});
    expect(await value('connections:test-draft', { baseUrl: `${remote.url}/`, apiVersion: 'v2.3', key: REMOTE_KEY })).toMatchObject({ kind: 'ok' });
    expect(await value('connections:test-draft', { baseUrl: remote.url, apiVersion: 'v2.3', key: 'not-the-right-key' })).toMatchObject({
      kind: 'problem',
      status: 401,
    });
    expect(await value('connections:test-draft', { baseUrl: 'http://127.0.0.1:9', apiVersion: 'v2.3', key: REMOTE_KEY })).toMatchObject({ kind: 'network' });
    expect(await value('connections:list', {})).toEqual(before);
  });

  it('to an address where nothing listens tests as a network failure', async () => {
    const connection = await value('connections:add', { name: 'Nobody', baseUrl: 'http://127.0.0.1:9', apiVersion: 'v2.3' });
    expect(await value('connections:test', { connectionId: connection.id })).toMatchObject({ kind: 'network' });
  });

  it('to a web server that is not this API is told apart from a working one', async () => {
    const other = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as AddressInfo;
      const connection = await value('connections:add', { name: 'Not the API', baseUrl: `http://127.0.0.1:${port}`, apiVersion: 'v2.3' });
      await value('vault:set-key', { connectionId: connection.id, key: 'any-key' });
      const test = await value('connections:test', { connectionId: connection.id });
      expect(test).toMatchObject({ kind: 'network', message: expect.stringContaining('not as the Building Circularity Data API') });
    } finally {
      other.close();
    }
  });
});

describe("a connection's key stays with its server", () => {
  /** A server that records the key each request brings, answering 401 like the API without a valid one. */
  async function keyCollector(): Promise<{ url: string; keys: (string | undefined)[]; close: () => void }> {
    const keys: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      const key = request.headers['x-api-key'];
      keys.push(typeof key === 'string' ? key : undefined);
      request.resume();
      response.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"Unauthorized","status":401}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys, close: () => server.close() };
  }

  it('changing the address to another origin clears the key, and nothing reaches the new address with it', async () => {
    const collector = await keyCollector();
    try {
      const connection = await value('connections:add', { name: 'Moving', baseUrl: remote.url, apiVersion: 'v2.3' });
      await value('vault:set-key', { connectionId: connection.id, key: REMOTE_KEY });
      const moved = await value('connections:update', { connectionId: connection.id, name: 'Moving', baseUrl: collector.url, apiVersion: 'v2.3' });
      expect(moved.hasKey).toBe(false);
      await value('connections:test', { connectionId: connection.id });
      await value('api:request', { connectionId: connection.id, operationId: 'listPortfolios' });
      expect(collector.keys).toEqual([undefined, undefined]);
      // Back to the first address, the key is not there either: it has to be entered again.
      const back = await value('connections:update', { connectionId: connection.id, name: 'Moving', baseUrl: remote.url, apiVersion: 'v2.3' });
      expect(back.hasKey).toBe(false);
      expect(await value('connections:test', { connectionId: connection.id })).toMatchObject({ kind: 'problem', status: 401 });
    } finally {
      collector.close();
    }
  });

  it('a new name, path or API version on the same origin keeps the key', async () => {
    const connection = await value('connections:add', { name: 'Staying', baseUrl: remote.url, apiVersion: 'v2.3' });
    await value('vault:set-key', { connectionId: connection.id, key: REMOTE_KEY });
    const renamed = await value('connections:update', { connectionId: connection.id, name: 'Stayed', baseUrl: `${remote.url}/`, apiVersion: 'v2.1' });
    expect(renamed.hasKey).toBe(true);
    expect(await value('connections:test', { connectionId: connection.id })).toMatchObject({ kind: 'ok' });
  });
});

describe('plain http', () => {
  it('to another computer is refused unless the user confirmed it; on this computer it needs nothing', async () => {
    const refused = await call('connections:add', { name: 'Office', baseUrl: 'http://desk.example', apiVersion: 'v2.3' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('unencrypted') } });
    const draftTest = await call('connections:test-draft', { baseUrl: 'http://desk.example', apiVersion: 'v2.3', key: 'a-key' });
    expect(draftTest).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const confirmed = await value('connections:add', { name: 'Office', baseUrl: 'http://desk.example', apiVersion: 'v2.3', plainHttpConfirmed: true });
    expect(confirmed.baseUrl).toBe('http://desk.example');
    // Renaming keeps what was agreed for the address; moving to another plain http server asks again.
    expect(await call('connections:update', { connectionId: confirmed.id, name: 'Office 2', baseUrl: 'http://desk.example', apiVersion: 'v2.3' })).toMatchObject({ ok: true });
    expect(await call('connections:update', { connectionId: confirmed.id, name: 'Office 2', baseUrl: 'http://other.example', apiVersion: 'v2.3' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(await call('connections:add', { name: 'Here', baseUrl: 'http://127.0.0.1:9', apiVersion: 'v2.3' })).toMatchObject({ ok: true });
  });
});

describe('moving the Local workspace on a host that cannot ask the user', () => {
  it('moves nothing: the page alone cannot confirm where the workspace goes', async () => {
    const result = await call('local:migrate', { databaseUrl: 'postgres://team@db.example/desk', blobs: 's3://bucket', teamServerUrl: 'https://desk.example' });
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('confirm') } });
  });
});

describe('provisioning', () => {
  it('adds the connection with its key and activates it, and updates the same one when run again', async () => {
    const first = await host.provision(`${remote.url}/`, 'an-old-key');
    expect(first).toMatchObject({ kind: 'remote', baseUrl: remote.url, hasKey: true });
    const again = await host.provision(remote.url, REMOTE_KEY);
    expect(again.id).toBe(first.id);
    const list = await value('connections:list', {});
    expect(list.activeId).toBe(first.id);
    expect(list.connections.filter((connection) => connection.baseUrl === remote.url && connection.id === first.id)).toHaveLength(1);
    expect(await value('connections:test', { connectionId: first.id })).toMatchObject({ kind: 'ok' });
  });
});

describe('requests the bridge refuses', () => {
  it('refuses files, unknown operations, unknown connections and non-http links', async () => {
    for (const operationId of ['uploadBuildingFile', 'downloadBlob']) {
      expect(await call('api:request', { connectionId: 'local', operationId, params: { id: 'x', token: 'y' } })).toMatchObject({
        ok: false,
        error: { code: 'invalid-request', message: expect.stringContaining('file') },
      });
    }
    expect(await call('api:request', { connectionId: 'local', operationId: 'noSuchOperation' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(await call('api:request', { connectionId: 'gone', operationId: 'listPortfolios' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await call('shell:open-external', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(await call('shell:open-external', { url: 'https://example.org/docs' })).toEqual({ ok: true, value: null });
    expect(opened).toEqual(['https://example.org/docs']);
  });
});
