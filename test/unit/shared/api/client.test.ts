import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type NetworkError } from '../../../../shared/api/client';

const KEY = 'test-key-4f1c9a';
const BUILDING_ID = '9804b68f-25b5-4224-a408-1eca54aaa5bc';
const FILE_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let baseUrl: string;
let received: Received[] = [];

function send(response: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(body);
}

/** A tiny stand-in for the API: answers by path, remembers every request. */
async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const url = request.url ?? '';
  received.push({ method: request.method ?? '', url, headers: request.headers, body: Buffer.concat(chunks) });
  const pathname = new URL(url, 'http://localhost').pathname;
  if (pathname.startsWith('/slow/')) return; // never answers; the client must give up
  if (pathname === `/api/v2.3/buildings/${BUILDING_ID}` || pathname === `/prefix/api/v2.3/buildings/${BUILDING_ID}`) {
    return send(response, 200, 'application/json', JSON.stringify({ id: BUILDING_ID, name: 'Town hall' }));
  }
  if (pathname === '/api/v2.3/buildings' && request.method === 'POST') {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as object;
    return send(response, 201, 'application/json', JSON.stringify({ ...body, id: BUILDING_ID }), {
      location: `/api/v2.3/buildings/${BUILDING_ID}`,
    });
  }
  if (pathname.endsWith('/process')) {
    response.writeHead(202, { location: `/api/v2.3/buildings/${BUILDING_ID}` });
    return void response.end();
  }
  if (pathname.includes('/upload/')) {
    response.writeHead(201, { location: 'status' });
    return void response.end();
  }
  if (pathname.includes('/images/')) return send(response, 200, 'application/json', JSON.stringify('stored.png'));
  if (pathname.startsWith('/api/v2.3/downloads/')) return send(response, 200, 'application/pdf', Buffer.from([37, 80, 68, 70]));
  if (pathname.endsWith('/elements') && request.method === 'POST') return send(response, 201, 'application/json', '{"id":"x"}');
  if (pathname.endsWith('/elements')) return send(response, 200, 'application/json', '[]');
  if (pathname === '/api/v2.3/portfolios') {
    return send(response, 200, 'application/json', '{not json');
  }
  if (pathname === '/api/v2.3/materials') {
    return send(
      response,
      400,
      'application/problem+json; charset=utf-8',
      JSON.stringify({ title: 'One or more validation errors occurred.', status: 400, errors: { 'circular.recycledPercentageFeedstock': ['must be <= 1'] } }),
    );
  }
  if (pathname === '/api/v2.3/products') return send(response, 502, 'text/html', '<html>Bad gateway</html>');
  if (pathname === '/api/v2.3/accounts/current') return send(response, 401, 'application/json', JSON.stringify({ message: 'Unknown key.' }));
  return send(
    response,
    404,
    'application/problem+json',
    JSON.stringify({
      type: 'https://circularity.desk/problems/not-found',
      title: 'Not Found',
      status: 404,
      detail: 'No such building.',
      instance: pathname,
      errors: [],
      message: 'No such building.',
    }),
  );
}

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

function lastRequest(): Received {
  const request = received.at(-1);
  if (request === undefined) throw new Error('no request received');
  return request;
}

function expectNoKey(error: NetworkError): void {
  expect(error.message).not.toContain(KEY);
}

