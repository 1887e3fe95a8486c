import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ApiError } from '../errors';
import { checkedSegments, sizeLimit, type BlobStore, type SignedBlobDownload, type StoredBlob } from './blobs';
import { pipeIntoNewFile } from './new-file';

/** Where an S3-compatible store keeps the blobs: a bucket, a key prefix, and how to reach the service. */
export interface S3Location {
  bucket: string;
  /** Prepended to every key (`team/` for `s3://bucket/team`); empty for the bucket's root. */
  prefix: string;
  /** The service's address when it is not AWS (MinIO, Ceph, R2, …). */
  endpoint: string | undefined;
  region: string;
  /** Path-style addresses (`endpoint/bucket/key`), which most S3-compatible services need. */
  forcePathStyle: boolean;
}

/**
 * Reads `s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true`. Credentials are not part of it: the AWS SDK
 * reads them from the standard environment variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`), profiles or roles.
 */
export function parseS3Url(url: string): S3Location {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`'${url}' is not a blob store address; write s3://bucket?endpoint=…&region=….`);
  }
  if (parsed.protocol !== 's3:' || parsed.hostname === '') throw new Error(`'${url}' is not an s3://bucket address.`);
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  for (const name of parsed.searchParams.keys()) {
    if (!known.has(name)) throw new Error(`Unknown parameter '${name}' in '${url}' (known: ${[...known].join(', ')}).`);
  }
  const forcePathStyle = parsed.searchParams.get('forcePathStyle');
  if (forcePathStyle !== null && forcePathStyle !== 'true' && forcePathStyle !== 'false') {
    throw new Error(`forcePathStyle must be true or false, not '${forcePathStyle}'.`);
  }
  const prefix = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix !== '') checkedSegments(prefix);
  return {
    bucket: parsed.hostname,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint: parsed.searchParams.get('endpoint') ?? undefined,
    region: parsed.searchParams.get('region') ?? process.env['AWS_REGION'] ?? 'us-east-1',
    forcePathStyle: forcePathStyle === 'true',
  };
}

/** Whether an SDK error says the object does not exist. */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/** Keys per DeleteObjects request (the S3 limit). */
const deleteBatch = 1000;

/** Settings of an S3 blob store besides its location. */
export interface S3BlobStoreOptions {
  /** Explicit credentials instead of the SDK's default chain (environment, profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Blobs in an S3-compatible bucket. Uploads are streamed to a temporary file first (counted against the limit), then
 * sent with one PutObject of known length, so nothing is held in memory and a refused upload never reaches the bucket.
 * Downloads are presigned GetObject addresses that expire with the grant.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    options: S3BlobStoreOptions = {},
  ) {
    this.client = new S3Client({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      // Checksums only where the API requires them: S3-compatible services vary in the trailing checksums they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    checkedSegments(key);
    return `${this.location.prefix}${key}`;
  }

  async put(key: string, content: Readable | Buffer, maxBytes: number): Promise<StoredBlob> {
    const objectKey = this.objectKey(key);
    if (Buffer.isBuffer(content)) {
      if (content.length > maxBytes) throw new ApiError(413, `The upload is larger than the limit of ${maxBytes} bytes.`);
      await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: objectKey, Body: content, ContentLength: content.length }));
      return { size: content.length };
    }
    const folder = await mkdtemp(path.join(tmpdir(), 'cd-s3-put-'));
    try {
      const file = path.join(folder, 'content');
      const counted = { size: 0 };
      await pipeIntoNewFile(content, [sizeLimit(maxBytes, counted)], file);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.location.bucket, Key: objectKey, Body: createReadStream(file), ContentLength: counted.size }),
      );
      return { size: counted.size };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async sizeOf(key: string): Promise<number | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
      return answer.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async localFile(key: string, tempFolder?: string): Promise<{ path: string; release(): Promise<void> } | undefined> {
    const blob = await this.open(key);
    if (blob === undefined) return undefined;
    const folder = await mkdtemp(path.join(tempFolder ?? tmpdir(), 'cd-s3-get-'));
    const release = (): Promise<void> => rm(folder, { recursive: true, force: true });
    try {
      // The last segment keeps the key's name, for readers that look at the extension.
      const file = path.join(folder, path.posix.basename(key));
      await pipeIntoNewFile(blob.stream, [], file);
      if ((await stat(file)).size !== blob.size) throw new Error(`The blob '${key}' arrived incomplete.`);
      return { path: file, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers success for a key that does not exist.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const objectPrefix = `${this.objectKey(prefix)}/`;
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: objectPrefix, ContinuationToken: continuationToken, MaxKeys: deleteBatch }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [{ Key: object.Key }]));
      if (keys.length > 0) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: keys, Quiet: true } }));
      }
      continuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  async signedUrl(key: string, download: SignedBlobDownload): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.location.bucket,
      Key: this.objectKey(key),
      ResponseContentType: download.contentType,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
    });
    const expiresIn = Math.max(1, Math.round((download.expiresAt.getTime() - download.signedAt.getTime()) / 1000));
    return getSignedUrl(this.client, command, { expiresIn, signingDate: download.signedAt });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
