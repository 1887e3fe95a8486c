/**
 * The real API server for the renderer tests that sync: a server with real SQLite on a fresh data folder, whose
 * Bridge `api:request` answers come through the desktop host's real queued client. The client's fetch hands each
 * request to Fastify's `inject`, so no socket is opened and happy-dom's own fetch is never in the way. On top of the
 * real answers a test steers the calls: they are recorded, an operation can be answered with an injected failure, and
 * a call can be held until the test releases it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { onTestFinished } from 'vitest';
import { runApiCall } from '../../../electron/http/api-request';
import { runImageUpload } from '../../../electron/http/image-upload';
import { createQueuedClient } from '../../../electron/http/queued-client';
import { BuildingFileStatuses, PermissionLevel } from '../../../shared/api/enums';
import type { BuildingFileStatusResponse, BuildingRequest, BuildingResponse, PortfolioResponse, TokenResponse } from '../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest, Connection, ImageUpload } from '../../../shared/ipc';
import { prepareServer } from '../../../server/server';
import { deferred } from './harness';

/** The administrator key every test server is started with, and the key its connection sends unless told otherwise. */
export const KEY = 'renderer-test-key-0123456789abcdefghijklmnopqrstuvwxyz';

/** A remote connection with a key, for tests. */
export function remoteConnection(id: string, name = id): Connection {
  return { id, name, baseUrl: `https://${id}.example.com`, apiVersion: 'v2.3', kind: 'remote', hasKey: true };
}

/** A problem answer, to inject in place of the server's. */
export function problem(status: number, title: string, detail: string, errors: Array<{ path: string; message: string }> = []): ApiAnswer {
  return {
    kind: 'problem',
    status,
    problem: { type: 'about:blank', title, status, detail, instance: '/api/v2.3', errors, message: detail },
  };
}

/** No answer at all, as the host reports a server it cannot reach. */
export const NO_ANSWER: ApiAnswer = { kind: 'network', reason: 'unreachable', message: 'Connection refused.' };

/** A JSON answer of the server to a request sent straight to it. */
export interface Answer<T = unknown> {
  status: number;
  json: T;
}

/** A real server, the calls the renderer made of it, and how the test steers them. */
export interface ApiServer {
  /** Operation ids of the renderer's calls, in order. */
  calls: string[];
  /** Answers an operation with this instead of the server's answer (until deleted); the server never sees the call. */
  overrides: Map<string, () => ApiAnswer>;
  /** The key the connection's calls carry, read for every call as the host reads it from its vault. */
  apiKey: string;
  /** Makes the next call of an operation wait; call the returned function to let it go on to the server. */
  hold(operationId: string): () => void;
  /** Answers the Bridge's `api:request` for this server's connection. */
  handle(request: ApiRequest): Promise<ApiAnswer>;
  /** Answers the Bridge's `api:upload-image` for this server's connection, recorded as its operation id. */
  handleImageUpload(upload: ImageUpload): Promise<ApiAnswer>;
  /** One request with the administrator key straight to the server, not recorded: to seed data and read its state. */
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: object): Promise<Answer<T>>;
  createPortfolio(name: string): Promise<PortfolioResponse>;
  createBuilding(portfolioId: string, name: string, fields?: Partial<BuildingRequest>): Promise<BuildingResponse>;
  /** Gives the building an element, which leaves it with changes not yet calculated (`hasDirtyElements`). */
  addElement(buildingId: string): Promise<void>;
  /** A new key that sees this one building only. */
  buildingKey(buildingId: string): Promise<string>;
  /** Uploads content to a source file with the administrator key and waits until the server has processed it (needs the worker). */
  uploadSource(buildingId: string, fileId: string, fileName: string, content: Buffer): Promise<void>;
  /** Makes the server listen on 127.0.0.1 too, for a client that reaches it over a socket; answers its address. */
  listen(): Promise<string>;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The bytes of a streamed body (an image upload), for `inject`, which takes a whole payload. */
async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

/** A fetch that hands the request to the app's `inject` instead of a socket: JSON bodies, and the bytes of an image. */
function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    if (input instanceof Request) throw new Error('The client passes an address and options, not a Request.');
    const body = init?.body;
    let payload: string | Buffer | undefined;
    if (typeof body === 'string') payload = body;
    else if (body instanceof ReadableStream) payload = await bytesOf(body);
    else if (body !== undefined && body !== null) throw new Error('Only JSON bodies and streamed images pass the Bridge.');
    const url = new URL(String(input));
    const answer = await app.inject({
      method: (init?.method ?? 'GET') as HTTPMethods,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(payload === undefined ? {} : { payload }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const each of [value ?? []].flat()) headers.append(name, String(each));
    }
    const content = NULL_BODY_STATUSES.has(answer.statusCode) ? null : new Uint8Array(answer.rawPayload);
    return new Response(content, { status: answer.statusCode, headers });
  };
}

