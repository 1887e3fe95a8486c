/**
 * What the renderer tests share: a Bridge whose calls go through the hosts' real dispatch (so every request the
 * renderer sends is checked against the contract's schemas) to handlers each test writes, and an app context in
 * which stores find that Bridge.
 */
import type { VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { createApp, shallowRef } from 'vue';
import { dispatchBridgeCall, type BridgeHandlers } from '../../../electron/bridge-dispatch';
import { createBridge, type IpcEvent, type IpcEventPayload, type IpcRequest, type IpcChannel } from '../../../shared/ipc';
import { BRIDGE_KEY, type BridgeHandle } from '../../../renderer/bridge';
import { useSyncStore } from '../../../renderer/stores/sync';
import type { LinkState } from '../../../renderer/web-socket-transport';

/** A Bridge over in-memory handlers, the calls it carried, and a way to send host events. */
export interface TestBridge {
  handle: BridgeHandle;
  calls: Array<{ channel: IpcChannel; request: unknown }>;
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void;
  requestsOf<C extends IpcChannel>(channel: C): IpcRequest<C>[];
}

/** Builds a Bridge whose channels without a handler fail as the hosts fail an unexpected error. */
export function testBridge(handlers: Partial<BridgeHandlers>): TestBridge {
  const calls: TestBridge['calls'] = [];
  const listeners = new Set<(event: IpcEvent, payload: unknown) => void>();
  const all = new Proxy(handlers, {
    get: (target, channel: string) =>
      target[channel as IpcChannel] ??
      (() => {
        throw new Error(`No handler for ${channel} in this test.`);
      }),
  }) as BridgeHandlers;
  const bridge = createBridge({
    invoke: (channel, request) => {
      calls.push({ channel, request });
      return dispatchBridgeCall(all, channel, request, () => {});
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  return {
    handle: { bridge, link: shallowRef<LinkState>('open') },
    calls,
    emit: (event, payload) => {
      for (const listener of listeners) listener(event, payload);
    },
    requestsOf: <C extends IpcChannel>(channel: C) =>
      calls.filter((call) => call.channel === channel).map((call) => call.request as IpcRequest<C>),
  };
}

/** An app that provides the Bridge, with an active Pinia, so stores can be used outside components. */
export function storeContext(handle: BridgeHandle): Pinia {
  const app = createApp({ render: () => null });
  app.provide(BRIDGE_KEY, handle);
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  return pinia;
}

/** A promise with its resolve function outside, to answer a call when the test decides. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** The page a component test mounted, to release after the test. */
export interface MountedPage {
  /** Remembers the page mounted now. */
  keep(wrapper: VueWrapper, pinia: Pinia): void;
  /** Unmounts the page now (a test of what leaving it does); `release` still disposes its sync. */
  unmount(): void;
  /** Unmounts the page and disposes its sync store, which closes its cache and stops its timers; for `afterEach`. */
  release(): void;
}

/** Keeps the page a component test mounts, so that none of it outlives the test. */
export function mountedPage(): MountedPage {
  let current: { wrapper: VueWrapper; pinia: Pinia; unmounted: boolean } | undefined;
  return {
    keep(wrapper, pinia) {
      current = { wrapper, pinia, unmounted: false };
    },
    unmount() {
      if (current === undefined || current.unmounted) return;
      current.wrapper.unmount();
      current.unmounted = true;
    },
    release() {
      if (current !== undefined) {
        if (!current.unmounted) current.wrapper.unmount();
        useSyncStore(current.pinia).$dispose();
      }
      current = undefined;
    },
  };
}
