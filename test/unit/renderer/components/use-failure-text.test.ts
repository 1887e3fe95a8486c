// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { ApiFailure } from '../../../../renderer/api/failure';
import { useFailureText, type FailureSource } from '../../../../renderer/components/use-failure-text';
import { createAppI18n } from '../../../../renderer/i18n';

/** The lines `useFailureText` gives a failure, in English. */
function linesOf(failure: ApiFailure, source: FailureSource): string[] {
  let lines: string[] = [];
  const Probe = defineComponent(() => {
    lines = useFailureText().failureLines(failure, source);
    return () => h('div');
  });
  mount(Probe, { global: { plugins: [createAppI18n('en')] } }).unmount();
  return lines;
}

const forbidden: ApiFailure = {
  kind: 'problem',
  status: 403,
  problem: { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Read only.', instance: '/x', errors: [{ path: 'name', message: 'Too long.' }], message: 'Read only.' },
};

describe('useFailureText', () => {
  it('words a refused key for a sync as a key to check, for an action as the level it lacks', () => {
    expect(linesOf(forbidden, 'sync')).toEqual([
      'Forbidden (403)',
      'Read only.',
      'name: Too long.',
      'Check the key of this connection: it may have expired or lack the rights for this.',
    ]);
    expect(linesOf(forbidden, 'building')).toEqual([
      'The key of this connection may not do this (403). Ask an administrator for a higher level.',
      'Read only.',
      'name: Too long.',
    ]);
  });

  it('words no answer by its reason for a sync, and as a server out of reach for an action', () => {
    const unreachable: ApiFailure = { kind: 'network', reason: 'unreachable', message: 'listPortfolios: ECONNREFUSED http://127.0.0.1:9' };
    expect(linesOf(unreachable, 'sync')).toEqual(['The server cannot be reached right now. Changes wait here and are sent once it can.']);
    expect(linesOf(unreachable, 'portfolio')).toEqual(['The server could not be reached.']);
    expect(linesOf({ kind: 'network', reason: 'invalid-response', message: 'x' }, 'building')).toEqual([
      'The server answered with something this app cannot read. Check the connection’s address.',
    ]);
  });

  it('says why an online action did not run, of a building or a portfolio', () => {
    expect(linesOf({ kind: 'not-on-server' }, 'building')[0]).toMatch(/^This building is not on the server yet\./);
    expect(linesOf({ kind: 'not-on-server' }, 'portfolio')[0]).toMatch(/^This portfolio is not on the server yet\./);
    expect(linesOf({ kind: 'offline' }, 'building')).toEqual(['You are offline. This needs the server: try again when you are online.']);
    expect(linesOf({ kind: 'no-connection' }, 'portfolio')).toEqual(['No connection is open.']);
    expect(linesOf({ kind: 'host', code: 'invalid-request', message: 'Only PNG and JPEG images can be added.' }, 'building')).toEqual([
      'The app could not do this: Only PNG and JPEG images can be added.',
    ]);
  });
});