/**
 * Starts a server on a fresh data folder; it is closed and its folder removed when the test has finished. `worker`
 * runs its job worker, so uploads are imported and files refined; without it jobs stay queued.
 */
export async function startApiServer(options: { worker?: boolean } = {}): Promise<ApiServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-renderer-'));
  const worker = options.worker === true ? { pollMs: 20, leaseMs: 10_000, heartbeatMs: 1_000 } : false;
  const prepared = await prepareServer({ dataDir, bootstrapKey: KEY, logger: false, worker });
  // After the afterEach hooks, which stop the stores that call it.
  onTestFinished(async () => {
    await prepared.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const { app } = prepared;
  // One attempt: how the renderer handles a failure is under test, not the client's retries.
  const client = createQueuedClient({
    baseUrl: 'http://api.test',
    apiVersion: 'v2.3',
    apiKey: async () => server.apiKey,
    fetch: injectFetch(app),
    retry: { attempts: 1 },
  });
  const holds = new Map<string, Promise<void>>();

  async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, body?: object): Promise<Answer<T>> {
    const answer = await app.inject({
      method,
      url: `/api/v2.3${route}`,
      headers: { 'x-api-key': KEY },
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: answer.statusCode, json: (answer.body === '' ? null : answer.json()) as T };
  }

  async function create<T>(route: string, body: object): Promise<T> {
    const answer = await request<T>('POST', route, body);
    if (answer.status !== 201) throw new Error(`POST ${route} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    return answer.json;
  }

  /** Records a call, and holds it while the test says so. */
  async function steer(operationId: string): Promise<void> {
    server.calls.push(operationId);
    const held = holds.get(operationId);
    if (held !== undefined) {
      holds.delete(operationId);
      await held;
    }
  }

  const server: ApiServer = {
    calls: [],
    overrides: new Map(),
    apiKey: KEY,
    hold(operationId) {
      const gate = deferred<void>();
      holds.set(operationId, gate.promise);
      return () => gate.resolve();
    },
    async handle({ connectionId: _connectionId, ...call }) {
      await steer(call.operationId);
      const override = server.overrides.get(call.operationId);
      return override === undefined ? runApiCall(client, 'v2.3', call) : override();
    },
    async handleImageUpload({ connectionId: _connectionId, ...upload }) {
      const operationId = upload.target === 'building' ? 'addBuildingImage' : 'setPortfolioLogo';
      await steer(operationId);
      const override = server.overrides.get(operationId);
      return override === undefined ? runImageUpload(client, upload) : override();
    },
    request,
    createPortfolio: (name) => create<PortfolioResponse>('/portfolios', { name }),
    createBuilding: (portfolioId, name, fields = {}) => create<BuildingResponse>('/buildings', { ...fields, portfolioId, name }),
    async addElement(buildingId) {
      const file = await create<{ id: string }>(`/buildings/${buildingId}/files`, { type: 0, name: 'made.ifc' });
      const importing = await request('POST', `/buildings/${buildingId}/files/${file.id}/setimporting`);
      if (importing.status !== 204) throw new Error(`setimporting answered ${importing.status}.`);
      await create(`/buildings/${buildingId}/files/${file.id}/elements`, { id: 'E0001', name: 'Wall', volume: 1.5, materialName: 'Beton', floor: '00' });
    },
    listen: async () => app.listen({ host: '127.0.0.1', port: 0 }),
    buildingKey: async (buildingId) =>
      (await create<TokenResponse>(`/buildings/${buildingId}/tokens`, { name: 'One building', level: PermissionLevel.Write })).key,
    async uploadSource(buildingId, fileId, fileName, content) {
      const file = `/api/v2.3/buildings/${buildingId}/files/${fileId}`;
      const upload = await app.inject({
        method: 'POST',
        url: `${file}/upload/${encodeURIComponent(fileName)}`,
        headers: { 'x-api-key': KEY, 'content-type': 'application/octet-stream' },
        payload: content,
      });
      if (upload.statusCode !== 201) throw new Error(`The upload answered ${upload.statusCode}: ${upload.body}`);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { status, statusMessage } = (await request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json;
        if (status === BuildingFileStatuses.Mapped) return;
        if (status === BuildingFileStatuses.Error || status === BuildingFileStatuses.UnknownImportFile) throw new Error(`The import failed: ${statusMessage ?? ''}`);
        if (Date.now() > deadline) throw new Error(`${fileName} was not processed within 30 s.`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
  return server;
}
