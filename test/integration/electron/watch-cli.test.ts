import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UploadLedger, type LedgerRow } from '../../../electron/dropfolders/ledger';
import {
  createTarget,
  EXAMPLE_IFC,
  KEY,
  remoteFiles,
  remoteSha256,
  sha256Of,
  startDropServer,
  tempFolder,
  type DropServer,
} from './dropfolders/harness';
import { waitFor } from './wait-for';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A watch command running as its own process, with what it printed so far. */
interface WatchProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

function runWatch(args: string[]): WatchProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/watch-cli.ts', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/**
 * A proxy in front of the server that, while `stalling`, passes the first 64 KiB of every upload on and then holds
 * the rest: the upload is in flight for as long as the test wants.
 */
async function startStallingProxy(target: string): Promise<{ url: string; stalling: boolean; stalled: Promise<void>; close(): Promise<void> }> {
  let markStalled: () => void = () => undefined;
  const state = {
    url: '',
    stalling: true,
    stalled: new Promise<void>((resolve) => (markStalled = resolve)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    const upstream = http.request(new URL(request.url ?? '/', target), { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    if (state.stalling && request.method === 'POST' && (request.url ?? '').includes('/upload/')) {
      let passed = 0;
      request.on('data', (chunk: Buffer) => {
        upstream.write(chunk);
        passed += chunk.byteLength;
        if (passed >= 64 * 1024) {
          request.pause();
          markStalled();
        }
      });
    } else {
      request.pipe(upstream);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function ledgerRows(stateDir: string): LedgerRow[] {
  const ledger = UploadLedger.open(stateDir);
  try {
    return ledger.list();
  } finally {
    ledger.close();
  }
}

function integrityOf(stateDir: string): string {
  const db = new Database(path.join(stateDir, 'ledger.sqlite'), { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

let server: DropServer;

beforeAll(async () => {
  server = await startDropServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder holding example.ifc, a key file, a building, and the proxy in front of the server. */
async function setUp(name: string) {
  const { buildingId } = await createTarget(server, name);
  const folder = await tempFolder('cd-watch-');
  const keyFile = path.join(await tempFolder('cd-watch-key-'), 'key.txt');
  await writeFile(keyFile, `${KEY}\n`);
  await copyFile(EXAMPLE_IFC, path.join(folder, 'model.ifc'));
  const proxy = await startStallingProxy(server.url);
  cleanups.push(async () => {
    await proxy.close();
    await rm(folder, { recursive: true, force: true });
    await rm(path.dirname(keyFile), { recursive: true, force: true });
  });
  const args = ['--server', proxy.url, '--key-file', keyFile, '--folder', folder, '--building', buildingId as string, '--settle', '200'];
  return { buildingId: buildingId as string, folder, stateDir: path.join(folder, '.circularity-desk'), proxy, args };
}

describe('npm run watch', () => {
  it('uploads a file once when it was killed mid-upload and started again', async () => {
    const { buildingId, stateDir, proxy, args } = await setUp('Killed');
    const first = runWatch(args);
    await proxy.stalled;
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    const [left] = ledgerRows(stateDir);
    expect(left).toMatchObject({ path: 'model.ifc', state: 'uploading', attempts: 1 });
    expect(left?.fileId).toBeTruthy();
    expect((await remoteFiles(server, buildingId)).map((file) => [file.id, file.status])).toEqual([[left?.fileId, 6]]);

    proxy.stalling = false;
    const second = runWatch(args);
    await waitFor('model.ifc mapped', () => (/ mapped model\.ifc/.test(second.stdout()) ? true : undefined));
    const files = await remoteFiles(server, buildingId);
    expect(files.map((file) => [file.id, file.status, file.fileSize])).toEqual([[left?.fileId, 3, (await stat(EXAMPLE_IFC)).size]]);
    expect(await remoteSha256(server, buildingId, left?.fileId as string)).toBe(await sha256Of(EXAMPLE_IFC));
    expect(second.stdout()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z uploading model\.ifc attempt 2$/m);
    second.child.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);
  }, 45_000);

  it('stops on SIGTERM mid-upload with exit code 0 and the ledger intact, and finishes the file on the next start', async () => {
    const { buildingId, stateDir, proxy, args } = await setUp('Stopped');
    const first = runWatch(args);
    await proxy.stalled;
    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toMatch(/SIGTERM received: stopping/);

    expect(integrityOf(stateDir)).toBe('ok');
    const [left] = ledgerRows(stateDir);
    expect(left).toMatchObject({ path: 'model.ifc', state: 'uploading' });

    proxy.stalling = false;
    const second = runWatch(args);
    await waitFor('model.ifc mapped', () => (/ mapped model\.ifc/.test(second.stdout()) ? true : undefined));
    expect((await remoteFiles(server, buildingId)).map((file) => [file.id, file.status])).toEqual([[left?.fileId, 3]]);
    second.child.kill('SIGINT');
    expect((await second.exit).code).toBe(0);
    expect(integrityOf(stateDir)).toBe('ok');
    expect(ledgerRows(stateDir).map((row) => [row.path, row.state])).toEqual([['model.ifc', 'mapped']]);
  }, 45_000);

  it('saves the passport of the watched building into --passports once a dropped file is mapped', async () => {
    const { args, proxy } = await setUp('With passports');
    proxy.stalling = false;
    const outside = await tempFolder('cd-watch-passports-');
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    const passportsDir = path.join(outside, 'passports');
    const run = runWatch([...args, '--passports', passportsDir, '--passport-language', 'nl']);
    await waitFor('model.ifc mapped', () => (/ mapped model\.ifc/.test(run.stdout()) ? true : undefined));
    // The service checks its passports every 15 s: the request goes out at once, the download at a later check.
    const pdf = await waitFor('a PDF passport in the folder', async () =>
      (await readdir(passportsDir)).find((name) => /^With passports - passport - \d{4}-\d\d-\d\d\.pdf$/.test(name)),
    60_000);
    expect((await readFile(path.join(passportsDir, pdf))).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(run.stdout()).toMatch(/^\S+Z passport requested pdf$/m);
    // The file is in place before the service records it as downloaded and the line is printed.
    const downloaded = ` passport downloaded pdf ${path.join(passportsDir, pdf)}\n`;
    await waitFor('the download on stdout', () => (run.stdout().includes(downloaded) ? true : undefined));
    expect(run.stderr()).toContain(`passports go to ${passportsDir}`);
    run.child.kill('SIGTERM');
    expect((await run.exit).code).toBe(0);
  }, 90_000);

  it('answers a command line it cannot run with the usage and exit code 2', async () => {
    const folder = await tempFolder('cd-watch-flags-');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const building = '00000000-0000-4000-8000-000000000000';
    const cases = [
      ['--server', server.url, '--key-file', 'k', '--folder', folder, '--building', building, '--nope'],
      ['--server', server.url, '--key-file', 'k', '--folder', folder],
      ['--server', 'ftp://example.org', '--key-file', 'k', '--folder', folder, '--building', building],
      ['--server', server.url, '--key-file', 'k', '--folder', folder, '--building', 'not-a-uuid'],
      ['--server', server.url, '--key-file', 'k', '--folder', path.join(folder, 'missing'), '--building', building],
      ['--server', server.url, '--key-file', 'k', '--folder', folder, '--building', building, '--passport-language', 'nl'],
      ['--server', server.url, '--key-file', 'k', '--folder', folder, '--building', building, '--passports', folder, '--passport-language', 'pt'],
      ['--server', server.url, '--key-file', 'k', '--folder', folder, '--building', building, '--passports', path.join(folder, 'passports')],
    ];
    const runs = await Promise.all(cases.map(async (args) => {
      const run = runWatch(args);
      return { exit: await run.exit, stderr: run.stderr() };
    }));
    for (const run of runs) {
      expect(run.exit.code).toBe(2);
      expect(run.stderr).toMatch(/Usage: npm run watch/);
    }
  }, 45_000);

  it('says so when the key file cannot be read', async () => {
    const folder = await tempFolder('cd-watch-key-');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const keyFile = path.join(folder, 'no-such-key.txt');
    const run = runWatch(['--server', server.url, '--key-file', keyFile, '--folder', folder, '--building', '00000000-0000-4000-8000-000000000000']);
    expect((await run.exit).code).toBe(1);
    expect(run.stderr()).toContain(`The key file ${keyFile} cannot be read (ENOENT).`);
  });
});
