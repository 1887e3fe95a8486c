// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createBridge } from '../../../shared/ipc';
import { SESSION_STORAGE_KEY, bridgeSocketUrl, connectBridge, takeSessionToken } from '../../../renderer/bridge';

function visit(address: string): void {
  window.history.replaceState(null, '', address);
}

afterEach(() => {
  window.sessionStorage.clear();
  delete window.bridge;
  delete window.droppedFiles;
  visit('/');
});

describe('takeSessionToken', () => {
  it('keeps the token of the address and removes it from the address bar, keeping the rest', () => {
    visit('/?session=s3cret&lang=nl#/connections');

    expect(takeSessionToken(window)).toBe('s3cret');
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBe('s3cret');
    expect(window.location.search).toBe('?lang=nl');
    expect(window.location.hash).toBe('#/connections');
  });

  it('uses the kept token after a reload without it', () => {
    visit('/?session=first');
    takeSessionToken(window);
    visit('/#/portfolios');

    expect(takeSessionToken(window)).toBe('first');
  });

  it('prefers a new token in the address over the kept one', () => {
    window.sessionStorage.setItem(SESSION_STORAGE_KEY, 'old');
    visit('/?session=new');

    expect(takeSessionToken(window)).toBe('new');
    expect(window.sessionStorage.getItem(SESSION_STORAGE_KEY)).toBe('new');
  });

  it('finds nothing without a token', () => {
    visit('/?session=');
    expect(takeSessionToken(window)).toBeUndefined();
  });
});

describe('bridgeSocketUrl', () => {
  it('speaks ws on http and wss on https, to the page host, with the token encoded', () => {
    expect(bridgeSocketUrl({ protocol: 'http:', host: '127.0.0.1:47600' }, 'a b&c')).toBe(
      'ws://127.0.0.1:47600/bridge?session=a%20b%26c',
    );
    expect(bridgeSocketUrl({ protocol: 'https:', host: 'desk.example.com' }, 't')).toBe('wss://desk.example.com/bridge?session=t');
  });
});

describe('connectBridge', () => {
  it('uses the Bridge the preload exposed, without looking for a token', () => {
    const exposed = createBridge({ invoke: async () => ({ ok: true, value: null }), subscribe: () => () => {} });
    window.bridge = exposed;
    visit('/?session=unused');

    const connection = connectBridge(window);

    expect(connection.kind === 'ready' && connection.handle.bridge).toBe(exposed);
    expect(connection.kind === 'ready' && connection.handle.link.value).toBe('open');
    expect(window.location.search).toBe('?session=unused');
  });

  it('takes the preload’s dropped files’ choices beside its Bridge, and has none in a browser', () => {
    window.bridge = createBridge({ invoke: async () => ({ ok: true, value: null }), subscribe: () => () => {} });
    const droppedFiles = { choicesOf: async () => ({ ok: true as const, value: [] }) };
    window.droppedFiles = droppedFiles;
    const connection = connectBridge(window);
    expect(connection.kind === 'ready' && connection.handle.droppedFiles).toBe(droppedFiles);
    delete window.bridge;
    visit('/?session=token');
    const browser = connectBridge(window);
    expect(browser.kind === 'ready' && browser.handle.droppedFiles).toBeUndefined();
  });

  it('reports that there is no session when there is neither a Bridge nor a token', () => {
    expect(connectBridge(window)).toEqual({ kind: 'no-session' });
  });
});
