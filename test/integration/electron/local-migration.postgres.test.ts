/**
 * Taking the Local workspace to a team server through the desktop host's `local:migrate`: the real Local workspace
 * server, the server's own `migrate-to` in a child process, a real PostgreSQL database and a blob folder, and then a
 * team server on that database, reached through the connection the migration added with the Local workspace's key.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '../../../electron/bridge-dispatch';
import type { DesktopHost } from '../../../electron/desktop';
import type { MigrationTargets } from '../../../electron/migration-confirmation';
import { startServer, type RunningServer } from '../../../server/server';
import type { IpcChannel, IpcRequest, IpcResult, IpcValue } from '../../../shared/ipc';
import type { MigrationProgress } from '../../../shared/workspace-migration';
import { createTestDatabase, type TestDatabase } from '../server/test-database';
import { startTestDesktopHost } from './desktop-harness';

let userDataDir: string;
let teamDataDir: string;
let host: DesktopHost;
let database: TestDatabase;
let team: RunningServer | undefined;
const progress: MigrationProgress[] = [];
/** What the host asked the user to confirm, and the user's next answer. */
const confirmations: MigrationTargets[] = [];
let confirmAnswer = true;

function call<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>> {
  return dispatchBridgeCall(host.handlers, channel, request, () => undefined) as Promise<IpcResult<IpcValue<C>>>;
}

/** A port nothing listens on now, for the team server that starts after the migration. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No port.');
  return address.port;
}

beforeAll(async () => {
  userDataDir = await mkdtemp(path.join(os.tmpdir(), 'local-migration-'));
  teamDataDir = await mkdtemp(path.join(os.tmpdir(), 'local-migration-team-'));
  database = await createTestDatabase({ empty: true });
  host = await startTestDesktopHost(userDataDir, {
    confirmMigration: async (targets) => {
      confirmations.push(targets);
      return confirmAnswer;
    },
  });
  host.onEvent((event, payload) => {
    if (event === 'local:migration-progress') progress.push(payload as MigrationProgress);
  });
}, 120_000);

afterAll(async () => {
  await team?.close();
  await host?.close();
  await database?.drop();
  await rm(userDataDir, { recursive: true, force: true });
  await rm(teamDataDir, { recursive: true, force: true });
});

describe('moving the Local workspace to a team server', () => {
  it('asks first, in a step of the host naming every target: declined, nothing is copied nor added', async () => {
    const before = await call('connections:list', {});
    confirmAnswer = false;
    const teamServerUrl = `http://127.0.0.1:${await freePort()}`;
    const blobs = path.join(teamDataDir, 'blobs');
    const result = await call('local:migrate', { databaseUrl: database.url ?? '', blobs, teamServerUrl });
    confirmAnswer = true;
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not confirmed/) } });
    const databaseUrl = new URL(database.url ?? '');
    expect(confirmations).toEqual([
      {
        database: expect.stringContaining(`${databaseUrl.host}${databaseUrl.pathname}`) as unknown,
        blobs,
        teamServer: teamServerUrl,
      },
    ]);
    if (databaseUrl.password !== '') expect(confirmations[0]?.database).not.toContain(`:${databaseUrl.password}@`);
    expect(await call('connections:list', {})).toEqual(before);
    expect(progress).toEqual([]);
  });

  it('copies it, adds a connection that works with the same key, and leaves the Local workspace running', async () => {
    const port = await freePort();
    const teamServerUrl = `http://127.0.0.1:${port}`;
    const blobs = path.join(teamDataDir, 'blobs');
    const result = await call('local:migrate', { databaseUrl: database.url ?? '', blobs, teamServerUrl });
    if (!result.ok) throw new Error(result.error.message);
    const { summary, connection } = result.value;
    expect(summary.tables.find((table) => table.table === 'portfolios')?.rows).toBe(1);
    expect(summary.tables.find((table) => table.table === 'buildings')?.rows).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({ step: 'committed' });
    expect(progress.some((step) => step.step === 'table' && step.table === 'elements')).toBe(true);
    expect(connection).toMatchObject({ kind: 'remote', baseUrl: teamServerUrl, hasKey: true });
    expect(host.status().local.state).toBe('running');

    team = await startServer({ dataDir: teamDataDir, databaseUrl: database.url, blobs, port, logger: false, worker: false });
    const answer = await call('api:request', { connectionId: connection?.id ?? '', operationId: 'listPortfolios' });
    expect(answer.ok && answer.value.kind === 'ok' && (answer.value.value as { name: string }[]).map((portfolio) => portfolio.name)).toEqual([
      'Demo portfolio',
    ]);
  });

  it("never replaces the key a connection to that server already holds", async () => {
    const other = await createTestDatabase({ empty: true });
    const port = await freePort();
    const teamServerUrl = `http://127.0.0.1:${port}`;
    const blobs = path.join(teamDataDir, 'blobs-of-other');
    const existing = await call('connections:add', { name: 'Mine', baseUrl: teamServerUrl, apiVersion: 'v2.3' });
    if (!existing.ok) throw new Error(existing.error.message);
    const ownKey = 'my-own-key-on-the-team-server-0123456789abcdef';
    await call('vault:set-key', { connectionId: existing.value.id, key: ownKey });
    const result = await call('local:migrate', { databaseUrl: other.url ?? '', blobs, teamServerUrl });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.connection).toMatchObject({ id: existing.value.id, name: 'Mine', hasKey: true });
    const server = await startServer({ dataDir: teamDataDir, databaseUrl: other.url, blobs, port, bootstrapKey: ownKey, logger: false, worker: false });
    try {
      // The user's key opens the server, so the connection kept it: the Local workspace's key was not put in its place.
      const test = await call('connections:test', { connectionId: existing.value.id });
      expect(test).toMatchObject({ ok: true, value: { kind: 'ok' } });
    } finally {
      await server.close();
      await other.drop();
    }
  });

  it('refuses a database that already holds data, with the reason, and changes nothing', async () => {
    const before = await call('connections:list', {});
    const result = await call('local:migrate', { databaseUrl: database.url ?? '', blobs: path.join(teamDataDir, 'blobs') });
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/already holds data/) } });
    expect(await call('connections:list', {})).toEqual(before);
  });

  it('says why when the database cannot be reached', async () => {
    const result = await call('local:migrate', {
      databaseUrl: `postgres://nobody@127.0.0.1:${await freePort()}/nothing`,
      blobs: path.join(teamDataDir, 'other-blobs'),
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/ECONNREFUSED|connect/i) } });
  });
});
