import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../errors';
import { pipeIntoNewFile } from './new-file';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files';

/** What was stored by a put. */
export interface StoredBlob {
  size: number;
}

/** What a signed download address of a blob carries: the name and type it is served under, and its validity. */
export interface SignedBlobDownload {
  fileName: string;
  contentType: string;
  signedAt: Date;
  expiresAt: Date;
}

/** Where uploads, images, logos and generated files live; keys are `/`-separated relative names. */
export interface BlobStore {
  /** Streams `content` into `key`, replacing it atomically; over `maxBytes` → 413 and nothing is kept. */
  put(key: string, content: Readable | Buffer, maxBytes: number): Promise<StoredBlob>;
  /** A stream of the blob, or undefined when it does not exist. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** The blob's size in bytes without reading it, or undefined when it does not exist. */
  sizeOf(key: string): Promise<number | undefined>;
  /**
   * A file on the local disk with the blob's content, for readers that need a path (web-ifc, exceljs); `release` when
   * done. Undefined when the blob does not exist. A store that must copy the blob to disk copies it into `tempFolder`
   * (an import's, server/imports/import-temp.ts) when given, else into the system's temporary folder.
   */
  localFile(key: string, tempFolder?: string): Promise<{ path: string; release(): Promise<void> } | undefined>;
  /** Removes a blob; absent is fine. */
  delete(key: string): Promise<void>;
  /** Removes every blob under `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * An address the store itself serves the blob at until `expiresAt` (S3: a presigned GetObject). Absent for stores
   * the server serves itself (`GET /downloads/{token}`).
   */
  signedUrl?(key: string, download: SignedBlobDownload): Promise<string>;
  /** Releases the store's connections. */
  close(): Promise<void>;
}

/** Checks a key has only safe segments, so no key can escape the blob folder. */
export function checkedSegments(key: string): string[] {
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[\\\0]/.test(segment))) {
    throw new Error(`Invalid blob key '${key}'`);
  }
  return segments;
}

/** A transform that fails once more than `maxBytes` passed through it (413), counting into `counted.size`. */
export function sizeLimit(maxBytes: number, counted: { size: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.size += chunk.length;
      if (counted.size > maxBytes) {
        callback(new ApiError(413, `The upload is larger than the limit of ${maxBytes} bytes.`));
        return;
      }
      callback(null, chunk);
    },
  });
}

/** Blob store on the local file system: writes go to a temporary file in the same folder and are renamed into place. */
export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedSegments(key));
  }

  async put(key: string, content: Readable | Buffer, maxBytes: number): Promise<StoredBlob> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const temporary = `${target}.${randomUUID()}.partial`;
    const counted = { size: 0 };
    try {
      if (Buffer.isBuffer(content)) {
        if (content.length > maxBytes) throw new ApiError(413, `The upload is larger than the limit of ${maxBytes} bytes.`);
        counted.size = content.length;
        await pipeIntoNewFile(Readable.from([content]), [], temporary, PRIVATE_FILE_MODE);
      } else {
        await pipeIntoNewFile(content, [sizeLimit(maxBytes, counted)], temporary, PRIVATE_FILE_MODE);
      }
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: counted.size };
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async sizeOf(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async localFile(key: string): Promise<{ path: string; release(): Promise<void> } | undefined> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    // The blob already is a local file; nothing to clean up.
    return { path: file, release: async () => undefined };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }
}

/**
 * The blob store at `location`: `s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true` for an S3-compatible
 * service, a folder path (or `file://` address), or, when absent, the folder `blobs` in the data folder.
 */
export async function openBlobStore(location: string | undefined, dataDir: string): Promise<BlobStore> {
  if (location === undefined || location === '') return new FsBlobStore(path.join(dataDir, 'blobs'));
  if (location.startsWith('s3://')) {
    // Loaded only when asked for: the SDK is large and the embedded server never needs it.
    const { S3BlobStore, parseS3Url } = await import('./s3-blobs');
    return new S3BlobStore(parseS3Url(location));
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !location.startsWith('file://')) {
    throw new Error(`Unknown blob store '${location}': give a folder or an s3://bucket address.`);
  }
  return new FsBlobStore(location.startsWith('file://') ? fileURLToPath(location) : path.resolve(location));
}
