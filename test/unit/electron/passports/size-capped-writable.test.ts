import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import { SizeCapExceededError, sizeCappedWritable } from '../../../../electron/passports/size-capped-writable';

let scratch: string;
let server: Server | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'cd-size-cap-'));
});

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

/** A server whose one address answers with `body`, which writes the response; resolves with its base address. */
async function serving(body: (response: ServerResponse) => void): Promise<string> {
  server = createServer((_request, response) => body(response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(baseUrl: string) {
  return createQueuedClient({ baseUrl, apiVersion: 'v2.3', apiKey: async () => undefined, retry: { attempts: 1 } });
}

describe('sizeCappedWritable', () => {
  it('passes a body within the cap on and ends the destination', async () => {
    const base = await serving((response) => response.end(Buffer.alloc(1000, 7)));
    const file = path.join(scratch, 'within.bin');
    const destination = createWriteStream(file);
    const result = await client(base).download(`${base}/file`, sizeCappedWritable(destination, 1000));
    expect(result).toEqual({ kind: 'ok', bytes: 1000 });
    expect(destination.writableFinished).toBe(true);
    expect(await readFile(file)).toEqual(Buffer.alloc(1000, 7));
  });

  it('stops a body that never ends once it passes the cap, and the server sees the download given up', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const base = await serving((response) => {
      closed = once(response, 'close');
      const chunk = Buffer.alloc(64 * 1024, 1);
      const more = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      more();
    });
    const destination = createWriteStream(path.join(scratch, 'endless.bin'));
    const download = client(base).download(`${base}/endless`, sizeCappedWritable(destination, 1024 * 1024));
    await expect(download).rejects.toThrow(SizeCapExceededError);
    await closed;
    expect(destination.writableEnded).toBe(false);
    expect(destination.bytesWritten + destination.writableLength).toBeLessThanOrEqual(1024 * 1024);
    destination.destroy();
  });
});
