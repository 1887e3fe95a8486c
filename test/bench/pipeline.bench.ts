/**
 * The whole processing pipeline as a user sees it: upload a synthetic IFC4 model to the server (its own process), then
 * wait until the file is Mapped (import, refinement, validation). Reports the time from the end of the upload to
 * Mapped and the server's peak memory. Goal: a 100 MiB file reaches Mapped in ≤ 20 s with peak RSS ≤ 1.5 GiB.
 *
 * BENCH_PIPELINE_MB sets the file size (default 100). Never fails on time; exits non-zero only when the file does not
 * reach Mapped.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { serverPeakRss, startServerProcess, stopServerProcess, type ServerProcess } from './server-process';
import { writeSyntheticIfc } from './synthetic-ifc';

const megabytes = Number(process.env['BENCH_PIPELINE_MB'] ?? 100);
/** Bytes a synthetic wall takes in the file, measured on the generator's output (≈ 1.4 KiB). */
const bytesPerWall = 1443;

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

async function main(): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-pipeline-'));
  const key = randomBytes(32).toString('base64url');
  const ifc = path.join(folder, 'synthetic.ifc');
  const walls = Math.round((megabytes * 1024 * 1024) / bytesPerWall);
  await writeSyntheticIfc(ifc, { walls });
  const size = (await stat(ifc)).size;
  const server = await startServerProcess(path.join(folder, 'data'), key);
  try {
    const portfolio = await call<{ id: string }>(server, key, 'POST', '/portfolios', { name: 'Pipeline' });
    const building = await call<{ id: string }>(server, key, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Pipeline' });
    const file = await call<{ id: string }>(server, key, 'POST', `/buildings/${building.id}/files`, { type: 0 });
    const uploadStarted = performance.now();
    const upload = await fetch(`${server.url}/api/v2.3/buildings/${building.id}/files/${file.id}/upload/synthetic.ifc`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(createReadStream(ifc)) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
    if (upload.status !== 201) throw new Error(`Upload answered ${upload.status}: ${await upload.text()}`);
    const uploaded = performance.now();
    let status: { status: number; statusMessage: string | null; elementCount: number };
    for (;;) {
      status = await call(server, key, 'GET', `/buildings/${building.id}/files/${file.id}/status`);
      if ([0, 3, 99].includes(status.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const mapped = performance.now();
    const peak = await serverPeakRss(server);
    const mib = size / 1024 / 1024;
    console.log(`file: ${mib.toFixed(1)} MiB, ${walls.toLocaleString('en')} walls`);
    console.log(`upload: ${((uploaded - uploadStarted) / 1000).toFixed(1)} s`);
    console.log(
      `upload → ${status.status === 3 ? 'Mapped' : `status ${status.status}`}: ${((mapped - uploaded) / 1000).toFixed(1)} s ` +
        `(${(mib / ((mapped - uploaded) / 1000)).toFixed(1)} MiB/s), ${status.elementCount.toLocaleString('en')} elements`,
    );
    console.log(`server peak RSS: ${peak === undefined ? 'unknown' : `${(peak / 1024 ** 3).toFixed(2)} GiB`}`);
    console.log('goal: 100 MiB reaches Mapped in ≤ 20 s with peak RSS ≤ 1.5 GiB (informative; never fails the run)');
    if (status.status !== 3) {
      console.error(`FAILED: the file ended in status ${status.status}: ${status.statusMessage ?? ''}`);
      return 1;
    }
    return 0;
  } finally {
    await stopServerProcess(server);
    await rm(folder, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
