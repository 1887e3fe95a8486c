/**
 * How the renderer reaches its host. In Electron the preload has put a ready Bridge on `window.bridge`; in a browser
 * the page builds one over a WebSocket to the browser host, authorised by the session token of the address it was
 * opened with. Stores take the Bridge with `useBridge()`; components never call it.
 */
import { inject, readonly, shallowRef, type InjectionKey, type Ref } from 'vue';
import type { DroppedFilesBridge } from '../shared/dropped-files';
import { createBridge, type Bridge } from '../shared/ipc';
import { BRIDGE_SOCKET_PATH, SESSION_PARAM } from '../shared/web-bridge-protocol';
import { httpSpoolPieceSender, type SpoolPieceSender } from './spool-pieces';
import { createWebSocketTransport, type LinkState } from './web-socket-transport';

declare global {
  interface Window {
    /** The Bridge the Electron preload exposes; absent in a browser. */
    bridge?: Bridge;
    /** The Electron preload's way to upload a File from where it is on disk; absent in a browser. */
    droppedFiles?: DroppedFilesBridge;
  }
}

/** The Bridge and the state of the link it runs over (always `open` in Electron). */
export interface BridgeHandle {
  bridge: Bridge;
  link: Readonly<Ref<LinkState>>;
  /** Electron's: Files of the page as the host's choices; a browser's page has none and spools a File's bytes. */
  droppedFiles?: DroppedFilesBridge;
  /** Browser mode's: a spool's bytes as PUTs to the host; Electron's page sends them as `uploads:write-spool` calls. */
  sendSpoolPiece?: SpoolPieceSender;
}

/** What the page found at start: a Bridge, or no way to reach the host (a browser without a session token). */
export type BridgeConnection = { kind: 'ready'; handle: BridgeHandle } | { kind: 'no-session' };

/** Where the session token is kept, so a reload of the tab still has it after the address bar dropped it. */
export const SESSION_STORAGE_KEY = 'circularity-desk:session';

/** The parts of `window` the session token lives in. */
export type SessionWindow = Pick<Window, 'location' | 'history' | 'sessionStorage'>;

/**
 * Takes the session token from the page's address, keeps it in sessionStorage and removes it from the address bar
 * (it is a credential, and would otherwise end up in bookmarks and screenshots); without one in the address, the kept
 * one is used.
 */
export function takeSessionToken(win: SessionWindow): string | undefined {
  const address = new URL(win.location.href);
  const fromAddress = address.searchParams.get(SESSION_PARAM);
  if (fromAddress !== null && fromAddress !== '') {
    try {
      win.sessionStorage.setItem(SESSION_STORAGE_KEY, fromAddress);
    } catch {
      // Storage can be disabled; the token still works for this page, only a reload loses it.
    }
    address.searchParams.delete(SESSION_PARAM);
    win.history.replaceState(win.history.state, '', `${address.pathname}${address.search}${address.hash}`);
    return fromAddress;
  }
  try {
    return win.sessionStorage.getItem(SESSION_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The address of the bridge socket on the page's own host: `ws(s)://<host>/bridge?session=<token>`. */
export function bridgeSocketUrl(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${BRIDGE_SOCKET_PATH}?${SESSION_PARAM}=${encodeURIComponent(token)}`;
}

/** Finds the host: the preload's Bridge when there is one, else a WebSocket Bridge with the page's session token. */
export function connectBridge(win: Window = window): BridgeConnection {
  if (win.bridge !== undefined) {
    const link = readonly(shallowRef<LinkState>('open'));
    return { kind: 'ready', handle: { bridge: win.bridge, link, ...(win.droppedFiles === undefined ? {} : { droppedFiles: win.droppedFiles }) } };
  }
  const token = takeSessionToken(win);
  if (token === undefined) return { kind: 'no-session' };
  const link = shallowRef<LinkState>('connecting');
  const transport = createWebSocketTransport({
    url: bridgeSocketUrl(win.location, token),
    onStateChange: (state) => {
      link.value = state;
    },
  });
  const sendSpoolPiece = httpSpoolPieceSender(win.location.origin, token);
  return { kind: 'ready', handle: { bridge: createBridge(transport), link: readonly(link), sendSpoolPiece } };
}

/** Where the app provides the Bridge handle. */
export const BRIDGE_KEY: InjectionKey<BridgeHandle> = Symbol('bridge');

function useBridgeHandle(): BridgeHandle {
  const handle = inject(BRIDGE_KEY, undefined);
  if (handle === undefined) throw new Error('No Bridge is provided: the app provides one at start.');
  return handle;
}

/** The Bridge, for stores. */
export function useBridge(): Bridge {
  return useBridgeHandle().bridge;
}

/** The preload's way to upload Files from disk, in Electron; undefined in a browser. */
export function useDroppedFiles(): DroppedFilesBridge | undefined {
  return useBridgeHandle().droppedFiles;
}

/** Browser mode's way to send a spool's bytes; undefined in Electron. */
export function useSpoolPieceSender(): SpoolPieceSender | undefined {
  return useBridgeHandle().sendSpoolPiece;
}

/** The state of the link to the host, for the shell's "reconnecting" notice. */
export function useBridgeLink(): Readonly<Ref<LinkState>> {
  return useBridgeHandle().link;
}
