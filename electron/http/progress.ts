/**
 * Byte counting for transfers: upload bodies turned into streams that count what fetch reads from them, and response
 * bodies that count what arrives. Counting happens where bytes change hands, so progress is what was really sent or
 * received, not what was planned.
 */

/** How far one transfer is; `loaded` restarts at 0 when a call is tried again. */
export interface TransferProgress {
  direction: 'upload' | 'download';
  loaded: number;
  /** The size when it is known in advance (Content-Length, the byte length of the body). */
  total: number | undefined;
}

/** A stream of file content, as the web or Node gives it. */
export type ContentStream = ReadableStream<Uint8Array> | NodeJS.ReadableStream;

/** Opens the content anew, so every attempt of a call can send it from the start. */
export type ContentStreamFactory = () => ContentStream;

/** File content to upload: bytes, a Blob, a stream read once, or a factory that opens a stream per attempt. */
export type UploadBody = Uint8Array | Blob | ContentStream | ContentStreamFactory;

/** An upload body ready to be sent by one attempt after another. */
export interface UploadSource {
  /** The size in bytes, when known. */
  readonly size: number | undefined;
  /** The content type the body carries itself (a Blob's type). */
  readonly contentType: string | undefined;
  /** Whether another attempt can send the body from its start. */
  replayable(): boolean;
  /** The body for one attempt; `onBytes` hears of every chunk as fetch takes it. */
  open(onBytes: (bytes: number) => void): ReadableStream<Uint8Array>;
}

/** Bytes are handed on in pieces of this size, so progress of a body given as one array still moves. */
const CHUNK_BYTES = 64 * 1024;

function isWebStream(value: unknown): value is ReadableStream<Uint8Array> {
  return value instanceof ReadableStream;
}

function isNodeStream(value: unknown): value is NodeJS.ReadableStream {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { pipe?: unknown }).pipe === 'function' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

function isContentStream(value: unknown): value is ContentStream {
  return isWebStream(value) || isNodeStream(value);
}

function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
    yield bytes.subarray(offset, Math.min(offset + CHUNK_BYTES, bytes.byteLength));
  }
}

function asBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
  throw new TypeError('A content stream gave a chunk that is neither bytes nor text.');
}

/**
 * A stream over `open()`'s chunks that reports each chunk's size as it is read. `open` runs at the first read, not
 * before: a stream nobody read from has not touched its source. The high-water mark of 0 keeps it from reading ahead,
 * so a count is a chunk the consumer took.
 */
export function countingStream(
  open: () => Iterator<unknown> | AsyncIterator<unknown>,
  onBytes: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  let iterator: Iterator<unknown> | AsyncIterator<unknown> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= open();
        const next = await iterator.next();
        if (next.done === true) {
          controller.close();
          return;
        }
        const chunk = asBytes(next.value);
        onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
      async cancel(reason) {
        await iterator?.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function iterate(stream: ContentStream): AsyncIterator<unknown> {
  return (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
}

/**
 * Prepares an upload body; undefined when `body` is not file content. `size` gives the length of a streamed body,
 * which it cannot say itself.
 */
export function uploadSourceOf(body: unknown, size?: number): UploadSource | undefined {
  if (body instanceof Uint8Array) {
    return {
      size: body.byteLength,
      contentType: undefined,
      replayable: () => true,
      open: (onBytes) => countingStream(() => slices(body), onBytes),
    };
  }
  if (body instanceof Blob) {
    return {
      size: body.size,
      contentType: body.type === '' ? undefined : body.type,
      replayable: () => true,
      open: (onBytes) => countingStream(() => iterate(body.stream()), onBytes),
    };
  }
  if (typeof body === 'function') {
    const factory = body as () => unknown;
    return {
      size,
      contentType: undefined,
      replayable: () => true,
      open: (onBytes) =>
        countingStream(() => {
          const stream = factory();
          if (!isContentStream(stream)) throw new TypeError('The upload body factory did not return a stream.');
          return iterate(stream);
        }, onBytes),
    };
  }
  if (isContentStream(body)) {
    // A stream can be read once: an attempt that read nothing from it leaves it whole for the next one.
    let touched = false;
    return {
      size,
      contentType: undefined,
      replayable: () => !touched,
      open: (onBytes) =>
        countingStream(() => {
          touched = true;
          return iterate(body);
        }, onBytes),
    };
  }
  return undefined;
}

/** The length a response announces for its body; undefined when absent or when the body is decoded on the way. */
export function announcedLength(headers: Headers): number | undefined {
  const encoding = headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const length = headers.get('content-length');
  if (length === null || !/^\d+$/.test(length.trim())) return undefined;
  return Number(length);
}
