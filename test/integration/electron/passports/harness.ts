/**
 * The passport service against a real server: the API server with its job worker on a fresh data folder (so passports
 * are really generated), the desktop host's queued client, and real folders in a temporary directory.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createQueuedClient, type QueuedClient } from '../../../../electron/http/queued-client';
import type { PassportEntry, PassportEvent } from '../../../../shared/passports';
import { startPassportService, type PassportService, type PassportServiceOptions } from '../../../../electron/passports/passport-service';
import { startServer, type RunningServer } from '../../../../server/server';
import type { BuildingFileStatusResponse } from '../../../../shared/api/schemas';
import { IFC_FIXTURES } from '../../../fixtures/files';

/** The administrator key of the test server. */
export const KEY = 'passport-test-key-0123456789abcdefghijklmnopqrstuvwxyz';
/** The connection id the tests give their targets. */
export const CONNECTION = 'test-server';
/** The smallest IFC fixture (SOURCES.md): one wall in seven parts. */
export const SMALL_IFC = 'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc';


/** A running server whose clock can be moved forward. */
export interface PassportServer {
  url: string;
  /** Added to the real time the server sees (signing and checking download addresses included). */
  clockOffsetMs: number;
  request<T = unknown>(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: T }>;
  close(): Promise<void>;
}

/** Starts a server with its worker on a fresh data folder. */
export async function startPassportServer(): Promise<PassportServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-passport-server-'));
  const handle: { server?: RunningServer } = {};
  const passportServer: PassportServer = {
    url: '',
    clockOffsetMs: 0,
    request: async <T>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const binary = body instanceof Uint8Array;
      const response = await fetch(`${passportServer.url}/api/v2.3${route}`, {
        method,
        headers: {
          'x-api-key': KEY,
          ...(body === undefined ? {} : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : binary ? Uint8Array.from(body) : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: (text === '' ? null : JSON.parse(text)) as T };
    },
    close: async () => {
      await handle.server?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  handle.server = await startServer({
    dataDir,
    port: 0,
    bootstrapKey: KEY,
    logger: false,
    worker: { pollMs: 50 },
    now: () => new Date(Date.now() + passportServer.clockOffsetMs),
  });
  passportServer.url = handle.server.url;
  return passportServer;
}

/** A queued client of the test server, as the desktop host makes one per connection. */
export function queuedClient(server: PassportServer): QueuedClient {
  return createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => KEY, retry: { attempts: 2, baseDelayMs: 20 } });
}

/** Creates a portfolio with a building; answers their ids. */
export async function createBuilding(server: PassportServer, name: string): Promise<{ portfolioId: string; buildingId: string }> {
  const portfolio = await server.request<{ id: string }>('POST', '/portfolios', { name: `${name} portfolio` });
  const building = await server.request<{ id: string }>('POST', '/buildings', { portfolioId: portfolio.json.id, name });
  if (building.status !== 201) throw new Error(`Creating the building answered ${building.status}`);
  return { portfolioId: portfolio.json.id, buildingId: building.json.id };
}

/** Uploads an IFC fixture as a new source file, or as a new version of `fileId`, and waits until it is Mapped. */
export async function importIfc(server: PassportServer, buildingId: string, fixture = SMALL_IFC, fileId?: string): Promise<string> {
  const id = fileId ?? (await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 })).json.id;
  const content = new Uint8Array(await readFile(path.join(IFC_FIXTURES, fixture)));
  const upload = await server.request('POST', `/buildings/${buildingId}/files/${id}/upload/${fixture}`, content);
  if (upload.status !== 201) throw new Error(`The upload answered ${upload.status}: ${JSON.stringify(upload.json)}`);
  await until(async () => {
    const status = await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${id}/status`);
    if (status.json.status === 0 || status.json.status === 99) throw new Error(`The import failed: ${JSON.stringify(status.json)}`);
    return status.json.status === 3;
  }, `${fixture} to be Mapped`);
  return id;
}

/** Waits until `condition` holds; throws naming `what` when it does not within `timeoutMs` (a guard, not an assertion on time). */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A service under test and every event it sent. */
export interface ServiceUnderTest {
  service: PassportService;
  events: PassportEvent[];
  /** The states each passport went through, by entry id. */
  states(): Map<string, string[]>;
  /** Waits until every passport in the history is downloaded or failed, and there are `count` of them. */
  settled(count: number): Promise<PassportEntry[]>;
  /** Closes the service, then its client. */
  close(): Promise<void>;
}

/** Starts the service on `stateDir` against the server, polling fast. */
export async function startService(
  server: PassportServer,
  stateDir: string,
  options: Partial<PassportServiceOptions> = {},
): Promise<ServiceUnderTest> {
  const events: PassportEvent[] = [];
  const client = queuedClient(server);
  const service = await startPassportService({
    stateDir,
    clientFor: () => client,
    pollIntervalMs: 100,
    ...options,
    onEvent: (event) => events.push(event),
  });
  return {
    service,
    events,
    close: async () => {
      await service.close();
      await client.close();
    },
    states: () => {
      const states = new Map<string, string[]>();
      for (const event of events) {
        if (event.type !== 'entry-changed') continue;
        const seen = states.get(event.entry.id) ?? [];
        if (seen.at(-1) !== event.entry.state) seen.push(event.entry.state);
        states.set(event.entry.id, seen);
      }
      return states;
    },
    settled: async (count) => {
      await until(() => {
        const history = service.history();
        return history.length === count && history.every((entry) => entry.state === 'downloaded' || entry.state === 'failed');
      }, `${count} passports to be downloaded or failed`);
      return service.history();
    },
  };
}

/** A fresh temporary folder. */
export function scratchFolder(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}
