import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { prepareServer, type PreparedServer } from '../../../server/server';
import { createToken } from '../../../server/auth/tokens';
import type { ScopeKind } from '../../../server/store/tables';
import type { ServerConfig } from '../../../server/context';
import { createTestDatabase } from './test-database';

/** The administrator key every test server is started with. */
export const ADMIN_KEY = 'test-admin-key-0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A server on a fresh data folder (and, under `TEST_DATABASE=postgres`, a fresh PostgreSQL database), driven through
 * `inject` (no socket), with helpers for keyed requests.
 */
export interface TestServer {
  server: PreparedServer;
  dataDir: string;
  /** The PostgreSQL database of this server; undefined on SQLite. */
  databaseUrl: string | undefined;
  /** A request with the administrator key unless `key` is given (null: no key). */
  request(options: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>;
  /** A new key of the local account with the given scope and level. */
  key(scopeKind: ScopeKind, scopeId: string | null, level: number, expiresAt?: string | null): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a test server; `now` lets a test move the clock, `blobs` puts the blobs in another store (`s3://…`), `sqlite`
 * keeps it on SQLite whatever the project's database (a reference to compare with), `demo` seeds the sample data, `config`
 * sets limits.
 */
export async function startTestServer(
  options: { now?: () => Date; config?: Partial<ServerConfig>; worker?: boolean; blobs?: string; sqlite?: boolean; demo?: boolean } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-server-'));
  const database = options.sqlite === true ? { url: undefined, drop: async () => undefined } : await createTestDatabase();
  const server = await prepareServer({
    dataDir,
    ...(database.url === undefined ? {} : { databaseUrl: database.url }),
    ...(options.blobs === undefined ? {} : { blobs: options.blobs }),
    bootstrapKey: ADMIN_KEY,
    ...(options.demo === true ? { demo: true } : {}),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.config === undefined ? {} : { config: options.config }),
    // Tests of processing run the worker with a quick poll; the others keep jobs queued to see them as requested.
    ...(options.worker === true ? { worker: { pollMs: 50, leaseMs: 10_000, heartbeatMs: 1_000 } } : {}),
  }).catch(async (error: unknown) => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    server,
    dataDir,
    databaseUrl: database.url,
    request: ({ key, headers, ...rest }) =>
      server.app.inject({
        ...rest,
        headers: { ...(key === null ? {} : { 'x-api-key': key ?? ADMIN_KEY }), ...headers },
      }),
    key: async (scopeKind, scopeId, level, expiresAt = null) =>
      (
        await createToken(server.context.db, {
          accountId: server.localAccountId,
          name: `${scopeKind} ${level}`,
          scopeKind,
          scopeId,
          level,
          expiresAt,
        })
      ).key,
    close: async () => {
      await server.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a portfolio and a building in it with the administrator key; returns their ids. */
export async function createPortfolioWithBuilding(test: TestServer): Promise<{ portfolioId: string; buildingId: string }> {
  const portfolio = await test.request({ method: 'POST', url: '/api/v2.3/portfolios', payload: { name: 'Portfolio' } });
  const portfolioId = (portfolio.json() as { id: string }).id;
  const building = await test.request({
    method: 'POST',
    url: '/api/v2.3/buildings',
    payload: { portfolioId, name: 'Building' },
  });
  return { portfolioId, buildingId: (building.json() as { id: string }).id };
}

/** A GET that must answer 200, read as JSON. */
export async function getJson<T>(test: TestServer, url: string): Promise<T> {
  const response = await test.request({ method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}

/** Polls `read` until `done` holds for its value (or fails after `timeoutMs`), returning the last value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
