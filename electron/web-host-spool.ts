/**
 * Browser mode's way in for a File's bytes: a PUT of one piece of it (`SPOOL_PATH<spoolId>?offset=<n>`), which the host
 * writes to the spool through the same `uploads:write-spool` handler, checks and all, as a chunk from Electron's IPC.
 * The caller has checked the request's address, origin and session token. The body goes to the spool as it arrives, in
 * chunks of at most SPOOL_CHUNK_BYTES, so the host holds a few chunks whatever the piece's size.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT } from '../shared/uploads';
import { SPOOL_PATH, SPOOL_PIECE_BYTES, spoolPieceResultOf, type SpoolPieceResult } from '../shared/web-bridge-protocol';
import { dispatchBridgeCall, type BridgeHandlers, type DispatchLog } from './bridge-dispatch';

/** Chunks of a piece on their way to the disk while the next ones are read: the socket keeps flowing meanwhile. */
const CHUNKS_WRITING = SPOOL_CHUNKS_IN_FLIGHT / 2;

function answer(response: ServerResponse, status: number, result: SpoolPieceResult): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(result));
}

function refusal(message: string): SpoolPieceResult {
  return { ok: false, error: { code: 'invalid-request', message } };
}

/** The spool and offset a piece's address names, and its announced length; or why the request is not a piece. */
function pieceOf(request: IncomingMessage, pathname: string, search: URLSearchParams): { spoolId: string; offset: number; length: number } | string {
  let spoolId: string;
  try {
    spoolId = decodeURIComponent(pathname.slice(SPOOL_PATH.length));
  } catch {
    return 'The address names no spool.';
  }
  const givenOffset = search.get('offset') ?? '';
  const offset = Number(givenOffset);
  const length = Number(request.headers['content-length'] ?? '');
  if (spoolId === '' || spoolId.includes('/')) return 'The address names no spool.';
  if (!/^\d+$/.test(givenOffset) || !Number.isSafeInteger(offset)) return 'The offset must be a whole number of bytes, from 0.';
  if (request.headers['content-length'] === undefined || !Number.isSafeInteger(length) || length < 1) return 'A piece must announce its length, of at least one byte.';
  if (length > SPOOL_PIECE_BYTES) return `A piece holds at most ${SPOOL_PIECE_BYTES} bytes; this one announced ${length}.`;
  return { spoolId, offset, length };
}

/**
 * Takes one piece: chunks of at most SPOOL_CHUNK_BYTES, a few of them on their way to the disk while the next ones
 * are read, so a disk slower than the page slows the page. After a chunk is refused the rest of the body is read and
 * dropped, so the page hears the reason instead of a broken connection. A client that breaks off leaves the chunks
 * written so far in the spool.
 */
export async function receiveSpoolPiece(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  handlers: BridgeHandlers,
  log: DispatchLog,
): Promise<void> {
  if (request.method !== 'PUT') {
    response.writeHead(405, { Allow: 'PUT' }).end();
    return;
  }
  const piece = pieceOf(request, url.pathname, url.searchParams);
  if (typeof piece === 'string') {
    request.resume();
    answer(response, 400, refusal(piece));
    return;
  }
  let result: SpoolPieceResult | undefined;
  let offset = piece.offset;
  const end = piece.offset + piece.length;
  // Chunks whose write ended are filled again: fresh megabytes would cost page faults and collection for every one.
  const reusable: Buffer[] = [];
  const nextChunk = (): Buffer => reusable.pop() ?? Buffer.allocUnsafeSlow(SPOOL_CHUNK_BYTES);
  let chunk = nextChunk();
  let limit = Math.min(SPOOL_CHUNK_BYTES, end - offset);
  let filled = 0;
  const writing = new Set<Promise<void>>();
  const writeChunk = (): void => {
    if (filled === 0 || result?.ok === false) return;
    const full = chunk;
    const write = dispatchBridgeCall(handlers, 'uploads:write-spool', { spoolId: piece.spoolId, offset, data: full.subarray(0, filled) }, log).then((answer) => {
      writing.delete(write);
      reusable.push(full);
      if (result?.ok === false) return;
      result = spoolPieceResultOf(answer) ?? { ok: false, error: { code: 'internal', message: 'The app could not keep the piece.' } };
    });
    writing.add(write);
    offset += filled;
    chunk = nextChunk();
    limit = Math.min(SPOOL_CHUNK_BYTES, end - offset);
    filled = 0;
  };
  try {
    for await (const received of request as AsyncIterable<Buffer>) {
      for (let at = 0; at < received.byteLength && result?.ok !== false; ) {
        const taken = received.copy(chunk, filled, at, at + limit - filled);
        if (taken === 0) throw new Error('The piece ran past the length it announced.');
        filled += taken;
        at += taken;
        if (filled === limit) writeChunk();
        if (writing.size >= CHUNKS_WRITING) await Promise.race(writing);
      }
    }
    writeChunk();
    await Promise.all(writing);
  } catch (error) {
    await Promise.all(writing);
    log('A piece of a file for a spool broke off', error);
    response.destroy();
    return;
  }
  answer(response, 200, result ?? refusal('The piece held no bytes.'));
}
