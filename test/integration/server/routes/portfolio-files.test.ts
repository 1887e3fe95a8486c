import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from '../../../fixtures/images';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

const api = '/api/v2.3';

interface PortfolioFile {
  portfolioId: string;
  fileName: string | null;
  fileSize: number | null;
  status: number;
  type: number;
  lastModifiedDate: string;
  tags: string[];
  id: string;
}
interface FileDownload {
  url: string;
  expirationDateTime: string;
}
interface Problem {
  status: number;
  detail: string;
  errors: { path: string; message: string }[];
}

/** Upload limit of the test server: small, so the 413 path is cheap to reach. */
const maxUploadBytes = 1024;

let test: TestServer;

beforeAll(async () => {
  test = await startTestServer({ config: { maxUploadBytes } });
});

afterAll(async () => {
  await test.close();
});

async function createPortfolio(): Promise<string> {
  const response = await test.request({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'Portfolio' } });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}

async function createFile(portfolioId: string, payload: object = { name: 'report.pdf', tags: ['a'] }): Promise<PortfolioFile> {
  const response = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/files`, payload });
  expect(response.statusCode).toBe(201);
  return response.json<PortfolioFile>();
}

function uploadUrl(portfolioId: string, fileId: string, fileName: string): string {
  return `${api}/portfolios/${portfolioId}/files/${fileId}/upload/${fileName}`;
}

/** The blobs stored for a portfolio file, empty when its folder does not exist. */
async function blobsOf(portfolioId: string, fileId: string): Promise<string[]> {
  try {
    return await readdir(path.join(test.dataDir, 'blobs', 'portfolios', portfolioId, 'files', fileId));
  } catch {
    return [];
  }
}

describe('portfolio file CRUD', () => {
  it('creates an information file in Creating with 201 and Location, and lists, reads and reports it', async () => {
    const portfolioId = await createPortfolio();
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolioId}/files`,
      payload: { name: 'report.pdf', tags: ['energy', 'audit'] },
    });
    expect(response.statusCode).toBe(201);
    const file = response.json<PortfolioFile>();
    expect(file).toEqual({
      portfolioId,
      fileName: 'report.pdf',
      fileSize: null,
      status: 6,
      type: 1,
      lastModifiedDate: expect.any(String),
      tags: ['energy', 'audit'],
      id: expect.any(String),
    });
    expect(response.headers.location).toBe(`${api}/portfolios/${portfolioId}/files/${file.id}`);

    const read = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(file);
    const list = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files` });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([file]);
    const status = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/status` });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ status: 6, statusMessage: expect.any(String), id: file.id });
  });

  it('creates a file without name or tags', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId, {});
    expect(file.fileName).toBeNull();
    expect(file.tags).toEqual([]);
  });

  it('refuses a path as a file name (400)', async () => {
    const portfolioId = await createPortfolio();
    for (const name of ['..', 'a/b', 'a\\b', '../etc/passwd']) {
      const response = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/files`, payload: { name } });
      expect(response.statusCode, name).toBe(400);
      expect(response.json<Problem>().errors).toEqual([{ path: 'name', message: expect.any(String) }]);
    }
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files` })).json()).toEqual([]);
  });

  it('deletes a file with its content (204), after which it is 404', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const upload = await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'report.pdf'), payload: Buffer.from('pdf') });
    expect(upload.statusCode).toBe(204);
    expect(await blobsOf(portfolioId, file.id)).toHaveLength(1);

    const deleted = await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}/files/${file.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).statusCode).toBe(404);
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).statusCode).toBe(404);
    expect(await blobsOf(portfolioId, file.id)).toEqual([]);
  });

  it('deletes a passport file together with its queued job', async () => {
    const portfolioId = await createPortfolio();
    const passport = (await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/passport`, payload: {} })).json<PortfolioFile>();
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}/files/${passport.id}` })).statusCode).toBe(204);
    const jobs = await test.server.context.db.selectFrom('jobs').select('id').where('subjectId', '=', passport.id).execute();
    expect(jobs).toEqual([]);
  });
});

