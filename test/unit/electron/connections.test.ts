import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeError, type ConnectionDraft } from '../../../shared/ipc';
import { ConnectionStore, LOCAL_CONNECTION_ID, normaliseBaseUrl } from '../../../electron/connections';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LOCAL_URL = 'http://127.0.0.1:41234';

function draft(overrides: Partial<ConnectionDraft> = {}): ConnectionDraft {
  return { name: 'Staging', baseUrl: 'https://staging.example.com', apiVersion: 'v2.3', ...overrides };
}

async function failureOf(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'connections-'));
  file = path.join(dir, 'connections.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('normaliseBaseUrl', () => {
  it.each([
    ['HTTPS://Example.COM:8443/Api/v2.3///', 'https://example.com:8443/Api/v2.3'],
    ['  http://localhost:8080/  ', 'http://localhost:8080'],
    ['https://example.com:443/', 'https://example.com'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('turns %j into %j', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['ftp://example.com'],
    ['https://user:secret@example.com'],
    ['https://example.com/?token=1'],
    ['https://example.com/#top'],
    ['example.com'],
    ['https://exa mple.com'],
    ['http://'],
  ])('refuses %j', (input) => {
    expect(() => normaliseBaseUrl(input)).toThrow(BridgeError);
  });
});

describe('ConnectionStore', () => {
  it('starts empty', async () => {
    const store = await ConnectionStore.open(dir);
    expect(store.setAside).toBeUndefined();
    expect(store.list()).toEqual({ profiles: [], activeId: null });
  });

  it('adds remote connections with a fresh id, normalised fields, and the first one active', async () => {
    const store = await ConnectionStore.open(dir);
    const first = await store.add(draft({ name: '  Staging  ', baseUrl: 'HTTPS://Staging.Example.com/' }));
    expect(first).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Staging',
      baseUrl: 'https://staging.example.com',
      apiVersion: 'v2.3',
      kind: 'remote',
    });
    const second = await store.add(draft({ name: 'Staging', apiVersion: 'v2.1' }));
    expect(second.id).not.toBe(first.id);
    expect(store.list()).toEqual({ profiles: [first, second], activeId: first.id });
    expect(store.get(second.id)).toEqual(second);
    expect(store.get('nope')).toBeUndefined();
    expect((await failureOf(Promise.resolve().then(() => store.require('nope')))).code).toBe('not-found');
  });

  it('keeps everything across a restart', async () => {
    const store = await ConnectionStore.open(dir);
    await store.ensureLocal(LOCAL_URL);
    const remote = await store.add(draft());
    await store.activate(remote.id);
    const reopened = await ConnectionStore.open(dir);
    expect(reopened.setAside).toBeUndefined();
    expect(reopened.list()).toEqual(store.list());
    expect(reopened.list().activeId).toBe(remote.id);
  });

  it('keeps every connection added at the same time', async () => {
    const store = await ConnectionStore.open(dir);
    await Promise.all([store.add(draft({ name: 'A' })), store.add(draft({ name: 'B' })), store.add(draft({ name: 'C' }))]);
    const names = (await ConnectionStore.open(dir)).list().profiles.map((profile) => profile.name);
    expect(names.sort()).toEqual(['A', 'B', 'C']);
  });

  it('refuses an empty name or an invalid address without saving', async () => {
    const store = await ConnectionStore.open(dir);
    expect((await failureOf(store.add(draft({ name: '   ' })))).code).toBe('invalid-request');
    expect((await failureOf(store.add(draft({ baseUrl: 'https://me:pw@example.com' })))).code).toBe('invalid-request');
    expect(await readdir(dir)).toEqual([]);
  });

  it('updates a remote connection', async () => {
    const store = await ConnectionStore.open(dir);
    const added = await store.add(draft());
    const updated = await store.update(added.id, { name: 'Production', baseUrl: 'https://API.example.com/', apiVersion: 'v2.1' });
    expect(updated).toEqual({ ...added, name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.1' });
    expect((await ConnectionStore.open(dir)).get(added.id)).toEqual(updated);
    expect((await failureOf(store.update('missing', draft()))).code).toBe('not-found');
  });

  it('removes connections; the Local workspace takes over from a removed active one', async () => {
    const store = await ConnectionStore.open(dir);
    await store.ensureLocal(LOCAL_URL);
    const a = await store.add(draft({ name: 'A' }));
    const b = await store.add(draft({ name: 'B' }));
    await store.activate(b.id);
    await store.remove(a.id);
    expect(store.list().activeId).toBe(b.id);
    await store.remove(b.id);
    expect(store.list()).toEqual({ profiles: [store.require(LOCAL_CONNECTION_ID)], activeId: LOCAL_CONNECTION_ID });
    expect((await failureOf(store.remove(b.id))).code).toBe('not-found');
  });

  it('activates the first remaining connection, or none, when there is no Local workspace', async () => {
    const store = await ConnectionStore.open(dir);
    const a = await store.add(draft({ name: 'A' }));
    const b = await store.add(draft({ name: 'B' }));
    await store.remove(a.id);
    expect(store.list().activeId).toBe(b.id);
    await store.remove(b.id);
    expect(store.list()).toEqual({ profiles: [], activeId: null });
  });

  it('activates only connections that exist', async () => {
    const store = await ConnectionStore.open(dir);
    expect((await failureOf(store.activate('missing'))).code).toBe('not-found');
  });

  it('tells listeners about saved changes only, until they stop listening', async () => {
    const store = await ConnectionStore.open(dir);
    let calls = 0;
    const stop = store.onChange(() => {
      calls += 1;
    });
    const a = await store.add(draft());
    expect(calls).toBe(1);
    await store.activate(a.id);
    expect(calls).toBe(1);
    await failureOf(store.activate('missing'));
    expect(calls).toBe(1);
    await store.update(a.id, draft({ name: 'Renamed' }));
    expect(calls).toBe(2);
    stop();
    await store.remove(a.id);
    expect(calls).toBe(2);
  });

  it('takes plain http to a *.localhost name without consent only when the name resolves to loopback', async () => {
    const lookup = async (hostname: string): Promise<string[]> => (hostname === 'app.localhost' ? ['127.0.0.1'] : ['203.0.113.7']);
    const store = await ConnectionStore.open(dir, lookup);
    expect(await store.add(draft({ baseUrl: 'http://app.localhost:8080' }))).toMatchObject({ baseUrl: 'http://app.localhost:8080' });
    const refused = await failureOf(store.add(draft({ baseUrl: 'http://evil.localhost:8080' })));
    expect(refused).toMatchObject({ code: 'invalid-request', message: expect.stringContaining('Plain http sends the key') });
    const confirmed = await store.add(draft({ baseUrl: 'http://evil.localhost:8080', plainHttpConfirmed: true }));
    const moved = await failureOf(store.update(confirmed.id, draft({ baseUrl: 'http://other.localhost:8080' })));
    expect(moved.code).toBe('invalid-request');
    expect(store.list().profiles.map((profile) => profile.baseUrl)).toEqual(['http://app.localhost:8080', 'http://evil.localhost:8080']);
  });

  it('reports a failed write and keeps the previous state', async () => {
    const store = await ConnectionStore.open(dir);
    // The file's place is taken by a folder, so the atomic rename fails.
    await mkdir(file);
    const failure = await failureOf(store.add(draft()));
    expect(failure.code).toBe('storage-failed');
    expect(store.list()).toEqual({ profiles: [], activeId: null });
  });
});

describe('the Local workspace', () => {
  it('is created on first start, first in the list and active', async () => {
    const store = await ConnectionStore.open(dir);
    const local = await store.ensureLocal(`${LOCAL_URL}/`);
    expect(local).toEqual({ id: 'local', name: 'Local workspace', baseUrl: LOCAL_URL, apiVersion: 'v2.3', kind: 'local' });
    expect(store.list()).toEqual({ profiles: [local], activeId: 'local' });
  });

  it('joins an existing list at the front without taking the active place', async () => {
    const store = await ConnectionStore.open(dir);
    const remote = await store.add(draft());
    await store.ensureLocal(LOCAL_URL);
    expect(store.list().profiles.map((profile) => profile.id)).toEqual(['local', remote.id]);
    expect(store.list().activeId).toBe(remote.id);
  });

  it("follows this start's address and keeps its name", async () => {
    const store = await ConnectionStore.open(dir);
    await store.ensureLocal(LOCAL_URL);
    await store.update('local', { name: 'My desk', baseUrl: LOCAL_URL, apiVersion: 'v2.3' });
    let calls = 0;
    store.onChange(() => {
      calls += 1;
    });
    await store.ensureLocal(LOCAL_URL);
    expect(calls).toBe(0);
    const moved = await (await ConnectionStore.open(dir)).ensureLocal('http://127.0.0.1:50000');
    expect(moved).toMatchObject({ name: 'My desk', baseUrl: 'http://127.0.0.1:50000' });
  });

  it('can only be renamed', async () => {
    const store = await ConnectionStore.open(dir);
    await store.ensureLocal(LOCAL_URL);
    const renamed = await store.update('local', { name: ' Desk ', baseUrl: `${LOCAL_URL}/`, apiVersion: 'v2.3' });
    expect(renamed.name).toBe('Desk');
    const moved = await failureOf(store.update('local', { name: 'Desk', baseUrl: 'https://example.com', apiVersion: 'v2.3' }));
    expect(moved.code).toBe('conflict');
    const downgraded = await failureOf(store.update('local', { name: 'Desk', baseUrl: LOCAL_URL, apiVersion: 'v2.1' }));
    expect(downgraded.code).toBe('conflict');
    expect(store.require('local').baseUrl).toBe(LOCAL_URL);
  });

  it('cannot be removed', async () => {
    const store = await ConnectionStore.open(dir);
    await store.ensureLocal(LOCAL_URL);
    expect((await failureOf(store.remove('local'))).code).toBe('conflict');
    expect(store.get('local')).toBeDefined();
  });
});

describe('an unreadable connections file', () => {
  it.each([
    ['is not JSON', '{"profiles": ['],
    ['has the wrong shape', JSON.stringify({ version: 1, profiles: [{ id: 'x' }], activeId: null })],
    [
      'has a remote connection posing as the local one',
      JSON.stringify({
        version: 1,
        profiles: [{ id: 'local', name: 'L', baseUrl: LOCAL_URL, apiVersion: 'v2.3', kind: 'remote' }],
        activeId: null,
      }),
    ],
    [
      'has an active connection that does not exist',
      JSON.stringify({ version: 1, profiles: [], activeId: 'gone' }),
    ],
    [
      'has two connections with one id',
      JSON.stringify({
        version: 1,
        profiles: [
          { id: 'a', name: 'A', baseUrl: 'https://a.example.com', apiVersion: 'v2.3', kind: 'remote' },
          { id: 'a', name: 'B', baseUrl: 'https://b.example.com', apiVersion: 'v2.3', kind: 'remote' },
        ],
        activeId: 'a',
      }),
    ],
  ])('is set aside when it %s, and a fresh list starts', async (_case, content) => {
    await writeFile(file, content);
    const store = await ConnectionStore.open(dir);
    expect(store.setAside).toBeDefined();
    expect(path.basename(store.setAside ?? '')).toMatch(/^connections\.json\.invalid-/);
    expect(await readFile(store.setAside ?? '', 'utf8')).toBe(content);
    expect(store.list()).toEqual({ profiles: [], activeId: null });
    await store.ensureLocal(LOCAL_URL);
    expect((await ConnectionStore.open(dir)).list().activeId).toBe('local');
  });
});
