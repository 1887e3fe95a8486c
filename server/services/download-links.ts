import type { FileDownloadResponse } from '../../shared/api';
import type { ServerContext } from '../context';

/**
 * A signed address of a stored blob that expires after `downloadTtlMs` (decisions §11): the blob store's own where it
 * has them (S3: presigned), else `GET /downloads/{token}` of this server, which needs no API key.
 */
export async function signedDownload(
  ctx: ServerContext,
  baseUrl: string,
  blob: { blobKey: string; fileName: string; contentType: string | null },
): Promise<FileDownloadResponse> {
  const signedAt = ctx.now();
  const expiresAt = signedAt.getTime() + ctx.config.downloadTtlMs;
  const contentType = blob.contentType ?? 'application/octet-stream';
  const expirationDateTime = new Date(expiresAt).toISOString();
  if (ctx.blobs.signedUrl !== undefined) {
    const url = await ctx.blobs.signedUrl(blob.blobKey, { fileName: blob.fileName, contentType, signedAt, expiresAt: new Date(expiresAt) });
    return { url, expirationDateTime };
  }
  const token = ctx.signer.sign({ blobKey: blob.blobKey, fileName: blob.fileName, contentType, expiresAt });
  return { url: `${ctx.config.publicBaseUrl ?? baseUrl}/api/v2.3/downloads/${token}`, expirationDateTime };
}
