import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDropFolderService, type DropFolderService, type DropFolderServiceOptions } from '../../../../electron/dropfolders/service';
import { Value } from 'typebox/value';
import {
  DropFolderEvent,
  DropFolderFile,
  DropFolderStatus,
  type DropFolderTarget,
} from '../../../../shared/dropfolders';
import type { DropFolderTiming } from '../../../../electron/dropfolders/timing';
import {
  countingClient,
  createTarget,
  EXAMPLE_IFC,
  remoteFiles,
  remoteSha256,
  remoteStatus,
  sha256Of,
  slowCopy,
  SMALL_IFC,
  startDropServer,
  tempFolder,
  type DropServer,
} from './harness';
import { waitFor } from '../wait-for';

const FAST: Partial<DropFolderTiming> = { stableMs: 300, statusPollMs: 100, retryBaseMs: 100, retryMaxMs: 1_000, watchPollMs: 100, rescanIntervalMs: 60_000 };

let server: DropServer;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startDropServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  service: DropFolderService;
  mappingId: string;
  folder: string;
  stateDir: string;
  uploads: string[];
  events: DropFolderEvent[];
  /** Lines `<state> <path>` of the file events, in order, with marks the test adds. */
  timeline: string[];
  file(relativePath: string): DropFolderFile | undefined;
}

