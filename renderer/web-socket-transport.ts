/**
 * The Bridge transport of browser mode: calls and events over one WebSocket to the browser host
 * (`shared/web-bridge-protocol.ts`). The socket reconnects with backoff when it closes; a call made while there is no
 * socket waits for the next one, up to a limit; a call already sent when the socket closes fails as 'unavailable',
 * because the host may or may not have run it and only the caller can decide whether to try again. A socket counts
 * as open once the host says `ready`: a host that already serves another page (a second tab) closes it instead, and
 * the link is `refused` and tried again until that page is closed, its calls waiting meanwhile.
 */
import { assertNever } from '../shared/api/enums';
import type { BridgeTransport, IpcChannel, IpcEvent, IpcResult } from '../shared/ipc';
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

/** How to reach the host and how patiently. */
export interface WebSocketTransportOptions {
  /** The socket address, session token included. */
  url: string;
  createSocket?: WebSocketFactory;
  /** How long a call waits for a socket before it fails as 'unavailable'. */
  waitLimitMs?: number;
  /** The pause before reconnect attempt `attempt` (0 for the first after a close). */
  retryDelay?: (attempt: number) => number;
  timers?: TransportTimers;
  onStateChange?: (state: LinkState) => void;
}

/** A Bridge transport over a WebSocket, with its link state. */
export interface WebSocketTransport extends BridgeTransport {
  readonly state: LinkState;
  /** Closes the socket for good; calls still pending fail as 'unavailable'. */
  close(): void;
}

/** The browser's WebSocket.OPEN, spelled out because the `ws` package's sockets have no such static on the instance. */
const SOCKET_OPEN = 1;
/** How long a call waits for the socket by default. */
export const DEFAULT_WAIT_LIMIT_MS = 30_000;
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 10_000;

/** Exponential backoff with jitter: half to all of 0.5 s · 2^attempt, at most 10 s, so many pages do not retry in step. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

function unavailable(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'unavailable', message } };
}

const LOST_MESSAGE = 'The connection to the app was lost before it answered. Try again.';
const WAIT_MESSAGE = 'The app could not be reached for 30 seconds. Check that it still runs, then try again.';
const CLOSED_MESSAGE = 'The connection to the app is closed.';

const systemTimers: TransportTimers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle),
};

interface WaitingCall {
  message: BridgeInvokeMessage;
  resolve: (result: IpcResult<unknown>) => void;
  timer: TimerHandle;
}

/** Opens the socket at once and keeps it open until `close()`. */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const timers = options.timers ?? systemTimers;
  const waitLimitMs = options.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS;
  const retryDelay = options.retryDelay ?? ((attempt: number) => reconnectDelay(attempt));

  let state: LinkState = 'connecting';
  let socket: WebSocketLike | undefined;
  let failedAttempts = 0;
  let reconnectTimer: TimerHandle | undefined;
  let nextId = 1;
  // A call is in exactly one of these maps: waiting for a socket, or sent and waiting for its result.
  const waiting = new Map<number, WaitingCall>();
  const sent = new Map<number, (result: IpcResult<unknown>) => void>();
  const listeners = new Set<(event: IpcEvent, payload: unknown) => void>();

  function setState(next: LinkState): void {
    if (state === next) return;
    state = next;
    options.onStateChange?.(next);
  }

  function send(target: WebSocketLike, message: BridgeInvokeMessage, resolve: (result: IpcResult<unknown>) => void): void {
    let frame: string | Uint8Array<ArrayBuffer>;
    try {
      frame = invokeFrameOf(message);
    } catch {
      resolve({ ok: false, error: { code: 'invalid-request', message: `The request of ${message.channel} cannot be sent.` } });
      return;
    }
    sent.set(message.id, resolve);
    target.send(frame);
  }

  function receive(data: unknown): void {
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
        ready();
        return;
      case 'result': {
        const resolve = sent.get(message.id);
        if (resolve === undefined) return;
        sent.delete(message.id);
        resolve(message.result);
        return;
      }
      case 'event':
        for (const listener of listeners) {
          try {
            listener(message.event, message.payload);
          } catch (error) {
            // One failing listener must not keep the event from the others; the error still surfaces.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
        return;
      default:
        assertNever(message, 'bridge message');
    }
  }

  function failSent(message: string): void {
    const pending = [...sent.values()];
    sent.clear();
    for (const resolve of pending) resolve(unavailable(message));
  }

  /** The host accepted the socket: calls go out from now on. */
  function ready(): void {
    const current = socket;
    if (current === undefined) return;
    failedAttempts = 0;
    setState('open');
    const queued = [...waiting.values()];
    waiting.clear();
    for (const call of queued) {
      timers.clearTimeout(call.timer);
      send(current, call.message, call.resolve);
    }
  }

  function lost(refused: boolean): void {
    failSent(LOST_MESSAGE);
    if (state === 'closed') return;
    setState(refused ? 'refused' : 'disconnected');
    const delay = retryDelay(failedAttempts);
    failedAttempts += 1;
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delay);
  }

  function connect(): void {
    let current: WebSocketLike;
    try {
      current = createSocket(options.url);
    } catch {
      // A malformed address or a refused construction: treat it like a socket that closed at once.
      socket = undefined;
      lost(false);
      return;
    }
    socket = current;
    current.addEventListener('message', (event) => {
      if (socket === current) receive(event.data);
    });
    // 'error' is always followed by 'close', which is where the socket is given up; it is heard only so that
    // socket implementations that throw unheard errors (the `ws` package) behave like the browser's.
    current.addEventListener('error', () => {});
    current.addEventListener('close', (event) => {
      if (socket !== current) return;
      socket = undefined;
      lost(event.code === ANOTHER_PAGE_CLOSE_CODE);
    });
  }

  connect();

  return {
    get state() {
      return state;
    },
    invoke(channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>> {
      if (state === 'closed') return Promise.resolve(unavailable(CLOSED_MESSAGE));
      const message: BridgeInvokeMessage = { type: 'invoke', id: nextId++, channel, request };
      return new Promise((resolve) => {
        if (socket !== undefined && state === 'open' && socket.readyState === SOCKET_OPEN) {
          send(socket, message, resolve);
          return;
        }
        const timer = timers.setTimeout(() => {
          waiting.delete(message.id);
          resolve(unavailable(WAIT_MESSAGE));
        }, waitLimitMs);
        waiting.set(message.id, { message, resolve, timer });
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      if (state === 'closed') return;
      setState('closed');
      if (reconnectTimer !== undefined) timers.clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const current = socket;
      socket = undefined;
      current?.close();
      const queued = [...waiting.values()];
      waiting.clear();
      for (const call of queued) {
        timers.clearTimeout(call.timer);
        call.resolve(unavailable(CLOSED_MESSAGE));
      }
      failSent(CLOSED_MESSAGE);
    },
  };
}
