/**
 * NODE_EXTRA_CA_CERTS for browser mode and `npm run watch`: a server whose certificate a private CA signed (as a
 * company's TLS-inspecting proxy or internal server has) is trusted by the queued client as those hosts build it, for
 * calls through fetch and streamed uploads over node:https alike, once the CA's file is named at start; without it,
 * both fail. Each run is a Node process of its own, since Node reads the variable only when it starts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const QUEUED_CLIENT = fileURLToPath(new URL('../../../../electron/http/queued-client.ts', import.meta.url));
const ACCOUNT = { id: '6f9619ff-8b86-4011-b42d-00cf4fc964ff', name: 'Bureau Kring', accountType: 3 };
const BUILDING_ID = '9804b68f-25b5-4224-a408-1eca54aaa5bc';
const FILE_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** What the child process prints: the kind of each outcome, and a network failure's reason. */
const CLIENT_SCRIPT = `
import { Readable } from 'node:stream';
import { createQueuedClient } from ${JSON.stringify(QUEUED_CLIENT)};
const client = createQueuedClient({ baseUrl: process.argv[2], apiVersion: 'v2.3', apiKey: async () => 'ca-test-key' });
const account = await client.callLoose('getCurrentAccount', {}, { retry: false });
const upload = await client.call(
  'uploadBuildingFile',
  { params: { buildingId: '${BUILDING_ID}', fileId: '${FILE_ID}', fileName: 'model.ifc' }, body: () => Readable.from([Buffer.alloc(64 * 1024, 1)]) },
  { bodySize: 64 * 1024, retry: false },
);
await client.close();
console.log(JSON.stringify([account, upload].map((result) => result.kind === 'network' ? 'network: ' + result.error.reason : result.kind + ' ' + result.status)));
`;

let folder: string;
let server: Server;
let baseUrl: string;
let scriptFile: string;
const uploads: number[] = [];

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: folder, stdio: 'ignore' });
}

/** Runs the client in a Node process of its own with `env` added; answers what it printed. */
function runClient(env: Record<string, string>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', scriptFile, baseUrl], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`The client exited with ${code}: ${errors}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '[]') as string[]);
    });
  });
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'extra-ca-'));
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test company CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  await writeFile(path.join(folder, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  server = createServer(
    { key: await readFile(path.join(folder, 'server.key')), cert: await readFile(path.join(folder, 'server.pem')) },
    (request, response) => {
      let bytes = 0;
      request.on('data', (chunk: Buffer) => (bytes += chunk.length));
      request.on('end', () => {
        if (request.method === 'POST') {
          uploads.push(bytes);
          response.writeHead(201, { location: `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/status` }).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ACCOUNT));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  scriptFile = path.join(folder, 'client.mts');
  await writeFile(scriptFile, CLIENT_SCRIPT);
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('lets the queued client trust a server signed by the CA it names, for calls and streamed uploads', async () => {
    expect(await runClient({ NODE_EXTRA_CA_CERTS: path.join(folder, 'ca.pem') })).toEqual(['ok 200', 'ok 201']);
    expect(uploads).toEqual([64 * 1024]);
  }, 60_000);

  it('without it, the same server is not trusted', async () => {
    const outcomes = await runClient({});
    expect(outcomes).toHaveLength(2);
    expect(outcomes.every((outcome) => outcome.startsWith('network: '))).toBe(true);
  }, 60_000);
});
