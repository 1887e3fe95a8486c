/**
 * Browser mode's and `npm run watch`'s proxy for real: a small HTTP proxy (absolute-form requests and CONNECT) in
 * front of a server, and the queued client as those hosts build it, with HTTP_PROXY and NO_PROXY set. The proxy sends
 * every host name to the server, so an address that does not resolve (`api.test`) answers only through the proxy.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import { useEnvironmentProxy } from '../../../../electron/network/use-environment-proxy';

const ACCOUNT = { id: '6f9619ff-8b86-4011-b42d-00cf4fc964ff', name: 'Bureau Kring', accountType: 3 };
const BUILDING_ID = '9804b68f-25b5-4224-a408-1eca54aaa5bc';
const FILE_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

let server: Server;
let proxy: Server;
let serverPort: number;
let proxyUrl: string;
let previousDispatcher: Dispatcher;
/** The host:port of each request or tunnel the proxy carried. */
let proxied: string[] = [];
/** What the server received: method, path and body size. */
let received: { method: string; path: string; bytes: number }[] = [];

function bodyLength(request: IncomingMessage): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => resolve(bytes));
    request.on('error', reject);
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void bodyLength(request).then((bytes) => {
      received.push({ method: request.method ?? '', path: request.url ?? '', bytes });
      if (request.method === 'PUT' || request.method === 'POST') {
        response.writeHead(201, { location: `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/status` }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ACCOUNT));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverPort = (server.address() as AddressInfo).port;

  proxy = createServer((request, response) => {
    const target = new URL(request.url ?? '');
    proxied.push(target.host);
    const forward = httpRequest(
      { host: '127.0.0.1', port: target.port, method: request.method, path: `${target.pathname}${target.search}`, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  proxy.on('connect', (request: IncomingMessage, socket, head: Buffer) => {
    proxied.push(request.url ?? '');
    const port = Number(new URL(`http://${request.url ?? ''}`).port);
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  previousDispatcher = getGlobalDispatcher();
  vi.stubEnv('HTTP_PROXY', proxyUrl);
  vi.stubEnv('NO_PROXY', 'direct.test');
  expect(useEnvironmentProxy(process.env)).toBe(`Servers are reached through the proxy ${proxyUrl}, directly to direct.test,localhost,127.0.0.1,[::1].`);
});

afterAll(async () => {
  setGlobalDispatcher(previousDispatcher);
  vi.unstubAllEnvs();
  proxy.closeAllConnections();
  server.closeAllConnections();
  await Promise.all([new Promise((resolve) => proxy.close(resolve)), new Promise((resolve) => server.close(resolve))]);
});

beforeEach(() => {
  proxied = [];
  received = [];
});

function clientFor(host: string): ReturnType<typeof createQueuedClient> {
  return createQueuedClient({ baseUrl: `http://${host}:${serverPort}`, apiVersion: 'v2.3', apiKey: async () => 'proxy-test-key', timeoutMs: 5_000 });
}

describe('the environment’s proxy in browser mode', () => {
  it('carries a call to a server that only the proxy can reach', async () => {
    const client = clientFor('api.test');
    const result = await client.callLoose('getCurrentAccount', {}, { retry: false });
    await client.close();
    expect(result).toMatchObject({ kind: 'ok', value: ACCOUNT });
    expect(proxied).toEqual([`api.test:${serverPort}`]);
    expect(received.map((each) => each.path)).toEqual(['/api/v2.3/accounts/current']);
  });

  it('carries a streamed upload too, which otherwise goes out over node:http', async () => {
    const client = clientFor('api.test');
    const content = Buffer.alloc(256 * 1024, 7);
    const result = await client.call(
      'uploadBuildingFile',
      { params: { buildingId: BUILDING_ID, fileId: FILE_ID, fileName: 'model.ifc' }, body: () => Readable.from([content.subarray(0, 100_000), content.subarray(100_000)]) },
      { bodySize: content.byteLength },
    );
    await client.close();
    expect(result).toMatchObject({ kind: 'ok', status: 201 });
    expect(proxied).toEqual([`api.test:${serverPort}`]);
    expect(received).toEqual([{ method: 'POST', path: `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/upload/model.ifc`, bytes: content.byteLength }]);
  });

  it('goes directly to an address in NO_PROXY, and to this computer', async () => {
    const listed = clientFor('direct.test');
    const unresolved = await listed.callLoose('getCurrentAccount', {}, { retry: false });
    await listed.close();
    // Resolved by this machine, not the proxy: the name is unknown here.
    expect(unresolved).toMatchObject({ kind: 'network' });

    const local = clientFor('127.0.0.1');
    const uploaded = await local.call(
      'uploadBuildingFile',
      { params: { buildingId: BUILDING_ID, fileId: FILE_ID, fileName: 'model.ifc' }, body: () => Readable.from([Buffer.alloc(1000, 1)]) },
      { bodySize: 1000 },
    );
    expect(await local.callLoose('getCurrentAccount', {}, { retry: false })).toMatchObject({ kind: 'ok', value: ACCOUNT });
    await local.close();
    expect(uploaded).toMatchObject({ kind: 'ok', status: 201 });
    expect(proxied).toEqual([]);
    expect(received.map((each) => each.method)).toEqual(['POST', 'GET']);
  });
});
