/**
 * The Bridge transport of browser mode: calls and events over one WebSocket to the browser host
 * (`shared/web-bridge-protocol.ts`). The socket reconnects with backoff when it closes; a call made while there is no
 * socket waits for the next one, up to a limit; a call already sent when the socket closes fails as 'unavailable',
 * because the host may or may not have run it and only the caller can decide whether to try again. A socket counts
 * as open once the host says `ready`: a host that already serves another page (a second tab) closes it instead, and
 * the link is `refused` and tried again until that page is closed, its calls waiting meanwhile.
 */
import type { BridgeTransport, IpcChannel, IpcResult } from '../shared/ipc';
import type { BridgeInvokeMessage } from '../shared/web-bridge-protocol';
import {
  connect,
  failSent,
  sendCall,
  setLinkState,
  takeWaiting,
  unavailable,
  type LinkState,
  type SocketLink,
  type TransportTimers,
  type WebSocketFactory,
} from './web-socket-link';

export type { LinkState, TimerHandle, TransportTimers, WebSocketFactory, WebSocketLike } from './web-socket-link';

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

const WAIT_MESSAGE = 'The app could not be reached for 30 seconds. Check that it still runs, then try again.';
const CLOSED_MESSAGE = 'The connection to the app is closed.';

const systemTimers: TransportTimers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle),
};

/** Sends a call at once while the link is open, or lets it wait for the socket up to `waitLimitMs`. */
function invoke(link: SocketLink, message: BridgeInvokeMessage, waitLimitMs: number): Promise<IpcResult<unknown>> {
  return new Promise((resolve) => {
    const { socket } = link;
    if (socket !== undefined && link.state === 'open' && socket.readyState === SOCKET_OPEN) {
      sendCall(link, socket, message, resolve);
      return;
    }
    const timer = link.timers.setTimeout(() => {
      link.waiting.delete(message.id);
      resolve(unavailable(WAIT_MESSAGE));
    }, waitLimitMs);
    link.waiting.set(message.id, { message, resolve, timer });
  });
}

/** Closes the link for good: no reconnect, the socket closed, every pending call ended as `unavailable`. */
function closeLink(link: SocketLink): void {
  if (link.state === 'closed') return;
  setLinkState(link, 'closed');
  if (link.reconnectTimer !== undefined) link.timers.clearTimeout(link.reconnectTimer);
  link.reconnectTimer = undefined;
  const current = link.socket;
  link.socket = undefined;
  current?.close();
  for (const call of takeWaiting(link)) call.resolve(unavailable(CLOSED_MESSAGE));
  failSent(link, CLOSED_MESSAGE);
}

/** Opens the socket at once and keeps it open until `close()`. */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const waitLimitMs = options.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS;
  const link: SocketLink = {
    url: options.url,
    createSocket: options.createSocket ?? ((url: string) => new WebSocket(url)),
    timers: options.timers ?? systemTimers,
    retryDelay: options.retryDelay ?? ((attempt: number) => reconnectDelay(attempt)),
    onStateChange: options.onStateChange,
    state: 'connecting',
    socket: undefined,
    failedAttempts: 0,
    reconnectTimer: undefined,
    waiting: new Map(),
    sent: new Map(),
    listeners: new Set(),
  };
  let nextId = 1;

  connect(link);

  return {
    get state() {
      return link.state;
    },
    invoke(channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>> {
      if (link.state === 'closed') return Promise.resolve(unavailable(CLOSED_MESSAGE));
      return invoke(link, { type: 'invoke', id: nextId++, channel, request }, waitLimitMs);
    },
    subscribe(listener) {
      link.listeners.add(listener);
      return () => {
        link.listeners.delete(listener);
      };
    },
    close: () => closeLink(link),
  };
}
