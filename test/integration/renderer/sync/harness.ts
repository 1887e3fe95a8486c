/**
 * The sync engine against a real server: a server with its job worker on a fresh data folder, the real queued client
 * of the desktop host as the engine's ApiPort, and a cache on fake-indexeddb (IndexedDB is all that cannot run here).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect } from 'vitest';
import { runApiCall } from '../../../../electron/http/api-request';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { scanElements } from '../../../../renderer/db/reads';
import type { ApiCall, ApiPort } from '../../../../renderer/api/port';
import { startServer, type RunningServer } from '../../../../server/server';
import type { BuildingFileElementResponse, BuildingFileResponse, BuildingFileStatusResponse } from '../../../../shared/api/schemas';
import { IFC_FIXTURES } from '../../../fixtures/files';

/** The administrator key of the test server. */
export const KEY = 'sync-test-key-0123456789abcdefghijklmnopqrstuvwxyz';


/** A JSON answer of the test server. */
export interface Answer<T = unknown> {
  status: number;
  json: T;
}

/** A running server and a way to change its data behind the engine's back. */
export interface SyncServer {
  url: string;
  /** One request with the administrator key, straight to the server. */
  request<T = unknown>(method: string, route: string, body?: unknown): Promise<Answer<T>>;
  close(): Promise<void>;
}

/** Starts a server with its worker on a fresh data folder. */
export async function startSyncServer(): Promise<SyncServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-sync-'));
  const server: RunningServer = await startServer({ dataDir, port: 0, bootstrapKey: KEY, logger: false, worker: true });
  return {
    url: server.url,
    request: async <T>(method: string, route: string, body?: unknown): Promise<Answer<T>> => {
      const binary = body instanceof Uint8Array;
      const response = await fetch(`${server.url}/api/v2.3${route}`, {
        method,
        headers: {
          'x-api-key': KEY,
          ...(body === undefined ? {} : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
        },
        body: body === undefined ? undefined : binary ? Uint8Array.from(body) : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: (text === '' ? null : JSON.parse(text)) as T };
    },
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** How the fault-injecting fetch answers a request: normally, with a status, or not at all. */
export type Fault = 'pass' | 'network' | number;

/** The engine's port over the real queued client; `fault` decides per request whether the network misbehaves. */
export function queuedPort(server: SyncServer, fault: (url: URL) => Fault = () => 'pass'): ApiPort {
  const faultyFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const decision = fault(url);
    if (decision === 'network') throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
    if (decision === 'pass') return fetch(input, init);
    const problem = { type: 'about:blank', title: 'Injected', status: decision, detail: 'Injected by the test.', instance: url.pathname, errors: [], message: 'Injected by the test.' };
    return new Response(JSON.stringify(problem), { status: decision, headers: { 'content-type': 'application/problem+json' } });
  };
  // One attempt: the engine's own handling of a failure is under test, not the client's retries.
  const client = createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => KEY, fetch: faultyFetch, retry: { attempts: 1 } });
  return (call) => runApiCall(client, 'v2.3', call);
}

/** A port that records every call it passes on. */
export function recording(port: ApiPort): { port: ApiPort; calls: ApiCall[] } {
  const calls: ApiCall[] = [];
  return {
    calls,
    port: (call) => {
      calls.push(call);
      return port(call);
    },
  };
}

/** A fresh IndexedDB, as a new browser profile has. */
export function freshIndexedDb(): IDBFactory {
  return new IDBFactory();
}

/** Opens the cache of connection `test` in an IndexedDB. */
export function openCache(factory: IDBFactory): CacheDb {
  return new CacheDb('test', { indexedDB: factory, IDBKeyRange });
}

/** Creates a portfolio with a building; answers their ids. */
export async function createBuilding(server: SyncServer, name = 'Building'): Promise<{ portfolioId: string; buildingId: string }> {
  const portfolio = await server.request<{ id: string }>('POST', '/portfolios', { name: `${name} portfolio` });
  const building = await server.request<{ id: string }>('POST', '/buildings', { portfolioId: portfolio.json.id, name });
  return { portfolioId: portfolio.json.id, buildingId: building.json.id };
}

/** The element ids `E0000`, `E0001`, … */
export function elementIds(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `E${String(from + index).padStart(4, '0')}`);
}

/** Puts a file in Importing and creates or replaces elements in it through the element endpoints. */
export async function writeElements(
  server: SyncServer,
  buildingId: string,
  fileId: string,
  ids: readonly string[],
  name: string,
  method: 'POST' | 'PUT' = 'POST',
): Promise<void> {
  const setImporting = await server.request('POST', `/buildings/${buildingId}/files/${fileId}/setimporting`);
  expect(setImporting.status).toBe(204);
  const base = `/buildings/${buildingId}/files/${fileId}/elements`;
  for (let start = 0; start < ids.length; start += 25) {
    const answers = await Promise.all(
      ids.slice(start, start + 25).map((id, index) =>
        server.request(method, method === 'POST' ? base : `${base}/${encodeURIComponent(id)}`, {
          id,
          name,
          volume: start + index + 0.5,
          materialName: 'Beton',
          floor: '00',
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => (method === 'POST' ? 201 : 200)));
  }
}

/** Creates a source file holding `count` elements made through the element endpoints (the file stays Importing). */
export async function createElementFile(server: SyncServer, buildingId: string, count: number): Promise<string> {
  const file = await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0, name: 'made.ifc' });
  await writeElements(server, buildingId, file.json.id, elementIds(0, count), 'made');
  return file.json.id;
}

