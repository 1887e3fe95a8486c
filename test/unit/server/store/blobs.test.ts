import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FsBlobStore, openBlobStore } from '../../../../server/store/blobs';
import { S3BlobStore } from '../../../../server/store/s3-blobs';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const created = await mkdtemp(path.join(tmpdir(), 'cd-blob-store-'));
  folders.push(created);
  return created;
}

describe('openBlobStore', () => {
  it('keeps blobs in <data>/blobs by default, or in a folder given by path or file:// address', async () => {
    const dataDir = await folder();
    const byDefault = await openBlobStore(undefined, dataDir);
    expect(byDefault).toBeInstanceOf(FsBlobStore);
    await byDefault.put('a/b', Buffer.from('default'), 100);
    expect(await readFile(path.join(dataDir, 'blobs', 'a', 'b'), 'utf8')).toBe('default');

    const elsewhere = await folder();
    await (await openBlobStore(elsewhere, dataDir)).put('c', Buffer.from('path'), 100);
    await (await openBlobStore(pathToFileURL(path.join(elsewhere, 'sub')).href, dataDir)).put('d', Buffer.from('url'), 100);
    expect(await readFile(path.join(elsewhere, 'c'), 'utf8')).toBe('path');
    expect(await readFile(path.join(elsewhere, 'sub', 'd'), 'utf8')).toBe('url');
  });

  it('opens an S3 store for s3:// and refuses other schemes', async () => {
    const store = await openBlobStore('s3://bucket?endpoint=http%3A%2F%2F127.0.0.1%3A9&forcePathStyle=true', await folder());
    expect(store).toBeInstanceOf(S3BlobStore);
    await store.close();
    await expect(openBlobStore('gs://bucket', await folder())).rejects.toThrow(/Unknown blob store 'gs:\/\/bucket'/);
  });
});

// Windows has no POSIX modes (NTFS ACLs guard the folder), so there is nothing to read there.
describe.skipIf(process.platform === 'win32')('FsBlobStore on disk', () => {
  it('writes blobs 0600 in folders it creates 0700, whatever the umask', async () => {
    const root = path.join(await folder(), 'blobs');
    await new FsBlobStore(root).put('buildings/b1/file', Buffer.from('content'), 100);
    await new FsBlobStore(root).put('buildings/b2/file', Readable.from([Buffer.from('streamed')]), 100);
    for (const created of [root, path.join(root, 'buildings'), path.join(root, 'buildings', 'b1')]) {
      expect((await stat(created)).mode & 0o777).toBe(0o700);
    }
    expect((await stat(path.join(root, 'buildings', 'b1', 'file'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(root, 'buildings', 'b2', 'file'))).mode & 0o777).toBe(0o600);
  });
});
