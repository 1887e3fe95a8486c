/**
 * The link of the browser mode's Bridge transport, as state handed explicitly to the functions that change it: the
 * socket opened and opened again with backoff when it closes, open for calls once the host says `ready`, the calls
 * waiting for it and those sent and waiting for their result, and the host's results and events handed on.
 */
import { assertNever } from '../shared/api/enums';
import type { IpcEvent, IpcResult } from '../shared/ipc';
import { ANOTHER_PAGE_CLOSE_CODE, bridgeHostMessageOf, invokeFrameOf, type BridgeInvokeMessage } from '../shared/web-bridge-protocol';

/** The part of the WebSocket API the transport uses; the browser's WebSocket and the `ws` package both have it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string | Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'error', listener: () => void): void;
  addEventListener(type: 'close', listener: (event: { code: number }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** Opens a socket to an address. */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** A handle of a scheduled callback. */
export type TimerHandle = ReturnType<typeof setTimeout>;

/** The clock the transport schedules its waits and reconnects on. */
export interface TransportTimers {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * `connecting`: the first socket is opening; `open`: calls go out at once; `disconnected`: the socket closed and a new
 * one is on its way; `refused`: the host serves another page, and a new socket is on its way; `closed`: the transport
 * was closed for good.
 */
export type LinkState = 'connecting' | 'open' | 'disconnected' | 'refused' | 'closed';

/** A call that waits for a socket, until its timer ends the wait. */
export interface WaitingCall {
  message: BridgeInvokeMessage;
  resolve: (result: IpcResult<unknown>) => void;
  timer: TimerHandle;
}

/** The link's settings and its state. */
export interface SocketLink {
  readonly url: string;
  readonly createSocket: WebSocketFactory;
  readonly timers: TransportTimers;
  readonly retryDelay: (attempt: number) => number;
  readonly onStateChange: ((state: LinkState) => void) | undefined;
  state: LinkState;
  socket: WebSocketLike | undefined;
  failedAttempts: number;
  reconnectTimer: TimerHandle | undefined;
  // A call is in exactly one of these maps: waiting for a socket, or sent and waiting for its result.
  readonly waiting: Map<number, WaitingCall>;
  readonly sent: Map<number, (result: IpcResult<unknown>) => void>;
  readonly listeners: Set<(event: IpcEvent, payload: unknown) => void>;
}

const LOST_MESSAGE = 'The connection to the app was lost before it answered. Try again.';

export function unavailable(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'unavailable', message } };
}

export function setLinkState(link: SocketLink, next: LinkState): void {
  if (link.state === next) return;
  link.state = next;
  link.onStateChange?.(next);
}

/** Sends a call over `target`; its result comes back through `receive`. */
export function sendCall(
  link: SocketLink,
  target: WebSocketLike,
  message: BridgeInvokeMessage,
  resolve: (result: IpcResult<unknown>) => void,
): void {
  let frame: string | Uint8Array<ArrayBuffer>;
  try {
    frame = invokeFrameOf(message);
  } catch {
    resolve({ ok: false, error: { code: 'invalid-request', message: `The request of ${message.channel} cannot be sent.` } });
    return;
  }
  link.sent.set(message.id, resolve);
  target.send(frame);
}

/** Ends every call sent and not yet answered as `unavailable`. */
export function failSent(link: SocketLink, message: string): void {
  const pending = [...link.sent.values()];
  link.sent.clear();
  for (const resolve of pending) resolve(unavailable(message));
}

/** Takes every call that waits for a socket out of waiting, its timer stopped. */
export function takeWaiting(link: SocketLink): WaitingCall[] {
  const queued = [...link.waiting.values()];
  link.waiting.clear();
  for (const call of queued) link.timers.clearTimeout(call.timer);
  return queued;
}

function handOnEvent(link: SocketLink, event: IpcEvent, payload: unknown): void {
  for (const listener of link.listeners) {
    try {
      listener(event, payload);
    } catch (error) {
      // One failing listener must not keep the event from the others; the error still surfaces.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

function receive(link: SocketLink, data: unknown): void {
  if (typeof data !== 'string') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return;
  }
  const message = bridgeHostMessageOf(parsed);
  if (message === undefined) return;
  switch (message.type) {
    case 'ready':
      ready(link);
      return;
    case 'result': {
      const resolve = link.sent.get(message.id);
      if (resolve === undefined) return;
      link.sent.delete(message.id);
      resolve(message.result);
      return;
    }
    case 'event':
      handOnEvent(link, message.event, message.payload);
      return;
    default:
      assertNever(message, 'bridge message');
  }
}

/** The host accepted the socket: calls go out from now on. */
function ready(link: SocketLink): void {
  const current = link.socket;
  if (current === undefined) return;
  link.failedAttempts = 0;
  setLinkState(link, 'open');
  for (const call of takeWaiting(link)) sendCall(link, current, call.message, call.resolve);
}

function lost(link: SocketLink, refused: boolean): void {
  failSent(link, LOST_MESSAGE);
  if (link.state === 'closed') return;
  setLinkState(link, refused ? 'refused' : 'disconnected');
  const delay = link.retryDelay(link.failedAttempts);
  link.failedAttempts += 1;
  link.reconnectTimer = link.timers.setTimeout(() => {
    link.reconnectTimer = undefined;
    connect(link);
  }, delay);
}

/** Opens a socket; a socket that closes, or cannot be made, is opened again after the link's retry delay. */
export function connect(link: SocketLink): void {
  let current: WebSocketLike;
  try {
    current = link.createSocket(link.url);
  } catch {
    // A malformed address or a refused construction: treat it like a socket that closed at once.
    link.socket = undefined;
    lost(link, false);
    return;
  }
  link.socket = current;
  current.addEventListener('message', (event) => {
    if (link.socket === current) receive(link, event.data);
  });
  // 'error' is always followed by 'close', which is where the socket is given up; it is heard only so that
  // socket implementations that throw unheard errors (the `ws` package) behave like the browser's.
  current.addEventListener('error', () => {});
  current.addEventListener('close', (event) => {
    if (link.socket !== current) return;
    link.socket = undefined;
    lost(link, event.code === ANOTHER_PAGE_CLOSE_CODE);
  });
}
