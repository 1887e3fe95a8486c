/**
 * The Bridge over a WebSocket (browser mode): what the page and the browser host send each other. The page
 * connects to `BRIDGE_SOCKET_PATH` with the session token of its address; every call carries an id its result echoes.
 *
 * Calls are JSON text frames, but a call whose request holds bytes (a Uint8Array field, such as a spool chunk's
 * `data`) goes as one binary frame: the length of a JSON header (4 bytes, big-endian), the header (the call with the
 * name of the bytes' field in `bytesField`, the field left out), then the bytes. Base64 in JSON would cost a third
 * more bytes and, far worse, the time to build and parse megabyte strings on both sides.
 *
 * A File's bytes for a spool do not take the socket at all: Chromium sends a WebSocket's binary messages at about
 * 12 MB/s, but a Blob as the body of a fetch at 150–250 MB/s, read from disk by the browser itself. The page PUTs each
 * piece of the file to `SPOOL_PATH<spoolId>?offset=<n>` with the session token in `SESSION_HEADER`, and the host answers
 * with the result of the `uploads:write-spool` calls it made of the piece.
 */
import { Value } from 'typebox/value';
import { IpcError, isChannelValue, isIpcChannel, type IpcChannel, type IpcEvent, type IpcResult, type IpcValue } from './ipc';
import { isRecord } from './is-record';

/** Path of the bridge socket on the browser host. */
export const BRIDGE_SOCKET_PATH = '/bridge';
/** Query parameter carrying the session token, in the page's address and in the socket's. */
export const SESSION_PARAM = 'session';
/** Where the page PUTs a piece of a File for a spool: this path, then the spool's id. */
export const SPOOL_PATH = '/spool/';
/** The header carrying the session token of a spool piece (a header, so no other site's page can send one). */
export const SESSION_HEADER = 'x-session-token';
/** Bytes of a File the page sends in one PUT: few requests, and a progress step the user still sees move. */
export const SPOOL_PIECE_BYTES = 16 * 1024 * 1024;

/** The host's answer to a spool piece: that of the piece's last `uploads:write-spool` call, or of the one refused. */
export type SpoolPieceResult = IpcResult<IpcValue<'uploads:write-spool'>>;

/** Reads the host's answer to a spool piece; undefined for anything else. */
export function spoolPieceResultOf(value: unknown): SpoolPieceResult | undefined {
  if (!isRecord(value)) return undefined;
  if (value['ok'] === true && isChannelValue('uploads:write-spool', value['value'])) return { ok: true, value: value['value'] };
  if (value['ok'] === false && Value.Check(IpcError, value['error'])) return { ok: false, error: value['error'] };
  return undefined;
}

/**
 * The close code (and reason) of a page's socket that the host refused because another page already drives it: two
 * tabs would each change the same data and hear only half of the events. A socket the host accepts gets `ready`
 * first, so the page knows which of the two it has before it counts on the socket.
 */
export const ANOTHER_PAGE_CLOSE_CODE = 4409;
export const ANOTHER_PAGE_CLOSE_REASON = 'The app is already open in another tab.';

/** Page → host: one call of a channel. */
export interface BridgeInvokeMessage {
  type: 'invoke';
  id: number;
  channel: IpcChannel;
  request: unknown;
}

/** Host → page: the socket is accepted (sent once, first), the result of call `id`, or an event. */
export type BridgeHostMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; event: IpcEvent; payload: unknown };

/** Reads a page's message; undefined for anything that is not a call of a known channel. */
export function bridgeInvokeOf(value: unknown): BridgeInvokeMessage | undefined {
  if (!isRecord(value) || value['type'] !== 'invoke') return undefined;
  const { id, channel, request } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || !isIpcChannel(channel)) return undefined;
  return { type: 'invoke', id, channel, request };
}

/** Reads a host's message; undefined for anything else. */
export function bridgeHostMessageOf(value: unknown): BridgeHostMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value['type'] === 'ready') return { type: 'ready' };
  if (value['type'] === 'result' && typeof value['id'] === 'number' && isRecord(value['result'])) {
    return { type: 'result', id: value['id'], result: value['result'] as IpcResult<unknown> };
  }
  if (value['type'] === 'event' && typeof value['event'] === 'string') {
    return { type: 'event', event: value['event'] as IpcEvent, payload: value['payload'] };
  }
  return undefined;
}

/** The bytes field of a request, if it has one (only one field may hold bytes). */
function bytesFieldOf(request: unknown): string | undefined {
  if (!isRecord(request)) return undefined;
  const fields = Object.keys(request).filter((key) => request[key] instanceof Uint8Array);
  if (fields.length > 1) throw new Error('A request carries bytes in one field at most.');
  return fields[0];
}

/** A call as the frame the page sends: JSON text, or a binary frame when its request holds bytes. */
export function invokeFrameOf(message: BridgeInvokeMessage): string | Uint8Array<ArrayBuffer> {
  const field = bytesFieldOf(message.request);
  if (field === undefined) return JSON.stringify(message);
  const { [field]: bytes, ...rest } = message.request as Record<string, unknown>;
  const header = new TextEncoder().encode(JSON.stringify({ ...message, request: rest, bytesField: field }));
  const body = bytes as Uint8Array;
  const frame = new Uint8Array(4 + header.byteLength + body.byteLength);
  new DataView(frame.buffer).setUint32(0, header.byteLength);
  frame.set(header, 4);
  frame.set(body, 4 + header.byteLength);
  return frame;
}

/** Reads a binary frame of a page: the call with its bytes back in their field; undefined for anything else. */
export function bridgeInvokeOfFrame(frame: Uint8Array): BridgeInvokeMessage | undefined {
  if (frame.byteLength < 4) return undefined;
  const headerLength = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  if (4 + headerLength > frame.byteLength) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(4, 4 + headerLength)));
  } catch {
    return undefined;
  }
  const call = bridgeInvokeOf(header);
  const field = isRecord(header) ? header['bytesField'] : undefined;
  if (call === undefined || typeof field !== 'string' || !isRecord(call.request) || field in call.request) return undefined;
  return { ...call, request: { ...call.request, [field]: frame.subarray(4 + headerLength) } };
}
