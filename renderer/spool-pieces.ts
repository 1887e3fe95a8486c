/**
 * Browser mode's way to hand a File's bytes to a spool of the host: each piece of it as the body of a PUT to the page's
 * own host (`shared/web-bridge-protocol.ts`), which Chromium reads from disk and sends itself. The page never holds the
 * bytes, and they travel an order of magnitude faster than as WebSocket messages.
 */
import { SESSION_HEADER, SPOOL_PATH, spoolPieceResultOf, type SpoolPieceResult } from '../shared/web-bridge-protocol';

/** Sends one piece of a File to a spool at its offset; answers the host's result. */
export type SpoolPieceSender = (spoolId: string, offset: number, piece: Blob) => Promise<SpoolPieceResult>;

const LOST: SpoolPieceResult = {
  ok: false,
  error: { code: 'unavailable', message: 'The connection to the app was lost while the file was handed over; add it again.' },
};

/** A sender that PUTs pieces to the host at `origin` with the page's session token. */
export function httpSpoolPieceSender(origin: string, token: string, fetchPiece: typeof fetch = (...args) => fetch(...args)): SpoolPieceSender {
  return async (spoolId, offset, piece) => {
    let response: Response;
    try {
      response = await fetchPiece(`${origin}${SPOOL_PATH}${encodeURIComponent(spoolId)}?offset=${offset}`, {
        method: 'PUT',
        headers: { [SESSION_HEADER]: token, 'content-type': 'application/octet-stream' },
        body: piece,
      });
    } catch {
      return LOST;
    }
    const result = spoolPieceResultOf(await response.json().catch(() => undefined));
    if (result !== undefined) return result;
    return { ok: false, error: { code: 'internal', message: `The app answered the file's bytes with HTTP ${response.status}.` } };
  };
}
