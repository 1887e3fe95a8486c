/**
 * Moving a local workspace (SQLite and its blob folder) to a team server's PostgreSQL database: the target answers the
 * same building, files, elements and downloads, and the workspace's keys keep working. A target with data is refused,
 * and a failed copy leaves the target empty, so running it again succeeds. PostgreSQL only.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileStatusResponse } from '../../../shared/api';
import { Level } from '../../../server/auth/principal';
import { prepareServer, type PreparedServer } from '../../../server/server';
import { MigrationTargetNotEmptyError, TABLES_IN_DEPENDENCY_ORDER, migrateWorkspace } from '../../../server/store/migrate-workspace';
import type { MigrationProgress } from '../../../shared/workspace-migration';
import { openDatabase } from '../../../server/store/store';
import { ADMIN_KEY, createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';
import { createTestDatabase, serverEnvironment, type TestDatabase } from './test-database';
import { ifcFixture } from '../../fixtures/files';

const api = '/api/v2.3';
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const model = ifcFixture('example.ifc');
const run = promisify(execFile);

/** What a client sees of the workspace, to compare before and after the move. */
interface Snapshot {
  building: unknown;
  files: unknown;
  elements: unknown;
  /** The bytes behind each file's signed download address. */
  downloads: Buffer[];
}