/** Uploads an IFC fixture as a new source file and waits until the server has mapped it. */
export async function importIfc(server: SyncServer, buildingId: string, fixture: string): Promise<string> {
  const file = await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 });
  const fileId = file.json.id;
  const upload = await server.request('POST', `/buildings/${buildingId}/files/${fileId}/upload/${fixture}`, new Uint8Array(await readFile(path.join(IFC_FIXTURES, fixture))));
  expect(upload.status).toBe(201);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`);
    if (status.json.status === 3) return fileId;
    if ([0, 99].includes(status.json.status) || Date.now() > deadline) throw new Error(`Import ended as ${JSON.stringify(status.json)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function byId<T>(rows: readonly T[], key: (row: T) => string = (row) => (row as { id: string }).id): T[] {
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The server's elements of a file, all of them, in id order. */
export async function serverElements(server: SyncServer, buildingId: string, fileId: string): Promise<BuildingFileElementResponse[]> {
  return byId((await server.request<BuildingFileElementResponse[]>('GET', `/buildings/${buildingId}/files/${fileId}/elements`)).json);
}

/** The cached elements of a file, in id order. */
export async function cachedElements(db: CacheDb, fileId: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  await scanElements(db, fileId, (chunk) => rows.push(...chunk));
  return byId(rows as { id: string }[]);
}

/** Expects no staged block set left behind, and no block outside the shown sets. */
export async function expectNoStrayBlocks(db: CacheDb): Promise<void> {
  const sets = await db.elementSets.toArray();
  expect(sets.filter((each) => each.staged !== null), 'staged block sets').toEqual([]);
  const shown = sets.reduce((blocks, each) => blocks + (each.shown?.blocks ?? 0), 0);
  expect(await db.elementBlocks.count(), 'blocks').toBe(shown);
  expect(await db.elementBlockIds.count(), 'id records').toBe(shown);
}

/** Expects every collection, every file's elements and every building's figures in the cache to equal the server's. */
export async function expectCacheEqualsServer(db: CacheDb, server: SyncServer): Promise<void> {
  const lists = [
    ['portfolios', '/portfolios'],
    ['buildings', '/buildings'],
    ['classificationMethods', '/system/classificationmethods'],
  ] as const;
  for (const [table, route] of lists) {
    expect(byId(await db.table(table).toArray()), table).toEqual(byId((await server.request<unknown[]>('GET', route)).json));
  }
  // A catalogue is the platform's database and the account's own one.
  const { id: accountId } = (await server.request<{ id: string }>('GET', '/accounts/current')).json;
  for (const table of ['materials', 'products'] as const) {
    const platform = (await server.request<{ id: string }[]>('GET', `/${table}`)).json;
    const own = (await server.request<{ id: string }[]>('GET', `/${table}?databaseId=${accountId}`)).json;
    const complete = [...new Map([...platform, ...own].map((item) => [item.id, item])).values()];
    expect(byId(await db.table(table).toArray()), table).toEqual(byId(complete));
  }
  const buildings = (await server.request<{ id: string }[]>('GET', '/buildings')).json;
  const cachedFiles: unknown[] = [];
  const serverFiles: unknown[] = [];
  for (const { id: buildingId } of buildings) {
    const files = (await server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`)).json;
    serverFiles.push(...files);
    cachedFiles.push(...(await db.files.where('buildingId').equals(buildingId).toArray()).map(({ elementsStamp: _stamp, ...row }) => row));
    for (const file of files) {
      const elements = await serverElements(server, buildingId, file.id);
      expect(await cachedElements(db, file.id), `elements of ${file.id}`).toEqual(elements);
      expect((await db.files.get(file.id))?.elementsStamp).toBe(file.lastModifiedDate);
    }
    const figures = await db.buildingFigures.get(buildingId);
    expect(figures?.circular, 'circular').toEqual((await server.request('GET', `/buildings/${buildingId}/circular`)).json);
    expect(figures?.financial, 'financial').toEqual((await server.request('GET', `/buildings/${buildingId}/financial`)).json);
    expect(figures?.validation, 'validation').toEqual((await server.request('GET', `/buildings/${buildingId}/validation`)).json);
  }
  expect(byId(cachedFiles)).toEqual(byId(serverFiles));
  await expectNoStrayBlocks(db);
  expect(await db.syncState.where('key').startsWith('elements:').count(), 'element cursors').toBe(0);
}
