import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { syntheticElementCount, writeSyntheticIfc } from '../../bench/synthetic-ifc';
import { createTestDatabase, databaseArgs, serverEnvironment, type TestDatabase } from './test-database';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const nodeBinary = process.execPath;
const key = 'kill-test-key-0123456789abcdefghijklmnop';
const walls = 40_000;
/** A wall of several layers imports as its layers. */
const elementCount = syntheticElementCount(walls);

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let database: TestDatabase | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
  await database?.drop();
  database = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

/** Starts `serve` on the data folder (and the test database) and resolves with its address once ready. */
function serve(folder: string, store: TestDatabase): Promise<string> {
  const args = ['serve', '--port', '0', '--data', folder, ...databaseArgs(store), '--bootstrap-key', key, '--quiet'];
  // Node with tsx as a loader, not the tsx command (which runs the server in a child of its own): SIGKILL must reach
  // the server itself.
  const process = spawn(nodeBinary, ['--import', 'tsx', path.join(repoRoot, 'server/cli.ts'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnvironment(),
  });
  child = process;
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match !== null) resolve(match[0]);
    };
    process.stdout.on('data', collect);
    process.stderr.on('data', collect);
    process.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** A JSON request with the key. */
async function call<T>(url: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Polls the status until `done` holds. */
async function statusUntil(url: string, done: (status: { status: number; elementProcessedCount: number; elementCount: number }) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await call<{ status: number; elementProcessedCount: number; elementCount: number; statusMessage: string }>(url);
    if (done(status)) return status;
    if (Date.now() > deadline) throw new Error(`Timed out; last status ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an import killed mid-way', () => {
  it('is picked up again on the next start and ends Mapped with exactly the right element count', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-kill-'));
    database = await createTestDatabase();
    const ifcPath = path.join(dataDir, 'synthetic.ifc');
    await writeSyntheticIfc(ifcPath, { walls });

    let url = await serve(dataDir, database);
    const api = `${url}/api/v2.3`;
    const portfolio = await call<{ id: string }>(`${api}/portfolios`, 'POST', { name: 'Kill test' });
    const building = await call<{ id: string }>(`${api}/buildings`, 'POST', { portfolioId: portfolio.id, name: 'Kill test' });
    const file = await call<{ id: string }>(`${api}/buildings/${building.id}/files`, 'POST', { type: 0 });
    const upload = await fetch(`${api}/buildings/${building.id}/files/${file.id}/upload/synthetic.ifc`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' },
      body: await readFile(ifcPath),
    });
    expect(upload.status).toBe(201);
    const statusPath = `/api/v2.3/buildings/${building.id}/files/${file.id}/status`;
    // Kill while the import is under way (some walls read, not all).
    const during = await statusUntil(`${url}${statusPath}`, (status) => status.status === 7 && status.elementProcessedCount > 0, 60_000);
    expect(during.elementProcessedCount).toBeLessThan(walls);
    const importTemp = path.join(dataDir, 'import-temp');
    const killedImportFolders = await readdir(importTemp);
    expect(killedImportFolders).toHaveLength(1);
    child?.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));

    url = await serve(dataDir, database);
    // The killed process's import folder went at the start; the import that runs again has one of its own.
    expect(await readdir(importTemp)).not.toContain(killedImportFolders[0]);
    const done = await statusUntil(`${url}${statusPath}`, (status) => [0, 3, 99].includes(status.status), 120_000);
    expect(done.status).toBe(3);
    expect(done.elementCount).toBe(elementCount);
    const elements = await call<{ id: string }[]>(`${url}${statusPath.replace('/status', '/elements')}?$select=id`);
    expect(elements).toHaveLength(elementCount);
    expect(new Set(elements.map((element) => element.id)).size).toBe(elementCount);
    expect(await readdir(importTemp)).toEqual([]);
  }, 240_000);
});
