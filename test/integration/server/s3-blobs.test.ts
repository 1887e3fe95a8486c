import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileStatusResponse, FileDownloadResponse } from '../../../shared/api';
import { ApiError } from '../../../server/errors';
import { S3BlobStore, parseS3Url } from '../../../server/store/s3-blobs';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from './s3-server';
import { ifcFixture } from '../../fixtures/files';

const api = '/api/v2.3';
const fixture = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');
/** Decisions §11: download addresses are valid 15 minutes. */
const ttlMs = 15 * 60 * 1000;

let s3: TestS3Server;
let store: S3BlobStore;
const savedEnvironment = { ...process.env };
beforeAll(async () => {
  // The SDK warns once per process that its releases from 2027 need Node 22; the tests run on Node 20.
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';
  s3 = await startS3Server();
  store = new S3BlobStore(parseS3Url(`${s3.blobsUrl}`), { credentials: S3RVER_CREDENTIALS });
});
afterAll(async () => {
  await store?.close();
  await s3?.close();
  process.env = savedEnvironment;
});

/** A stream of `text` in small chunks, as an upload arrives. */
function chunked(text: string): Readable {
  return Readable.from(text.match(/.{1,7}/gs) ?? [], { objectMode: false });
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('the S3 blob store against an S3-protocol server', () => {
  it('reads its address: bucket, prefix, endpoint, region, path style; refuses unknown parameters', () => {
    expect(parseS3Url('s3://team-blobs/desk/one?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=eu-west-1&forcePathStyle=true')).toEqual({
      bucket: 'team-blobs',
      prefix: 'desk/one/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://b').prefix).toBe('');
    expect(() => parseS3Url('s3://b?endpoitn=x')).toThrow(/Unknown parameter 'endpoitn'/);
    expect(() => parseS3Url('s3://b/a%5Cb')).toThrow(/Invalid blob key/);
  });

  it('stores a streamed upload, opens it, gives it as a local file, and deletes it and whole prefixes', async () => {
    const content = 'IFC content '.repeat(1000);
    expect(await store.put('buildings/b1/files/f1/v1', chunked(content), 1_000_000)).toEqual({ size: content.length });
    await store.put('buildings/b1/files/f2/v1', Buffer.from('second'), 100);
    await store.put('buildings/b2/files/f3/v1', Buffer.from('other building'), 100);

    const opened = await store.open('buildings/b1/files/f1/v1');
    expect(opened?.size).toBe(content.length);
    expect(await readAll(opened?.stream ?? Readable.from([]))).toBe(content);

    const local = await store.localFile('buildings/b1/files/f1/v1');
    expect(local).toBeDefined();
    expect(await readFile(local?.path ?? '', 'utf8')).toBe(content);
    await local?.release();
    expect(existsSync(local?.path ?? '')).toBe(false);

    expect(await store.open('buildings/b1/files/missing')).toBeUndefined();
    expect(await store.localFile('buildings/b1/files/missing')).toBeUndefined();

    await store.delete('buildings/b1/files/f2/v1');
    expect(await store.open('buildings/b1/files/f2/v1')).toBeUndefined();
    await store.delete('buildings/b1/files/f2/v1');
    await store.deletePrefix('buildings/b1');
    expect(await store.open('buildings/b1/files/f1/v1')).toBeUndefined();
    expect(await readAll((await store.open('buildings/b2/files/f3/v1'))?.stream ?? Readable.from([]))).toBe('other building');
  });

  it('refuses an upload over the limit with 413 and keeps nothing of it', async () => {
    const refused = await store.put('too/big', chunked('x'.repeat(5000)), 4096).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(413);
    expect(await store.open('too/big')).toBeUndefined();
    await expect(store.put('../escape', Buffer.from('x'), 10)).rejects.toThrow(/Invalid blob key/);
  });

  it('serves a presigned address under the file name and type until it expires', async () => {
    await store.put('portfolios/p/files/f/v1', Buffer.from('%PDF-1.4 passport'), 1000);
    const signedAt = new Date();
    const url = await store.signedUrl('portfolios/p/files/f/v1', {
      fileName: 'Villa Één - passport.pdf',
      contentType: 'application/pdf',
      signedAt,
      expiresAt: new Date(signedAt.getTime() + ttlMs),
    });
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/portfolios/p/files/f/v1?`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('%PDF-1.4 passport');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('Villa Één - passport.pdf')}`);

    // Signed 16 minutes ago: the 15 minutes are over.
    const earlier = new Date(Date.now() - 16 * 60 * 1000);
    const expired = await store.signedUrl('portfolios/p/files/f/v1', {
      fileName: 'passport.pdf',
      contentType: 'application/pdf',
      signedAt: earlier,
      expiresAt: new Date(earlier.getTime() + ttlMs),
    });
    const refused = await fetch(expired);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Request has expired');
  });
});

describe('a server whose blobs are in S3', () => {
  let test: TestServer;
  let clockOffsetMs = 0;
  beforeAll(async () => {
    // The server takes its credentials the standard way, from the environment.
    process.env['AWS_ACCESS_KEY_ID'] = S3RVER_CREDENTIALS.accessKeyId;
    process.env['AWS_SECRET_ACCESS_KEY'] = S3RVER_CREDENTIALS.secretAccessKey;
    test = await startTestServer({ worker: true, blobs: s3.blobsUrl, now: () => new Date(Date.now() + clockOffsetMs) });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('imports an upload from the bucket and hands out presigned addresses that expire after 15 minutes', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const files = `${api}/buildings/${buildingId}/files`;
    const fileId = ((await test.request({ method: 'POST', url: files, payload: { type: 0 } })).json() as { id: string }).id;
    const bytes = await readFile(fixture);
    const upload = await test.request({
      method: 'POST',
      url: `${files}/${fileId}/upload/${path.basename(fixture)}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(upload.statusCode).toBe(201);
    const status = await eventually(
      async () => (await test.request({ method: 'GET', url: `${files}/${fileId}/status` })).json() as BuildingFileStatusResponse,
      (current) => [0, 3, 99].includes(current.status),
    );
    expect(status.status).toBe(3);
    expect(status.elementCount).toBeGreaterThan(0);
    // Nothing went to the data folder: the content lives in the bucket.
    expect(existsSync(path.join(test.dataDir, 'blobs'))).toBe(false);

    const download = (await test.request({ method: 'GET', url: `${files}/${fileId}/download` })).json() as FileDownloadResponse;
    expect(download.url.startsWith(s3.endpoint)).toBe(true);
    expect(Date.parse(download.expirationDateTime) - Date.now()).toBeGreaterThan(ttlMs - 60_000);
    const fetched = await fetch(download.url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);

    clockOffsetMs = -16 * 60 * 1000;
    const stale = (await test.request({ method: 'GET', url: `${files}/${fileId}/download` })).json() as FileDownloadResponse;
    expect((await fetch(stale.url)).status).toBe(403);
    clockOffsetMs = 0;

    // Deleting the file removes its content from the bucket.
    expect((await test.request({ method: 'DELETE', url: `${files}/${fileId}` })).statusCode).toBe(204);
    expect((await fetch(download.url)).status).toBe(404);
  });
});