/** A service with one mapping of a fresh folder to `target`. */
async function startWatching(
  target: DropFolderTarget,
  settings: { activate?: boolean; informationFiles?: boolean } = {},
  overrides: Partial<DropFolderServiceOptions> = {},
): Promise<Running> {
  const folder = await tempFolder('cd-drop-');
  const stateDir = await tempFolder('cd-drop-state-');
  const { client, uploads } = countingClient(server);
  const events: DropFolderEvent[] = [];
  const timeline: string[] = [];
  const service = await startDropFolderService({
    stateDir,
    clientFor: () => client,
    onEvent: (event) => {
      events.push(event);
      if (event.kind === 'file') timeline.push(`${event.file.state} ${event.file.path}`);
    },
    timing: FAST,
    ...overrides,
  });
  cleanups.push(async () => {
    await service.close();
    await client.close();
    await rm(folder, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  });
  const mapping = await service.add({ folder, target, connectionId: 'test', ...settings });
  return {
    service,
    mappingId: mapping.id,
    folder,
    stateDir,
    uploads,
    events,
    timeline,
    file: (relativePath) => service.files(mapping.id).find((file) => file.path === relativePath),
  };
}

function inState(running: Running, relativePath: string, state: DropFolderFile['state'], check: (file: DropFolderFile) => boolean = () => true) {
  return () => {
    const file = running.file(relativePath);
    return file !== undefined && file.state === state && check(file) ? file : undefined;
  };
}

describe('a folder mapped to a building', () => {
  it('uploads a file copied in slowly once, after the write has finished, and activates it when Mapped', async () => {
    const { buildingId } = await createTarget(server, 'Slow copy');
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string }, { activate: true });
    const target = path.join(running.folder, 'model.ifc');
    await slowCopy(SMALL_IFC, target, { chunks: 20, pauseMs: 50 });
    running.timeline.push('write finished');

    const mapped = await waitFor('model.ifc mapped', inState(running, 'model.ifc', 'mapped'));
    // Seen while it was written, uploaded only after the last chunk.
    expect(running.timeline.indexOf('detected model.ifc')).toBeLessThan(running.timeline.indexOf('write finished'));
    expect(running.timeline.indexOf('write finished')).toBeLessThan(running.timeline.indexOf('uploading model.ifc'));
    expect(running.uploads).toHaveLength(1);
    expect(mapped.attempts).toBe(1);
    const fixtureHash = await sha256Of(SMALL_IFC);
    expect(mapped.sha256).toBe(fixtureHash);

    const files = await remoteFiles(server, buildingId as string);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ id: mapped.fileId, fileName: 'model.ifc', type: 0, status: 3, isActive: true, fileSize: (await stat(SMALL_IFC)).size });
    expect(await remoteSha256(server, buildingId as string, mapped.fileId as string)).toBe(fixtureHash);
    const notice = running.events.find((event) => event.kind === 'notice');
    expect(notice).toMatchObject({ kind: 'notice', path: 'model.ifc', outcome: 'mapped' });
    // What a Bridge channel would carry is valid against the schemas it would be checked with.
    expect(running.events.filter((event) => !Value.Check(DropFolderEvent, event))).toEqual([]);
    expect(running.service.files(running.mappingId).every((file) => Value.Check(DropFolderFile, file))).toBe(true);
    expect(running.service.list().every((folder) => Value.Check(DropFolderStatus, folder))).toBe(true);
  });

  it('uploads the same content dropped again nothing, and changed content as a new version of the same file', async () => {
    const { buildingId } = await createTarget(server, 'Versions');
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string });
    const target = path.join(running.folder, 'house.ifc');
    await copyFile(SMALL_IFC, target);
    const first = await waitFor('house.ifc mapped', inState(running, 'house.ifc', 'mapped'));

    // Dropped again over itself (a new modification time), then removed and dropped once more.
    await copyFile(SMALL_IFC, target);
    await waitFor('the copy over itself seen', inState(running, 'house.ifc', 'mapped', (file) => file.mtimeMs !== first.mtimeMs));
    await rm(target);
    await copyFile(SMALL_IFC, target);
    const unchangedDetails = () => running.events.filter((event) => event.kind === 'file' && event.detail === 'unchanged content: nothing uploaded');
    await waitFor('two unchanged drops', () => (unchangedDetails().length >= 2 ? true : undefined));
    expect(running.uploads).toHaveLength(1);

    await copyFile(EXAMPLE_IFC, target);
    const exampleHash = await sha256Of(EXAMPLE_IFC);
    const second = await waitFor('the new version mapped', inState(running, 'house.ifc', 'mapped', (file) => file.sha256 === exampleHash));
    expect(running.uploads).toHaveLength(2);
    expect(second.fileId).toBe(first.fileId);
    const files = await remoteFiles(server, buildingId as string);
    expect(files.map((file) => [file.id, file.status, file.fileSize])).toEqual([[first.fileId, 3, (await stat(EXAMPLE_IFC)).size]]);
    expect(await remoteSha256(server, buildingId as string, second.fileId as string)).toBe(exampleHash);
  });

  it('ends a broken IFC failed, with the message the server gave', async () => {
    const { buildingId } = await createTarget(server, 'Broken');
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string });
    const fixture = await readFile(SMALL_IFC);
    // The header of a real model, cut off in the middle of its data.
    await writeFile(path.join(running.folder, 'broken.ifc'), fixture.subarray(0, 900));

    const failed = await waitFor('broken.ifc failed', inState(running, 'broken.ifc', 'failed'));
    const status = await remoteStatus(server, buildingId as string, failed.fileId as string);
    expect([0, 99]).toContain(status.status);
    expect(status.statusMessage).toBeTruthy();
    expect(failed.lastError).toBe(status.statusMessage);
    expect(running.events.find((event) => event.kind === 'notice')).toMatchObject({ outcome: 'failed', message: status.statusMessage });
  });

  it('uploads PDFs as information files when the mapping takes them', async () => {
    const { buildingId } = await createTarget(server, 'Documents');
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string }, { informationFiles: true });
    await writeFile(path.join(running.folder, 'survey.pdf'), '%PDF-1.4\n% a survey\n%%EOF\n');
    await writeFile(path.join(running.folder, 'notes.txt'), 'not a type drop folders take');

    const stored = await waitFor('survey.pdf stored', inState(running, 'survey.pdf', 'stored'));
    const files = await remoteFiles(server, buildingId as string);
    expect(files.map((file) => [file.id, file.fileName, file.type, file.status])).toEqual([[stored.fileId, 'survey.pdf', 1, 1]]);
    expect(running.file('notes.txt')).toBeUndefined();
  });

  it('finds a file the watcher missed at the next periodic rescan', async () => {
    const { buildingId } = await createTarget(server, 'Rescan');
    const deafWatcher = () => ({ close: async () => undefined });
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string }, {}, { watch: deafWatcher, timing: { ...FAST, rescanIntervalMs: 200 } });
    await copyFile(SMALL_IFC, path.join(running.folder, 'missed.ifc'));
    await waitFor('missed.ifc mapped', inState(running, 'missed.ifc', 'mapped'));
    expect(running.uploads).toHaveLength(1);
  });

  it('goes on polling a file left processing when the service stopped, without uploading it again', async () => {
    const { buildingId } = await createTarget(server, 'Restart');
    const running = await startWatching({ kind: 'building', buildingId: buildingId as string });
    await copyFile(EXAMPLE_IFC, path.join(running.folder, 'model.ifc'));
    const processing = await waitFor('model.ifc processing', inState(running, 'model.ifc', 'processing'));
    await running.service.close();

    const { client, uploads } = countingClient(server);
    const again = await startDropFolderService({ stateDir: running.stateDir, clientFor: () => client, timing: FAST });
    cleanups.push(async () => {
      await again.close();
      await client.close();
    });
    const mapped = await waitFor('model.ifc mapped after the restart', () => {
      const file = again.files(running.mappingId).find((each) => each.path === 'model.ifc');
      return file?.state === 'mapped' ? file : undefined;
    });
    expect(uploads).toHaveLength(0);
    expect(running.uploads).toHaveLength(1);
    expect(mapped.fileId).toBe(processing.fileId);
    expect(await remoteFiles(server, buildingId as string)).toHaveLength(1);
  });
});

