import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** The access key s3rver accepts (its built-in account). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** An S3-protocol server on 127.0.0.1 with one bucket, keeping its objects in a temporary folder. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The `--blobs` address of the bucket. */
  blobsUrl: string;
  close(): Promise<void>;
}

/** Starts s3rver on a free port with the bucket `bucket`. */
export async function startS3Server(bucket = 'circularity-blobs'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'cd-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    blobsUrl: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
