/** The renderer's Bridge: one named method per channel, built over whichever transport the host offers. */
import type { IpcResult } from './results';
import { IPC_CHANNELS, type IpcChannel, type IpcEvent, type IpcEventPayload, type IpcRequest, type IpcValue } from './contract';

type KebabToCamel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<KebabToCamel<Tail>>}` : S;
type Namespace<C extends string> = C extends `${infer N}:${string}` ? N : never;
type Action<C extends string> = C extends `${string}:${infer A}` ? KebabToCamel<A> : never;

/** The renderer's view of the host: `bridge.connections.list()`, `bridge.vault.hasKey({ connectionId })`, `bridge.on(…)`. */
export type Bridge = {
  [N in Namespace<IpcChannel>]: {
    [C in IpcChannel as Namespace<C> extends N ? Action<C> : never]: object extends IpcRequest<C>
      ? (request?: IpcRequest<C>) => Promise<IpcResult<IpcValue<C>>>
      : (request: IpcRequest<C>) => Promise<IpcResult<IpcValue<C>>>;
  };
} & {
  /** Listens to a host event; returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
};

/** How a host transport sends a call and delivers events; the Bridge is built on top of it. */
export interface BridgeTransport {
  invoke(channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>>;
  subscribe(listener: (event: IpcEvent, payload: unknown) => void): () => void;
}

function kebabToCamel(text: string): string {
  return text.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Splits `namespace:kebab-action` into the Bridge's namespace and method name. */
export function bridgeMethodOf(channel: IpcChannel): { namespace: string; method: string } {
  const [namespace = '', action = ''] = channel.split(':');
  return { namespace, method: kebabToCamel(action) };
}

/** Builds the named Bridge from a transport: one method per channel of the contract, and `on` for events. */
export function createBridge(transport: BridgeTransport): Bridge {
  const bridge: Record<string, unknown> = {};
  for (const channelName of IPC_CHANNELS) {
    const { namespace, method } = bridgeMethodOf(channelName);
    const methods = (bridge[namespace] ??= {}) as Record<string, unknown>;
    methods[method] = (request: unknown = {}) => transport.invoke(channelName, request);
  }
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  let unsubscribe: (() => void) | undefined;
  bridge['on'] = (event: IpcEvent, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    unsubscribe ??= transport.subscribe((name, payload) => {
      for (const each of listeners.get(name) ?? []) each(payload);
    });
    return () => {
      set.delete(listener);
    };
  };
  // The methods are built from the same table the type is computed from, so the shapes agree.
  return bridge as Bridge;
}
