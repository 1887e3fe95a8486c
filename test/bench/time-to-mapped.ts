/**
 * The whole processing pipeline as a user sees it, for pipeline.bench.ts and ifc-import.bench.ts: start the server as
 * deployed in a process of its own (server-process.ts, a fresh data folder), create a portfolio, a building and a
 * source file, upload a file (streamed from disk), then poll the file's status every 200 ms until it is Mapped, Error
 * or UnknownImportFile (import, refinement, validation). Reports the upload's time, the time from the end of the upload
 * to that status with the server's CPU time meanwhile, the element count, and the server's peak RSS (its `VmHWM`, which
 * includes the import's worker thread); the server is then stopped and its data folder removed.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { serverCpuSeconds, serverPeakRss, startServerProcess, stopServerProcess, type ServerProcess } from './server-process';

/** What `timeToMapped` measured. */
export interface TimeToMapped {
  /** The upload, from its first byte sent to the server's answer. */
  uploadSeconds: number;
  /** From the end of the upload to the final status (Mapped when all went well). */
  seconds: number;
  /** The file's final status: BuildingFileStatuses (3 Mapped, 0 Error, 99 UnknownImportFile). */
  status: number;
  statusMessage: string | null;
  elementCount: number;
  /** The server process's peak RSS, bytes; undefined where /proc is not there to tell. */
  peakRss: number | undefined;
  /** The CPU time the server used from the end of the upload to the final status, seconds; undefined where unknown. */
  cpuSeconds: number | undefined;
}

const FINAL_STATUSES: readonly number[] = [BuildingFileStatuses.Mapped, BuildingFileStatuses.Error, BuildingFileStatuses.UnknownImportFile];
const POLL_MS = 200;

/** A JSON request with the key; fails on a non-2xx answer. */
async function call<T>(server: ServerProcess, key: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/v2.3${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Uploads `file` (an IFC model or a spreadsheet, by its extension) to a fresh server and waits for its final status. */
export async function timeToMapped(file: string): Promise<TimeToMapped> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-time-to-mapped-'));
  const key = randomBytes(32).toString('base64url');
  const server = await startServerProcess(path.join(folder, 'data'), key);
  try {
    const portfolio = await call<{ id: string }>(server, key, 'POST', '/portfolios', { name: 'Benchmark' });
    const building = await call<{ id: string }>(server, key, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Benchmark' });
    const source = await call<{ id: string }>(server, key, 'POST', `/buildings/${building.id}/files`, { type: 0 });
    const filesUrl = `/buildings/${building.id}/files/${source.id}`;
    const uploadStarted = performance.now();
    const upload = await fetch(`${server.url}/api/v2.3${filesUrl}/upload/${encodeURIComponent(path.basename(file))}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    if (upload.status !== 201) throw new Error(`The upload answered ${upload.status}: ${await upload.text()}`);
    const uploaded = performance.now();
    const cpuAtUpload = await serverCpuSeconds(server);
    let status: { status: number; statusMessage: string | null; elementCount: number };
    for (;;) {
      status = await call(server, key, 'GET', `${filesUrl}/status`);
      if (FINAL_STATUSES.includes(status.status)) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const done = performance.now();
    const cpuAtDone = await serverCpuSeconds(server);
    return {
      uploadSeconds: (uploaded - uploadStarted) / 1000,
      seconds: (done - uploaded) / 1000,
      status: status.status,
      statusMessage: status.statusMessage,
      elementCount: status.elementCount,
      peakRss: await serverPeakRss(server),
      cpuSeconds: cpuAtUpload === undefined || cpuAtDone === undefined ? undefined : cpuAtDone - cpuAtUpload,
    };
  } finally {
    await stopServerProcess(server);
    await rm(folder, { recursive: true, force: true });
  }
}
