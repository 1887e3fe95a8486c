/**
 * A workbook bomb uploaded through a real server on 127.0.0.1 with the lowest write key (a building key at level 70):
 * the file ends in Error with the limit named, nothing is left in the import's temporary folders or the system's, and
 * the server's memory stays within bounds meanwhile. A server's start removes what imports of a killed process left.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileStatusResponse } from '../../../shared/api';
import { folderBytes } from '../../../server/imports/import-temp';
import { diskBudgetFor } from '../../../server/imports/import-worker';
import { BOMB_ROW, BOMB_TEXT, writeWorkbookBomb } from '../../fixtures/zip-bomb';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';
const MIB = 1024 * 1024;

let systemTemp = '';
let savedTemp: string | undefined;
let test: TestServer;
let url = '';
beforeAll(async () => {
  // The system's temporary folder of this process and of the workers it starts: where exceljs spooled worksheets.
  test = await startTestServer({ worker: true });
  url = await test.server.app.listen({ host: '127.0.0.1', port: 0 });
  // Set after the server's data folder was made there; a worker takes its environment when it starts.
  systemTemp = await mkdtemp(path.join(tmpdir(), 'cd-import-limits-'));
  savedTemp = process.env['TMPDIR'];
  process.env['TMPDIR'] = systemTemp;
});
afterAll(async () => {
  await test.close();
  if (savedTemp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = savedTemp;
  await rm(systemTemp, { recursive: true, force: true });
});

describe('a workbook bomb', () => {
  it('ends in Error naming the limit, leaves no temporary file and keeps memory bounded', async () => {
    const bomb = `${systemTemp}-bomb.xlsx`;
    // A worksheet of 256 MiB before shared strings of 1 GiB, both declared as 200 bytes: about 1 MB on disk.
    await writeWorkbookBomb(bomb, {
      sheet: { times: Math.floor((256 * MIB) / BOMB_ROW.length), declaredSize: 200 },
      sharedStrings: { times: Math.floor((1024 * MIB) / BOMB_TEXT.length), declaredSize: 200 },
    });
    const { buildingId } = await createPortfolioWithBuilding(test);
    const key = await test.key('building', buildingId, 70);
    const headers = { 'x-api-key': key };
    const created = await fetch(`${url}${api}/buildings/${buildingId}/files`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 0 }),
    });
    const fileId = ((await created.json()) as { id: string }).id;

    const importTemp = path.join(test.dataDir, 'import-temp');
    const idle = process.memoryUsage().rss;
    let peakRss = idle;
    let peakImportTemp = 0;
    let peakSystemTemp = 0;
    let slowest = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        peakImportTemp = Math.max(peakImportTemp, await folderBytes(importTemp));
        peakSystemTemp = Math.max(peakSystemTemp, await folderBytes(systemTemp));
        const started = performance.now();
        const account = await fetch(`${url}${api}/accounts/current`, { headers });
        expect(account.status).toBe(200);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const upload = await fetch(`${url}${api}/buildings/${buildingId}/files/${fileId}/upload/bomb.xlsx`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: await readFile(bomb),
    });
    expect(upload.status).toBe(201);
    const status = await eventually(
      async () => (await (await fetch(`${url}${api}/buildings/${buildingId}/files/${fileId}/status`, { headers })).json()) as BuildingFileStatusResponse,
      (value) => [0, 3, 99].includes(value.status),
      120_000,
    );
    sampling = false;
    await sampler;
    const { size } = await stat(bomb);
    await rm(bomb, { force: true });

    expect(status.status).toBe(0);
    expect(status.statusMessage).toBe(
      'The import failed: bomb.xlsx holds more than 32 MB of texts (xl/sharedStrings.xml, uncompressed), the limit for a workbook; split it into smaller files.',
    );
    expect(await readdir(importTemp)).toEqual([]);
    expect(await readdir(systemTemp)).toEqual([]);
    // Run from sources, the worker's tsx keeps its compiled modules in the import's folder too: a few hundred KB.
    expect(peakImportTemp).toBeLessThanOrEqual(diskBudgetFor(size));
    expect(peakSystemTemp).toBe(0);
    console.info(`bomb import: RSS ${Math.round(idle / MIB)} → peak ${Math.round(peakRss / MIB)} MiB; import temp peak ${peakImportTemp} bytes; slowest GET /accounts/current ${Math.round(slowest)} ms`);
    expect(peakRss - idle).toBeLessThan(256 * MIB);
  }, 180_000);
});

/** A CSV of many rows: its import takes seconds through the server. */
async function longCsv(rows: number): Promise<Buffer> {
  return Buffer.from(['Id,Name,Volume', ...Array.from({ length: rows }, (_, index) => `E-${index},Wall ${index},1.5`)].join('\n'));
}

