import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createBridge, type IpcResult } from '../../../shared/ipc';
import {
  ANOTHER_PAGE_CLOSE_CODE,
  ANOTHER_PAGE_CLOSE_REASON,
  type BridgeHostMessage,
  type BridgeInvokeMessage,
} from '../../../shared/web-bridge-protocol';
import {
  createWebSocketTransport,
  reconnectDelay,
  type LinkState,
  type TimerHandle,
  type TransportTimers,
  type WebSocketTransport,
} from '../../../renderer/web-socket-transport';

/** A clock the test advances by hand: scheduled callbacks run only when `fire` is called. */
class ManualTimers implements TransportTimers {
  private next = 1;
  private waiters: Array<() => void> = [];
  readonly scheduled = new Map<number, { callback: () => void; delayMs: number }>();

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const handle = this.next++;
    this.scheduled.set(handle, { callback, delayMs });
    for (const wake of this.waiters.splice(0)) wake();
    return handle as unknown as TimerHandle;
  }

  /** Resolves once something with this delay is scheduled. */
  async scheduledWith(delayMs: number): Promise<void> {
    while (!this.delays().includes(delayMs)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  clearTimeout(handle: TimerHandle): void {
    this.scheduled.delete(handle as unknown as number);
  }

  delays(): number[] {
    return [...this.scheduled.values()].map((entry) => entry.delayMs);
  }

  fire(delayMs: number): void {
    for (const [handle, entry] of this.scheduled) {
      if (entry.delayMs !== delayMs) continue;
      this.scheduled.delete(handle);
      entry.callback();
    }
  }
}

/** A bridge host on 127.0.0.1 whose answers each test scripts. */
class TestHost {
  readonly server: WebSocketServer;
  readonly received: BridgeInvokeMessage[] = [];
  readonly sockets = new Set<WebSocket>();
  private waiters: Array<() => void> = [];
  onInvoke: (message: BridgeInvokeMessage, socket: WebSocket) => void = () => {};
  /** False while another page holds the host: a socket is then closed as the browser host refuses one. */
  acceptsPages = true;

  private constructor(server: WebSocketServer) {
    this.server = server;
    server.on('connection', (socket) => {
      if (!this.acceptsPages) {
        socket.close(ANOTHER_PAGE_CLOSE_CODE, ANOTHER_PAGE_CLOSE_REASON);
        return;
      }
      this.send(socket, { type: 'ready' });
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as BridgeInvokeMessage;
        this.received.push(message);
        this.onInvoke(message, socket);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  static async start(): Promise<TestHost> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    return new TestHost(server);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/bridge?session=test`;
  }

  async receivedCount(count: number): Promise<void> {
    while (this.received.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async connections(count: number): Promise<void> {
    while (this.sockets.size < count) await once(this.server, 'connection');
  }

  send(socket: WebSocket, message: BridgeHostMessage | string): void {
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  dropAll(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  async stop(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function ok(value: unknown): IpcResult<unknown> {
  return { ok: true, value };
}

/** The link states a transport went through, with a wait for the next ones. */
class StateLog {
  readonly states: LinkState[] = [];
  private waiters: Array<() => void> = [];

  readonly record = (state: LinkState): void => {
    this.states.push(state);
    for (const wake of this.waiters.splice(0)) wake();
  };

  async opened(): Promise<void> {
    while (!this.states.includes('open')) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

const running: Array<{ host: TestHost; transport: WebSocketTransport }> = [];

async function setUp(options: { timers?: ManualTimers; retryDelay?: (attempt: number) => number; refusing?: boolean } = {}) {
  const host = await TestHost.start();
  host.acceptsPages = options.refusing !== true;
  const log = new StateLog();
  const transport = createWebSocketTransport({
    url: host.url,
    createSocket: (url) => new WebSocket(url),
    timers: options.timers ?? new ManualTimers(),
    retryDelay: options.retryDelay ?? ((attempt) => 1000 + attempt),
    onStateChange: log.record,
  });
  running.push({ host, transport });
  return { host, transport, states: log.states, opened: () => log.opened() };
}

/** The address of a port nothing listens on any more. */
async function deadUrl(): Promise<string> {
  const host = await TestHost.start();
  const port = (host.server.address() as AddressInfo).port;
  await host.stop();
  return `ws://127.0.0.1:${port}/bridge?session=test`;
}

afterEach(async () => {
  for (const { host, transport } of running.splice(0)) {
    transport.close();
    await host.stop();
  }
});

describe('createWebSocketTransport', () => {
  it('matches each result to its call by id when the host answers out of order', async () => {
    const { host, transport, opened } = await setUp();
    await opened();
    const first = transport.invoke('connections:list', {});
    const second = transport.invoke('app:info', {});
    await host.receivedCount(2);
    const [a, b] = host.received;
    const socket = [...host.sockets][0]!;
    host.send(socket, { type: 'result', id: b!.id, result: ok('second') });
    host.send(socket, { type: 'result', id: a!.id, result: ok('first') });

    expect(await first).toEqual(ok('first'));
    expect(await second).toEqual(ok('second'));
    expect(a).toMatchObject({ type: 'invoke', channel: 'connections:list', request: {} });
    expect(b).toMatchObject({ type: 'invoke', channel: 'app:info' });
    expect(a!.id).not.toBe(b!.id);
  });

  it('passes a failed result through unchanged', async () => {
    const { host, transport, opened } = await setUp();
    host.onInvoke = (message, socket) =>
      host.send(socket, { type: 'result', id: message.id, result: { ok: false, error: { code: 'not-found', message: 'No such connection.' } } });
    await opened();

    expect(await transport.invoke('connections:remove', { connectionId: 'x' })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'No such connection.' },
    });
  });

  it('ignores messages that are not JSON, not of the protocol, or answer no pending call', async () => {
    const { host, transport, opened } = await setUp();
    await opened();
    const call = transport.invoke('app:info', {});
    await host.receivedCount(1);
    const socket = [...host.sockets][0]!;
    host.send(socket, 'not json');
    host.send(socket, JSON.stringify({ type: 'result', id: 'one' }));
    host.send(socket, { type: 'result', id: 999, result: ok('stray') });
    host.send(socket, { type: 'result', id: host.received[0]!.id, result: ok('real') });

    expect(await call).toEqual(ok('real'));
  });

  it('delivers host events to the listeners of a Bridge built on it', async () => {
    const { host, transport, opened } = await setUp();
    const bridge = createBridge(transport);
    const seen: unknown[] = [];
    const stop = bridge.on('local:status-changed', (status) => seen.push(status));
    bridge.on('http:activity', () => seen.push('wrong event'));
    await opened();
    const socket = [...host.sockets][0]!;
    host.send(socket, { type: 'event', event: 'local:status-changed', payload: { state: 'running' } });
    // A call's round trip orders the check after the event, which was sent first on the same socket.
    host.onInvoke = (message, target) => host.send(target, { type: 'result', id: message.id, result: ok(null) });
    await bridge.app.info();

    expect(seen).toEqual([{ state: 'running' }]);
    stop();
  });

  it('holds a call made before the socket opens and sends it once it is open', async () => {
    const { host, transport, states } = await setUp();
    host.onInvoke = (message, socket) => host.send(socket, { type: 'result', id: message.id, result: ok('early') });
    const early = transport.invoke('app:info', {});

    expect(states).not.toContain('open');
    expect(await early).toEqual(ok('early'));
    expect(states).toEqual(['open']);
  });

  it('fails calls in flight as unavailable when the socket closes, then reconnects after the backoff delay and resets it', async () => {
    const timers = new ManualTimers();
    const { host, transport, states, opened } = await setUp({ timers, retryDelay: (attempt) => 1000 + attempt });
    await opened();
    const inFlight = transport.invoke('connections:test', { connectionId: 'c1' });
    await host.receivedCount(1);
    host.dropAll();

    const lost = await inFlight;
    expect(lost.ok).toBe(false);
    expect(!lost.ok && lost.error.code).toBe('unavailable');
    expect(states).toEqual(['open', 'disconnected']);
    expect(timers.delays()).toEqual([1000]);

    // A call made while disconnected waits for the next socket.
    const waiting = transport.invoke('app:info', {});
    host.onInvoke = (message, socket) => host.send(socket, { type: 'result', id: message.id, result: ok('after reconnect') });
    timers.fire(1000);
    expect(await waiting).toEqual(ok('after reconnect'));
    expect(states).toEqual(['open', 'disconnected', 'open']);

    // The socket that opened reset the backoff: the next loss waits the first delay again.
    host.dropAll();
    await timers.scheduledWith(1000);
    expect(timers.delays()).toEqual([1000]);
  });

  it('says the link is refused while the host serves another page, and connects once it lets this one in', async () => {
    const timers = new ManualTimers();
    const { host, transport, states } = await setUp({ timers, refusing: true });
    host.onInvoke = (message, socket) => host.send(socket, { type: 'result', id: message.id, result: ok('this tab') });
    const waiting = transport.invoke('app:info', {});
    await timers.scheduledWith(1000);
    expect(states).toEqual(['refused']);

    timers.fire(1000);
    await timers.scheduledWith(1001);
    expect(states).toEqual(['refused']);
    expect(host.received).toEqual([]);

    host.acceptsPages = true;
    timers.fire(1001);
    expect(await waiting).toEqual(ok('this tab'));
    expect(states).toEqual(['refused', 'open']);
  });

  it('backs off further on each failed attempt to connect', async () => {
    const timers = new ManualTimers();
    const states: LinkState[] = [];
    const transport = createWebSocketTransport({
      url: await deadUrl(),
      createSocket: (url) => new WebSocket(url),
      timers,
      retryDelay: (attempt) => 1000 + attempt,
      onStateChange: (state) => states.push(state),
    });
    try {
      await timers.scheduledWith(1000);
      expect(timers.delays()).toEqual([1000]);
      timers.fire(1000);
      await timers.scheduledWith(1001);
      expect(timers.delays()).toEqual([1001]);
      expect(states).toEqual(['disconnected']);
    } finally {
      transport.close();
    }
  });

  it('fails a call that waited for a socket longer than the limit', async () => {
    const timers = new ManualTimers();
    const transport = createWebSocketTransport({
      url: await deadUrl(),
      createSocket: (url) => new WebSocket(url),
      timers,
      waitLimitMs: 30_000,
      retryDelay: () => 1000,
    });
    try {
      const call = transport.invoke('app:info', {});
      timers.fire(30_000);
      const result = await call;
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code).toBe('unavailable');
    } finally {
      transport.close();
    }
  });

  it('fails everything pending and refuses new calls once closed', async () => {
    const { host, transport, opened } = await setUp();
    await opened();
    const pending = transport.invoke('app:info', {});
    await host.receivedCount(1);
    transport.close();

    const results = [await pending, await transport.invoke('app:info', {})];
    for (const result of results) expect(!result.ok && result.error.code).toBe('unavailable');
    expect(transport.state).toBe('closed');
  });
});

describe('reconnectDelay', () => {
  it('doubles from half a second up to ten seconds, jittered between half and all of that', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((attempt) => reconnectDelay(attempt, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    expect(reconnectDelay(2, () => 0)).toBe(1000);
  });
});