describe('createApiClient', () => {
  const client = () => createApiClient({ baseUrl, apiKey: async () => KEY });

  it('builds the URL from the route, sends the key and parses the JSON answer', async () => {
    const result = await client().call('getBuilding', { params: { id: BUILDING_ID } });
    expect(result).toMatchObject({ kind: 'ok', status: 200, value: { id: BUILDING_ID, name: 'Town hall' } });
    expect(lastRequest()).toMatchObject({ method: 'GET', url: `/api/v2.3/buildings/${BUILDING_ID}` });
    expect(lastRequest().headers['x-api-key']).toBe(KEY);
    expect(lastRequest().headers['accept']).toBe('application/json, application/problem+json');
  });

  it('keeps a path prefix of the base URL and ignores its trailing slash', async () => {
    const prefixed = createApiClient({ baseUrl: `${baseUrl}/prefix/`, apiKey: () => KEY });
    expect((await prefixed.call('getBuilding', { params: { id: BUILDING_ID } })).kind).toBe('ok');
    expect(lastRequest().url).toBe(`/prefix/api/v2.3/buildings/${BUILDING_ID}`);
  });

  it('encodes path parameters and drops undefined query values', async () => {
    await client().call('listElements', {
      params: { buildingId: BUILDING_ID, fileId: FILE_ID },
      query: { $filter: "name eq 'a/b & c'", $top: 10, $skip: undefined },
    });
    expect(lastRequest().url).toBe(
      `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/elements?%24filter=name+eq+%27a%2Fb+%26+c%27&%24top=10`,
    );
    await client().call('getElement', { params: { buildingId: BUILDING_ID, fileId: FILE_ID, elementId: 'wall 1/a?#' } });
    expect(lastRequest().url).toBe(`/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/elements/wall%201%2Fa%3F%23`);
  });

  it('sends no key header when the provider has none', async () => {
    await createApiClient({ baseUrl, apiKey: () => undefined }).call('getBuilding', { params: { id: BUILDING_ID } });
    expect(lastRequest().headers['x-api-key']).toBeUndefined();
  });

  it('JSON-encodes a JSON body and returns the Location header', async () => {
    const result = await client().call('createBuilding', {
      body: { portfolioId: FILE_ID, name: 'Library', grossSurfaceArea: 1250.5 },
    });
    expect(lastRequest().headers['content-type']).toBe('application/json');
    expect(JSON.parse(lastRequest().body.toString('utf8'))).toEqual({ portfolioId: FILE_ID, name: 'Library', grossSurfaceArea: 1250.5 });
    expect(result.kind).toBe('ok');
    if (result.kind !== 'ok') return;
    expect(result.status).toBe(201);
    expect(result.value.name).toBe('Library');
    expect(result.headers.get('location')).toBe(`/api/v2.3/buildings/${BUILDING_ID}`);
  });

  it('sends a v2.1 call under /api/v2.1 with its own element body', async () => {
    const v21 = createApiClient({ baseUrl, apiVersion: 'v2.1', apiKey: () => KEY });
    await v21.call('createElement', {
      params: { buildingId: BUILDING_ID, fileId: FILE_ID },
      body: { id: 'wall-1', phase: 'New', classification: '21.22' },
    });
    expect(lastRequest().url).toBe(`/api/v2.1/buildings/${BUILDING_ID}/files/${FILE_ID}/elements`);
  });

  it('sends the passport language header', async () => {
    await client().call('exportBuildingPassport', { params: { id: BUILDING_ID }, headers: { 'accept-language': 'nl' } });
    expect(lastRequest().headers['accept-language']).toBe('nl');
  });

  it('answers 202 without a body as an undefined value with its headers', async () => {
    const result = await client().call('processBuilding', { params: { id: BUILDING_ID } });
    expect(result).toMatchObject({ kind: 'ok', status: 202, value: undefined });
    if (result.kind === 'ok') expect(result.headers.get('location')).toBe(`/api/v2.3/buildings/${BUILDING_ID}`);
  });

  it('sends bytes as application/octet-stream', async () => {
    const bytes = new Uint8Array([0x49, 0x53, 0x4f, 0x2d]);
    const result = await client().call('uploadBuildingFile', {
      params: { buildingId: BUILDING_ID, fileId: FILE_ID, fileName: 'model.ifc' },
      body: bytes,
    });
    expect(result).toMatchObject({ kind: 'ok', status: 201, value: undefined });
    expect(lastRequest().url).toBe(`/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/upload/model.ifc`);
    expect(lastRequest().headers['content-type']).toBe('application/octet-stream');
    expect([...lastRequest().body]).toEqual([...bytes]);
  });

  it('streams a ReadableStream body', async () => {
    const parts = [new TextEncoder().encode('first,'), new TextEncoder().encode('second')];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const result = await client().call('uploadBuildingFile', {
      params: { buildingId: BUILDING_ID, fileId: FILE_ID, fileName: 'sheet.csv' },
      body: stream,
    });
    expect(result.kind).toBe('ok');
    expect(lastRequest().body.toString('utf8')).toBe('first,second');
  });

  it("sends a Blob in its own type where any type is accepted, and an image in the given type", async () => {
    await client().call('uploadPortfolioFile', {
      params: { portfolioId: FILE_ID, fileId: FILE_ID, fileName: 'notes.txt' },
      body: new Blob(['hello'], { type: 'text/plain' }),
    });
    expect(lastRequest().headers['content-type']).toBe('text/plain');
    expect(lastRequest().body.toString('utf8')).toBe('hello');
    const image = await client().call('addBuildingImage', {
      params: { id: BUILDING_ID, fileName: 'front.jpg' },
      body: new Uint8Array([0xff, 0xd8]),
      contentType: 'image/jpeg',
    });
    expect(lastRequest().headers['content-type']).toBe('image/jpeg');
    expect(image).toMatchObject({ kind: 'ok', status: 200, value: 'stored.png' });
  });

  it('downloads bytes without sending the key', async () => {
    const result = await client().call('downloadBlob', { params: { token: 'signed.token' } });
    expect(result).toMatchObject({ kind: 'ok', status: 200 });
    if (result.kind === 'ok') expect([...result.value]).toEqual([37, 80, 68, 70]);
    expect(lastRequest().headers['x-api-key']).toBeUndefined();
  });

  it('parses problem details', async () => {
    const result = await client().call('getBuilding', { params: { id: FILE_ID } });
    expect(result).toEqual({
      kind: 'problem',
      status: 404,
      problem: {
        type: 'https://circularity.desk/problems/not-found',
        title: 'Not Found',
        status: 404,
        detail: 'No such building.',
        instance: `/api/v2.3/buildings/${FILE_ID}`,
        errors: [],
        message: 'No such building.',
      },
    });
  });

  it("completes a partial problem and reads ASP.NET's validation errors", async () => {
    const result = await client().call('createMaterial', { body: { circular: { recycledPercentageFeedstock: 2 } } });
    expect(result).toEqual({
      kind: 'problem',
      status: 400,
      problem: {
        type: 'about:blank',
        title: 'One or more validation errors occurred.',
        status: 400,
        detail: 'One or more validation errors occurred.',
        instance: '/api/v2.3/materials',
        errors: [{ path: 'circular.recycledPercentageFeedstock', message: 'must be <= 1' }],
        message: 'One or more validation errors occurred.',
      },
    });
  });

  it('reads the v1.1 `{ message }` error body', async () => {
    const result = await client().call('getCurrentAccount');
    expect(result).toMatchObject({ kind: 'problem', status: 401, problem: { title: 'Unauthorized', detail: 'Unknown key.', message: 'Unknown key.' } });
  });

  it('synthesises a problem from the status when the body is not one', async () => {
    const result = await client().call('listProducts');
    expect(result).toEqual({
      kind: 'problem',
      status: 502,
      problem: {
        type: 'about:blank',
        title: 'Bad Gateway',
        status: 502,
        detail: 'The server answered 502 Bad Gateway.',
        instance: '/api/v2.3/products',
        errors: [],
        message: 'The server answered 502 Bad Gateway.',
      },
    });
  });

  it('reports a success answer that is not the declared JSON', async () => {
    const result = await client().call('listPortfolios');
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-response' } });
  });

  it('reports an unreachable server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await createApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: () => KEY }).call('listBuildings');
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'unreachable', message: 'The server could not be reached (nothing answers at its address).' } });
    if (result.kind === 'network') expectNoKey(result.error);
  });

  it('gives up after timeoutMs', async () => {
    const slow = createApiClient({ baseUrl: `${baseUrl}/slow`, apiKey: () => KEY, timeoutMs: 100 });
    const started = Date.now();
    const result = await slow.call('listBuildings');
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops when the caller aborts', async () => {
    const slow = createApiClient({ baseUrl: `${baseUrl}/slow`, apiKey: () => KEY, timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = slow.call('listBuildings', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'network', error: { reason: 'aborted' } });
  });

  it('refuses a key a header cannot carry without quoting it', async () => {
    const badKey = `${KEY}\nX-Injected: yes`;
    const result = await createApiClient({ baseUrl, apiKey: () => badKey }).call('listBuildings');
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request' } });
    if (result.kind === 'network') expectNoKey(result.error);
    expect(received).toHaveLength(0);
  });

  it.each(['.', '..'])('refuses the path parameter %j before a URL is built: a URL parser would resolve it to another resource', async (value) => {
    const result = await client().call('getElement', { params: { buildingId: BUILDING_ID, fileId: FILE_ID, elementId: value } });
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request' } });
    expect(received).toHaveLength(0);
  });

  it.each(['toString', '__proto__', 'constructor'])('knows %s as no operation (own properties of the route table only)', async (operationId) => {
    const loose = client() as unknown as { call(operationId: string): Promise<unknown> };
    expect(await loose.call(operationId)).toMatchObject({ kind: 'network', error: { reason: 'invalid-request', message: `Unknown operation ${operationId}.` } });
  });

  it('reports a missing path parameter instead of calling a wrong URL', async () => {
    const result = await client().call('getBuilding', { params: { id: '' } });
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request', message: 'Path parameter id of getBuilding is missing.' } });
    expect(received).toHaveLength(0);
  });
});