/** Uploads `content` as a new file of the building and returns the file's status address. */
async function upload(server: TestServer, buildingId: string, name: string, content: Buffer): Promise<{ fileId: string; status: string }> {
  const created = await server.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
  const fileId = (created.json() as { id: string }).id;
  const uploaded = await server.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/upload/${name}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: content,
  });
  expect(uploaded.statusCode).toBe(201);
  return { fileId, status: uploaded.headers.location as string };
}

function statusOf(server: TestServer, url: string): Promise<BuildingFileStatusResponse> {
  return server.request({ method: 'GET', url }).then((response) => response.json() as BuildingFileStatusResponse);
}

describe('the temporary folder of an import', () => {
  it('is removed after an import that succeeds, and after one that is cancelled by deleting its file', async () => {
    const importTemp = path.join(test.dataDir, 'import-temp');
    const { buildingId } = await createPortfolioWithBuilding(test);
    const done = await upload(test, buildingId, 'small.csv', await longCsv(10));
    expect(await eventually(() => statusOf(test, done.status), (value) => [0, 3, 99].includes(value.status))).toMatchObject({ status: 3, elementCount: 10 });
    expect(await readdir(importTemp)).toEqual([]);

    const cancelled = await upload(test, buildingId, 'long.csv', await longCsv(300_000));
    await eventually(
      () => readdir(importTemp),
      (folders) => folders.length === 1,
    );
    expect((await test.request({ method: 'DELETE', url: `${api}/buildings/${buildingId}/files/${cancelled.fileId}` })).statusCode).toBe(204);
    // The worker loses the job at its next heartbeat (every second here), stops the import and removes the folder.
    await eventually(
      () => readdir(importTemp),
      (folders) => folders.length === 0,
      30_000,
    );
  }, 120_000);
});

describe('an import past its time', () => {
  it('is stopped, and the file ends in Error naming the limit, its temporary folder removed', async () => {
    const limited = await startTestServer({ worker: true, config: { importTimeLimitMs: 1_000 } });
    try {
      const { buildingId } = await createPortfolioWithBuilding(limited);
      const { status } = await upload(limited, buildingId, 'long.csv', await longCsv(300_000));
      const ended = await eventually(() => statusOf(limited, status), (value) => [0, 3, 99].includes(value.status), 60_000);
      expect(ended).toMatchObject({
        status: 0,
        statusMessage: 'The import failed: The import took longer than the 1 second an import may take and was stopped; split the file into smaller files.',
      });
      expect(await readdir(path.join(limited.dataDir, 'import-temp'))).toEqual([]);
    } finally {
      await limited.close();
    }
  }, 120_000);
});

describe('a server start', () => {
  it('removes the temporary folders that imports of a killed process left', async () => {
    const dataRoot = await mkdtemp(path.join(tmpdir(), 'cd-import-leftovers-'));
    const root = path.join(dataRoot, 'import-temp');
    // A pid above Linux's largest (4,194,304) belongs to no process.
    const host = hostname().replace(/[^A-Za-z0-9.-]/gu, '_') || 'host';
    const leftover = path.join(root, `${host}~4999999~abcdef-left`);
    await mkdir(leftover, { recursive: true });
    const started = await startTestServer({ config: { importTempDir: root } });
    try {
      expect(await readdir(root)).toEqual([]);
    } finally {
      await started.close();
      await rm(dataRoot, { recursive: true, force: true });
    }
  });
});