/** A request through `inject` with the administrator key, answered as JSON. */
async function json(server: PreparedServer, url: string, key = ADMIN_KEY): Promise<unknown> {
  const response = await server.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

/** Reads what a client sees of a building: the building, its files, their elements and contents. */
async function snapshot(server: PreparedServer, buildingId: string): Promise<Snapshot> {
  const files = (await json(server, `${api}/buildings/${buildingId}/files`)) as { id: string }[];
  const elements = await Promise.all(files.map((file) => json(server, `${api}/buildings/${buildingId}/files/${file.id}/elements`)));
  const downloads: Buffer[] = [];
  for (const file of files) {
    const { url } = (await json(server, `${api}/buildings/${buildingId}/files/${file.id}/download`)) as { url: string };
    const content = await server.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(content.statusCode).toBe(200);
    downloads.push(content.rawPayload);
  }
  return { building: await json(server, `${api}/buildings/${buildingId}`), files, elements, downloads };
}

describe('moving a local workspace to PostgreSQL', () => {
  let workspace: TestServer;
  let buildingId: string;
  let before: Snapshot;
  let workspaceKey: string;
  /** A download address the workspace signed before the move. */
  let signedByWorkspace: string;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // The local workspace: the embedded server on SQLite, with an imported model and a generated passport.
    workspace = await startTestServer({ worker: true, sqlite: true });
    ({ buildingId } = await createPortfolioWithBuilding(workspace));
    const files = `${api}/buildings/${buildingId}/files`;
    const fileId = ((await workspace.request({ method: 'POST', url: files, payload: { type: 0 } })).json() as { id: string }).id;
    await workspace.request({
      method: 'POST',
      url: `${files}/${fileId}/upload/example.ifc`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: await readFile(model),
    });
    await eventually(
      async () => (await workspace.request({ method: 'GET', url: `${files}/${fileId}/status` })).json() as BuildingFileStatusResponse,
      (status) => status.status === 3,
    );
    const passport = await workspace.request({ method: 'POST', url: `${api}/buildings/${buildingId}/exportpassport` });
    await eventually(
      async () => (await workspace.request({ method: 'GET', url: passport.headers.location as string })).json() as BuildingFileStatusResponse,
      (status) => status.status === 1,
      120_000,
    );
    workspaceKey = await workspace.key('building', buildingId, Level.Read);
    before = await snapshot(workspace.server, buildingId);
    const [firstFile] = (await json(workspace.server, `${api}/buildings/${buildingId}/files`)) as { id: string }[];
    ({ url: signedByWorkspace } = (await json(workspace.server, `${api}/buildings/${buildingId}/files/${firstFile?.id ?? ''}/download`)) as { url: string });
    // The embedded server is stopped before its workspace is moved.
    await workspace.server.close();
  }, 180_000);

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
    await rm(workspace?.dataDir ?? '', { recursive: true, force: true });
  });

  /** A new, empty PostgreSQL database and a data folder for the team server's blobs. */
  async function target(): Promise<{ database: TestDatabase; dataDir: string }> {
    const database = await createTestDatabase({ empty: true });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-team-data-'));
    cleanup.push(async () => {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    });
    return { database, dataDir };
  }

  it('copies every table and blob; the team server answers the same building, files, elements and downloads', async () => {
    const { database, dataDir } = await target();
    const progress: MigrationProgress[] = [];
    const summary = await migrateWorkspace({
      fromDataDir: workspace.dataDir,
      databaseUrl: database.url ?? '',
      dataDir,
      onProgress: (step) => progress.push(step),
    });
    expect(summary.tables.map((table) => table.table)).toEqual([...TABLES_IN_DEPENDENCY_ORDER]);
    const rows = Object.fromEntries(summary.tables.map((table) => [table.table, table.rows]));
    expect(rows['elements']).toBe(115);
    expect(rows['building_files']).toBe(2);
    expect(rows['materials']).toBeGreaterThan(200);
    // The IFC model and the passport.
    expect(summary.blobs.count).toBe(2);
    expect(progress.at(-1)).toEqual({ step: 'committed' });
    expect(progress.some((step) => step.step === 'blobs' && step.copied === 2)).toBe(true);

    const team = await prepareServer({ dataDir, databaseUrl: database.url ?? '', bootstrapKey: ADMIN_KEY });
    try {
      expect(await snapshot(team, buildingId)).toEqual(before);
      // A key of the workspace is a key of the team server: the desktop app keeps its connection's key.
      expect(await json(team, `${api}/buildings/${buildingId}`, workspaceKey)).toEqual(before.building);
      // The copy signs with a secret of its own: an address the workspace signed does not open the team server's files.
      const stale = await team.app.inject({ method: 'GET', url: new URL(signedByWorkspace).pathname });
      expect(stale.statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await team.close();
    }

    // A second run finds data there and changes nothing, on the command line too.
    const again = await migrateWorkspace({ fromDataDir: workspace.dataDir, databaseUrl: database.url ?? '', dataDir }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(MigrationTargetNotEmptyError);
    expect((again as Error).message).toMatch(/already holds data \(server_settings: 1 rows, seed_versions: 2 rows, accounts: \d+ rows/);
    const cli = await run(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', 'migrate-to', '--from', workspace.dataDir, '--database', database.url ?? '', '--data', dataDir],
      { cwd: repoRoot, env: serverEnvironment() },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(cli).toMatchObject({ code: 1 });
    expect((cli as { stderr: string }).stderr).toContain('A workspace is copied into a new, empty database only; nothing was changed.');
  }, 120_000);

  it('rolls back a copy that fails, so that running it again succeeds', async () => {
    const { database, dataDir } = await target();
    // A blob store that cannot be written: the database part is copied, then the blobs fail.
    const blocked = path.join(dataDir, 'not-a-folder');
    await writeFile(blocked, 'a file where the blob folder should be');
    await expect(
      migrateWorkspace({ fromDataDir: workspace.dataDir, databaseUrl: database.url ?? '', blobs: path.join(blocked, 'blobs') }),
    ).rejects.toThrow();
    const store = await openDatabase({ url: database.url ?? '' });
    try {
      // The copy knows every table the migrations create (Kysely's own two aside).
      const created = (await store.db.introspection.getTables()).map((table) => table.name).filter((name) => !name.startsWith('kysely_'));
      expect(created.sort()).toEqual([...TABLES_IN_DEPENDENCY_ORDER].sort());
      for (const table of TABLES_IN_DEPENDENCY_ORDER) {
        expect(await store.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
      }
    } finally {
      await store.close();
    }

    const summary = await migrateWorkspace({ fromDataDir: workspace.dataDir, databaseUrl: database.url ?? '', dataDir });
    expect(summary.blobs.count).toBe(2);
  }, 120_000);

  it('refuses a folder without a workspace and a target that is a started server', async () => {
    const { database } = await target();
    const empty = await mkdtemp(path.join(tmpdir(), 'cd-no-workspace-'));
    cleanup.push(() => rm(empty, { recursive: true, force: true }));
    await expect(migrateWorkspace({ fromDataDir: empty, databaseUrl: database.url ?? '' })).rejects.toThrow(/No workspace in/);
    // A team server that has started once holds its seed data and settings: it is not a new database.
    const started = await prepareServer({ dataDir: empty, databaseUrl: database.url ?? '' });
    await started.close();
    await expect(migrateWorkspace({ fromDataDir: workspace.dataDir, databaseUrl: database.url ?? '', dataDir: empty })).rejects.toThrow(
      MigrationTargetNotEmptyError,
    );
  });
});
