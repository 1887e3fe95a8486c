/**
 * Handing a page's file over to its spool of the host, for a File the host cannot read from disk: in browser mode as
 * PUTs of large pieces that the browser reads from disk itself (`spool-pieces.ts`), in Electron a chunk at a time, each
 * read from the file when it is sent, so the page holds at most a few chunks whatever the file's size. How far each
 * upload's file is handed over, and why handing it over stopped, show with the upload.
 */
import { ref } from 'vue';
import type { Bridge, IpcResult } from '../../shared/ipc';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT } from '../../shared/uploads';
import { SPOOL_PIECE_BYTES } from '../../shared/web-bridge-protocol';
import type { SpoolPieceSender } from '../spool-pieces';

/** How the bytes reach the host, and when to stop sending them. */
export interface SpoolWay {
  /** Electron's: one chunk as an `uploads:write-spool` call. */
  writeSpool: Bridge['uploads']['writeSpool'];
  /** Browser mode's: PUTs to the browser host; undefined in Electron. */
  sendPiece: SpoolPieceSender | undefined;
  /** Whether the upload ended here (cancelled or failed): its bytes are not wanted any more. */
  stopped: (uploadId: string) => boolean;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _left, ...rest } = record;
  return rest;
}

export function createSpoolFeeding(way: SpoolWay) {
  /** Bytes of a page's file handed to the host's spool so far, by upload, while they are being handed over. */
  const handedOver = ref<Record<string, number>>({});
  /** Why handing a page's file over stopped, by upload. */
  const problems = ref<Record<string, string>>({});

  /** Notes how far a page's file is handed over, or why the host refused it; answers whether to go on. */
  function note(uploadId: string, result: IpcResult<unknown>, end: number): boolean {
    if (!result.ok) {
      problems.value = { ...problems.value, [uploadId]: result.error.message };
      return false;
    }
    if (uploadId in handedOver.value) {
      handedOver.value = { ...handedOver.value, [uploadId]: Math.max(handedOver.value[uploadId] ?? 0, end) };
    }
    return true;
  }

  /** Browser mode: the file as PUTs of SPOOL_PIECE_BYTES, one after the other, which the browser reads from disk itself. */
  async function inPieces(send: SpoolPieceSender, spoolId: string, uploadId: string, file: Blob): Promise<void> {
    for (let offset = 0; offset < file.size && !way.stopped(uploadId); offset += SPOOL_PIECE_BYTES) {
      const end = Math.min(file.size, offset + SPOOL_PIECE_BYTES);
      if (!note(uploadId, await send(spoolId, offset, file.slice(offset, end)), end)) return;
    }
  }

  /**
   * Electron (a File that is not on disk): chunk after chunk as `uploads:write-spool` calls, each read when it is sent
   * and up to SPOOL_CHUNKS_IN_FLIGHT on their way at once (the host takes them in order), until it is all there or
   * the host refuses one.
   */
  async function inChunks(spoolId: string, uploadId: string, file: Blob): Promise<void> {
    const onTheirWay = new Set<Promise<void>>();
    let refused = false;
    for (let offset = 0; offset < file.size && !refused && !way.stopped(uploadId); offset += SPOOL_CHUNK_BYTES) {
      const data = new Uint8Array(await file.slice(offset, offset + SPOOL_CHUNK_BYTES).arrayBuffer());
      const end = offset + data.byteLength;
      const sent = way.writeSpool({ spoolId, offset, data }).then((written) => {
        if (!note(uploadId, written, end)) refused = true;
      });
      onTheirWay.add(sent);
      void sent.finally(() => onTheirWay.delete(sent));
      if (onTheirWay.size >= SPOOL_CHUNKS_IN_FLIGHT) await Promise.race(onTheirWay);
    }
    await Promise.all(onTheirWay);
  }

  /** Sends a page's file to its spool, the way the host takes it, and stops showing the hand-over once it ended. */
  async function feed(spoolId: string, uploadId: string, file: Blob): Promise<void> {
    handedOver.value = { ...handedOver.value, [uploadId]: 0 };
    if (way.sendPiece === undefined) await inChunks(spoolId, uploadId, file);
    else await inPieces(way.sendPiece, spoolId, uploadId, file);
    handedOver.value = without(handedOver.value, uploadId);
  }

  /** Forgets why an upload's hand-over stopped, as it is tried again. */
  function forgetProblem(uploadId: string): void {
    problems.value = without(problems.value, uploadId);
  }

  return { handedOver, problems, feed, forgetProblem };
}
