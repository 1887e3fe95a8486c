/**
 * Drop folders against a real server: a server with its job worker on a fresh data folder, the real queued client
 * (its fetch only counts the uploads it sends), real folders in the temp folder and the IFC fixtures.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createQueuedClient, type QueuedClient } from '../../../../electron/http/queued-client';
import { startServer, type RunningServer } from '../../../../server/server';
import type { BuildingFileResponse, BuildingFileStatusResponse } from '../../../../shared/api/schemas';
import { ifcFixture } from '../../../fixtures/files';

/** The administrator key of the test server. */
export const KEY = 'drop-folder-test-key-0123456789abcdefghijklmnop';

/** A tiny model: one composite wall in 7 parts (29,677 bytes). */
export const SMALL_IFC = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');
/** A small Revit model: 115 elements (414,033 bytes). */
export const EXAMPLE_IFC = ifcFixture('example.ifc');

/** A running test server. */
export interface DropServer {
  url: string;
  /** One JSON request with the administrator key, straight to the server; throws for anything but 2xx. */
  request<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** Starts a server with its worker on a fresh data folder. */
export async function startDropServer(): Promise<DropServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-drop-server-'));
  const server: RunningServer = await startServer({ dataDir, port: 0, bootstrapKey: KEY, logger: false, worker: true });
  return {
    url: server.url,
    request: async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${server.url}/api/v2.3${route}`, {
        method,
        headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
      return (text === '' ? null : JSON.parse(text)) as T;
    },
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a portfolio, and a building in it when `buildingName` is given. */
export async function createTarget(server: DropServer, buildingName?: string): Promise<{ portfolioId: string; buildingId: string | undefined }> {
  const portfolio = await server.request<{ id: string }>('POST', '/portfolios', { name: 'Drop folder portfolio' });
  if (buildingName === undefined) return { portfolioId: portfolio.id, buildingId: undefined };
  const building = await server.request<{ id: string }>('POST', '/buildings', { portfolioId: portfolio.id, name: buildingName });
  return { portfolioId: portfolio.id, buildingId: building.id };
}

/** The files of a building on the server. */
export function remoteFiles(server: DropServer, buildingId: string): Promise<BuildingFileResponse[]> {
  return server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
}

/** A file's processing status on the server. */
export function remoteStatus(server: DropServer, buildingId: string, fileId: string): Promise<BuildingFileStatusResponse> {
  return server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`);
}

/** The SHA-256 of the content the server holds for a file, read through its signed download address. */
export async function remoteSha256(server: DropServer, buildingId: string, fileId: string): Promise<string> {
  const { url } = await server.request<{ url: string }>('GET', `/buildings/${buildingId}/files/${fileId}/download`);
  const response = await fetch(new URL(url, server.url));
  if (!response.ok) throw new Error(`download: ${response.status}`);
  return createHash('sha256').update(new Uint8Array(await response.arrayBuffer())).digest('hex');
}

/** The SHA-256 of a local file. */
export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256').update(await readFile(file)).digest('hex');
}

/** A queued client of the test server, and the upload requests it sent (the address of each). */
export function countingClient(server: DropServer): { client: QueuedClient; uploads: string[] } {
  const uploads: string[] = [];
  const counting: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if ((init?.method ?? 'GET') === 'POST' && url.includes('/upload/')) uploads.push(url);
    return fetch(input, init);
  };
  const client = createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => KEY, fetch: counting, retry: { baseDelayMs: 50, maxDelayMs: 200 } });
  return { client, uploads };
}

/**
 * Copies a file the way a slow exporter or a network copy writes it: in chunks with pauses, the file open all along.
 * `onChunk` hears each chunk after it is written.
 */
export async function slowCopy(source: string, target: string, options: { chunks: number; pauseMs: number; onChunk?: (index: number) => void }): Promise<void> {
  const content = await readFile(source);
  const size = Math.ceil(content.byteLength / options.chunks);
  const handle = await open(target, 'w');
  try {
    for (let index = 0; index < options.chunks; index += 1) {
      await handle.write(content.subarray(index * size, (index + 1) * size));
      options.onChunk?.(index);
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  } finally {
    await handle.close();
  }
}

/** A fresh folder in the temp folder. */
export function tempFolder(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}
