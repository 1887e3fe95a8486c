import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeError } from '../../../../shared/ipc';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT } from '../../../../shared/uploads';
import { SpoolStore } from '../../../../electron/uploads/spool';

let folder: string;
let now: number;
let logged: string[];
let spools: SpoolStore;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-spool-'));
  now = 0;
  logged = [];
  spools = new SpoolStore(folder, { unclaimedMs: 1_000, stalledMs: 500 }, () => now, (message) => logged.push(message));
});

afterEach(async () => {
  await spools.close();
  await rm(folder, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BridgeError)) throw new Error(`expected a BridgeError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

describe('SpoolStore', () => {
  it('takes chunks in order, several on their way at once, into the file', async () => {
    const bytes = Buffer.from(Array.from({ length: 10 }, (_, index) => index));
    const id = await spools.open('ten.bin', 10);
    const written = await Promise.all([
      spools.write(id, 0, bytes.subarray(0, 4)),
      spools.write(id, 4, bytes.subarray(4, 8)),
      spools.write(id, 8, bytes.subarray(8)),
    ]);
    expect(written).toEqual([4, 8, 10]);
    expect((await readFile(spools.fileOf(id))).equals(bytes)).toBe(true);
  });

  it('refuses a chunk out of order, past the size, empty, too large, or beyond those allowed on their way', async () => {
    const id = await spools.open('big.bin', 3 * SPOOL_CHUNK_BYTES);
    await spools.write(id, 0, Buffer.alloc(4));
    expect(await refusal(spools.write(id, 0, Buffer.alloc(4)))).toEqual({
      code: 'conflict',
      message: 'The chunk starts at byte 0, but byte 4 comes next: chunks must come in order.',
    });
    expect(await refusal(spools.write(id, 4, Buffer.alloc(SPOOL_CHUNK_BYTES + 1)))).toMatchObject({ code: 'invalid-request' });
    expect(await refusal(spools.write(id, 4, new Uint8Array(0)))).toMatchObject({ code: 'invalid-request', message: 'The chunk is empty.' });
    const small = await spools.open('small.bin', 5);
    expect(await refusal(spools.write(small, 0, Buffer.alloc(6)))).toMatchObject({
      code: 'invalid-request',
      message: 'The chunk ends at byte 6, past the 5 bytes the file was announced with.',
    });
    const chunk = Buffer.alloc(16);
    const onTheirWay = Array.from({ length: SPOOL_CHUNKS_IN_FLIGHT }, (_, index) => spools.write(id, 4 + index * 16, chunk));
    expect(await refusal(spools.write(id, 4 + SPOOL_CHUNKS_IN_FLIGHT * 16, chunk))).toMatchObject({ code: 'conflict', message: expect.stringContaining('at once') });
    await Promise.all(onTheirWay);
    expect(await refusal(spools.write('never-opened', 0, chunk))).toMatchObject({ code: 'not-found' });
  });

  it('is claimed once, for its own size', async () => {
    const id = await spools.open('x.bin', 8);
    expect(() => spools.claim(id, 9)).toThrow(expect.objectContaining({ code: 'invalid-request' }));
    spools.claim(id, 8);
    expect(() => spools.claim(id, 8)).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(() => spools.claim('never-opened', 8)).toThrow(expect.objectContaining({ code: 'not-found' }));
  });

  it('lets a reader wait for bytes still to come', async () => {
    const id = await spools.open('x.bin', 8);
    const growth = spools.growth(id, 8);
    expect(growth.available()).toBe(0);
    const signal = new AbortController().signal;
    const grown = growth.grown(signal);
    await spools.write(id, 0, Buffer.alloc(3));
    await grown;
    expect(growth.available()).toBe(3);
    expect(growth.failure()).toBeUndefined();
  });

  it('deletes an unclaimed spool that received nothing for a while, and fails a claimed one whose bytes stopped coming', async () => {
    const unclaimed = await spools.open('unclaimed.bin', 8);
    const claimed = await spools.open('claimed.bin', 8);
    spools.claim(claimed, 8);
    await spools.write(claimed, 0, Buffer.alloc(2));
    const growth = spools.growth(claimed, 8);
    now = 600;
    await spools.expire();
    expect(growth.failure()).toBe('claimed.bin stopped arriving before all of it was here; add it again.');
    expect(await spools.state(claimed, 8)).toEqual({ kind: 'gone', message: growth.failure() });
    expect(await readdir(folder)).toContain(unclaimed);
    now = 1_000;
    await spools.expire();
    expect(await readdir(folder)).not.toContain(unclaimed);
    expect(logged).toContainEqual('Deleted the spool of unclaimed.bin: no upload was started for it.');
  });

  it('after a restart, takes a spool file as usable only when it is complete', async () => {
    await writeFile(path.join(folder, 'complete'), Buffer.alloc(8));
    await writeFile(path.join(folder, 'partial'), Buffer.alloc(3));
    expect(await spools.state('complete', 8)).toEqual({ kind: 'usable' });
    expect(await spools.state('partial', 8)).toMatchObject({ kind: 'gone', message: expect.stringContaining('had not arrived completely') });
    expect(await spools.state('missing', 8)).toMatchObject({ kind: 'gone' });
    expect(spools.growth('complete', 8).available()).toBe(8);
    await spools.removeAllBut(new Set(['complete']));
    expect(await readdir(folder)).toEqual(['complete']);
  });

  it('refuses chunks once removed, and fails its reader', async () => {
    const id = await spools.open('x.bin', 8);
    const growth = spools.growth(id, 8);
    await spools.remove(id);
    expect(growth.failure()).toContain('deleted');
    expect(await refusal(spools.write(id, 0, Buffer.alloc(2)))).toMatchObject({ code: 'not-found' });
    expect(await readdir(folder)).toEqual([]);
  });
});
