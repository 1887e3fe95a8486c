/**
 * The bootstrap key of a server on its own data folder: a new key asked to replace the earlier ones deletes their
 * tokens, so a key the desktop app replaced (because it could no longer read it) opens nothing any more.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../../server/server';

const OLD_KEY = 'old-bootstrap-key-0123456789abcdefghijklmnop';
const NEW_KEY = 'new-bootstrap-key-0123456789abcdefghijklmnop';
const NEWER_KEY = 'newer-bootstrap-key-0123456789abcdefghijklmn';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bootstrap-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function statusWith(url: string, key: string): Promise<number> {
  return (await fetch(`${url}/api/v2.3/accounts/current`, { headers: { 'x-api-key': key } })).status;
}

describe('the bootstrap key', () => {
  it('keeps working across restarts; a new one sits beside the old, or takes its place when asked to', async () => {
    const first = await startServer({ dataDir, port: 0, bootstrapKey: OLD_KEY, logger: false, worker: false });
    try {
      expect(await statusWith(first.url, OLD_KEY)).toBe(200);
    } finally {
      await first.close();
    }
    const again = await startServer({ dataDir, port: 0, bootstrapKey: OLD_KEY, logger: false, worker: false });
    try {
      expect(await statusWith(again.url, OLD_KEY)).toBe(200);
    } finally {
      await again.close();
    }
    const beside = await startServer({ dataDir, port: 0, bootstrapKey: NEW_KEY, logger: false, worker: false });
    try {
      // A team server given a new administrator key keeps the keys of a workspace copied into it.
      expect(await statusWith(beside.url, NEW_KEY)).toBe(200);
      expect(await statusWith(beside.url, OLD_KEY)).toBe(200);
    } finally {
      await beside.close();
    }
    const replaced = await startServer({ dataDir, port: 0, bootstrapKey: NEWER_KEY, replaceEarlierBootstrapKeys: true, logger: false, worker: false });
    try {
      expect(await statusWith(replaced.url, NEWER_KEY)).toBe(200);
      expect(await statusWith(replaced.url, NEW_KEY)).toBe(401);
      expect(await statusWith(replaced.url, OLD_KEY)).toBe(401);
    } finally {
      await replaced.close();
    }
  });
});