describe('portfolio file upload and download', () => {
  it('streams an upload in and serves the same bytes through the signed download address', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId, { name: 'draft.bin' });
    const content = Buffer.from(Array.from({ length: 700 }, (_, index) => index % 251));
    const upload = await test.request({
      method: 'POST',
      url: uploadUrl(portfolioId, file.id, 'plan.pdf'),
      headers: { 'content-type': 'application/pdf' },
      payload: content,
    });
    expect(upload.statusCode).toBe(204);
    expect(upload.body).toBe('');

    const read = (await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).json<PortfolioFile>();
    expect(read).toMatchObject({ fileName: 'plan.pdf', fileSize: content.length, status: 1, type: 1 });
    expect(Date.parse(read.lastModifiedDate)).toBeGreaterThanOrEqual(Date.parse(file.lastModifiedDate));
    const status = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/status` });
    expect(status.json()).toEqual({ status: 1, statusMessage: expect.any(String), id: file.id });

    const before = Date.now();
    const download = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/download` });
    expect(download.statusCode).toBe(200);
    const link = download.json<FileDownload>();
    const lifetime = Date.parse(link.expirationDateTime) - before;
    expect(lifetime).toBeGreaterThan(14 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);

    const fetched = await test.request({ method: 'GET', url: new URL(link.url).pathname, key: null });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('application/pdf');
    expect(fetched.rawPayload).toEqual(content);
  });

  it('stores content without a content type as application/octet-stream', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const upload = await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'blob.dat'), payload: Buffer.from('raw bytes') });
    expect(upload.statusCode).toBe(204);
    const link = (
      await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/download` })
    ).json<FileDownload>();
    const fetched = await test.request({ method: 'GET', url: new URL(link.url).pathname, key: null });
    expect(fetched.headers['content-type']).toBe('application/octet-stream');
    expect(fetched.body).toBe('raw bytes');
  });

  it('stores a request without a body as an empty file', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const upload = await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'empty.txt') });
    expect(upload.statusCode).toBe(204);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).json<PortfolioFile>()).toMatchObject({
      fileName: 'empty.txt',
      fileSize: 0,
      status: 1,
    });
  });

  it('answers 409 to a second upload and keeps the first content', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const url = uploadUrl(portfolioId, file.id, 'first.txt');
    expect((await test.request({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'first' })).statusCode).toBe(204);
    const second = await test.request({
      method: 'POST',
      url: uploadUrl(portfolioId, file.id, 'second.txt'),
      headers: { 'content-type': 'text/plain' },
      payload: 'second',
    });
    expect(second.statusCode).toBe(409);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).json<PortfolioFile>()).toMatchObject({
      fileName: 'first.txt',
      fileSize: 5,
    });
    expect(await blobsOf(portfolioId, file.id)).toHaveLength(1);
  });

  it('answers 409 to an upload to a passport file and to a download before any content', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/download` })).statusCode).toBe(409);
    const passport = (await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/passport`, payload: {} })).json<PortfolioFile>();
    const upload = await test.request({ method: 'POST', url: uploadUrl(portfolioId, passport.id, 'fake.pdf'), payload: Buffer.from('%PDF') });
    expect(upload.statusCode).toBe(409);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${passport.id}/status` })).json()).toMatchObject({
      status: 6,
    });
  });

  it('refuses path-like upload names (400) and stores nothing', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    // A bare `..` segment never reaches the route: URL normalisation resolves it first. Encoded separators do arrive.
    for (const name of ['..%2Fescape.txt', 'a%2Fb', 'a%5Cb', '%2E%2E%5Cboot.ini', 'x..']) {
      const response = await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, name), payload: Buffer.from('x') });
      expect(response.statusCode, name).toBe(400);
      expect(response.json<Problem>().errors).toEqual([{ path: 'fileName', message: expect.any(String) }]);
    }
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).json<PortfolioFile>().status).toBe(6);
    expect(await blobsOf(portfolioId, file.id)).toEqual([]);
  });

  it('answers 413 to an upload over the limit and stores nothing', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const response = await test.request({
      method: 'POST',
      url: uploadUrl(portfolioId, file.id, 'big.bin'),
      payload: Buffer.alloc(maxUploadBytes + 1, 7),
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).json<PortfolioFile>()).toMatchObject({
      status: 6,
      fileSize: null,
    });
    expect(await blobsOf(portfolioId, file.id)).toEqual([]);

    const fits = await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'fits.bin'), payload: Buffer.alloc(maxUploadBytes, 7) });
    expect(fits.statusCode).toBe(204);
  });

  it('answers 413 to a logo over the server limit', async () => {
    const portfolioId = await createPortfolio();
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolioId}/logo/logo.png`,
      headers: { 'content-type': 'image/png' },
      payload: Buffer.concat([tinyPng(), Buffer.alloc(maxUploadBytes, 1)]),
    });
    expect(response.statusCode).toBe(413);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}` })).json<{ logo: string | null }>().logo).toBeNull();
  });
});

describe('portfolio file access', () => {
  it('answers 404 for a file through another portfolio, a key of another portfolio, or a building key', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const otherPortfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const url = `${api}/portfolios/${portfolioId}/files/${file.id}`;
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${otherPortfolioId}/files/${file.id}` })).statusCode).toBe(404);

    const otherKey = await test.key('portfolio', otherPortfolioId, 90);
    const buildingKey = await test.key('building', buildingId, 90);
    for (const key of [otherKey, buildingKey]) {
      expect((await test.request({ method: 'GET', url, key })).statusCode).toBe(404);
      expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files`, key })).statusCode).toBe(404);
      expect((await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'x.txt'), payload: Buffer.from('x'), key })).statusCode).toBe(
        404,
      );
    }
  });

  it('lets a Read key of the portfolio read but not upload (403) or delete (403)', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const key = await test.key('portfolio', portfolioId, 50);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}`, key })).statusCode).toBe(200);
    expect((await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'x.txt'), payload: Buffer.from('x'), key })).statusCode).toBe(403);
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}/files/${file.id}`, key })).statusCode).toBe(403);
    expect(await blobsOf(portfolioId, file.id)).toEqual([]);
  });

  it('lets a Write key of the portfolio upload', async () => {
    const portfolioId = await createPortfolio();
    const file = await createFile(portfolioId);
    const key = await test.key('portfolio', portfolioId, 70);
    expect((await test.request({ method: 'POST', url: uploadUrl(portfolioId, file.id, 'x.txt'), payload: Buffer.from('x'), key })).statusCode).toBe(204);
  });

  it('answers 401 without a key', async () => {
    const portfolioId = await createPortfolio();
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files`, key: null })).statusCode).toBe(401);
  });
});