describe('a folder mapped to a portfolio', () => {
  it('makes each subfolder a building, found by its name or created once', async () => {
    const { portfolioId } = await createTarget(server);
    const existing = await server.request<{ id: string }>('POST', '/buildings', { portfolioId, name: 'Existing' });
    const running = await startWatching({ kind: 'portfolio', portfolioId });
    await mkdir(path.join(running.folder, 'New building'));
    await mkdir(path.join(running.folder, 'Existing'));
    await Promise.all([
      copyFile(SMALL_IFC, path.join(running.folder, 'New building', 'a.ifc')),
      copyFile(SMALL_IFC, path.join(running.folder, 'New building', 'b.ifc')),
      copyFile(SMALL_IFC, path.join(running.folder, 'Existing', 'c.ifc')),
      copyFile(SMALL_IFC, path.join(running.folder, 'loose.ifc')),
    ]);

    for (const relativePath of ['New building/a.ifc', 'New building/b.ifc', 'Existing/c.ifc']) {
      await waitFor(`${relativePath} mapped`, inState(running, relativePath, 'mapped'));
    }
    const loose = await waitFor('loose.ifc failed', inState(running, 'loose.ifc', 'failed'));
    expect(loose.lastError).toMatch(/subfolder/);

    const buildings = await server.request<{ id: string; name: string }[]>('GET', `/portfolios/${portfolioId}/buildings`);
    expect(buildings.map((building) => building.name).sort()).toEqual(['Existing', 'New building']);
    const created = buildings.find((building) => building.name === 'New building');
    expect(running.file('Existing/c.ifc')?.buildingId).toBe(existing.id);
    expect(running.file('New building/a.ifc')?.buildingId).toBe(created?.id);
    expect((await remoteFiles(server, created?.id as string)).map((file) => file.fileName).sort()).toEqual(['a.ifc', 'b.ifc']);
    expect((await remoteFiles(server, existing.id)).map((file) => file.fileName)).toEqual(['c.ifc']);
    expect(running.uploads).toHaveLength(3);
  });
});
