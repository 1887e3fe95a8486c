/**
 * The Bridge over a WebSocket (browser mode): what the page and the browser host send each other. The page
 * connects to `BRIDGE_SOCKET_PATH` with the session token of its address; every call carries an id its result echoes.
 */
import { isIpcChannel, type IpcChannel, type IpcEvent, type IpcResult } from './ipc';
import { isRecord } from './is-record';

/** Path of the bridge socket on the browser host. */
export const BRIDGE_SOCKET_PATH = '/bridge';
/** Query parameter carrying the session token, in the page's address and in the socket's. */
export const SESSION_PARAM = 'session';

/** Page → host: one call of a channel. */
export interface BridgeInvokeMessage {
  type: 'invoke';
  id: number;
  channel: IpcChannel;
  request: unknown;
}

/** Host → page: the result of call `id`, or an event. */
export type BridgeHostMessage =
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
  if (value['type'] === 'result' && typeof value['id'] === 'number' && isRecord(value['result'])) {
    return { type: 'result', id: value['id'], result: value['result'] as IpcResult<unknown> };
  }
  if (value['type'] === 'event' && typeof value['event'] === 'string') {
    return { type: 'event', event: value['event'] as IpcEvent, payload: value['payload'] };
  }
  return undefined;
}
