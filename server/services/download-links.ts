import type { FileDownloadResponse } from '../../shared/api';
import type { ServerContext } from '../context';

/** A signed, expiring address of a stored blob, served by `GET /downloads/{token}` without an API key (decisions §11). */
export function signedDownload(
  ctx: ServerContext,
  baseUrl: string,
  blob: { blobKey: string; fileName: string; contentType: string | null },
): FileDownloadResponse {
  const expiresAt = ctx.now().getTime() + ctx.config.downloadTtlMs;
  const token = ctx.signer.sign({
    blobKey: blob.blobKey,
    fileName: blob.fileName,
    contentType: blob.contentType ?? 'application/octet-stream',
    expiresAt,
  });
  return { url: `${ctx.config.publicBaseUrl ?? baseUrl}/api/v2.3/downloads/${token}`, expirationDateTime: new Date(expiresAt).toISOString() };
}
