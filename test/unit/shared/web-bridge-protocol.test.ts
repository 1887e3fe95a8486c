import { describe, expect, it } from 'vitest';
import { bridgeHostMessageOf, bridgeInvokeOf } from '../../../shared/web-bridge-protocol';

describe('the bridge socket messages', () => {
  it('reads a call of a known channel and nothing else', () => {
    expect(bridgeInvokeOf({ type: 'invoke', id: 3, channel: 'app:info', request: {} })).toEqual({
      type: 'invoke',
      id: 3,
      channel: 'app:info',
      request: {},
    });
    expect(bridgeInvokeOf({ type: 'invoke', id: 3, channel: 'constructor', request: {} })).toBeUndefined();
    expect(bridgeInvokeOf({ type: 'invoke', id: 1.5, channel: 'app:info' })).toBeUndefined();
    expect(bridgeInvokeOf({ type: 'result', id: 3, channel: 'app:info' })).toBeUndefined();
    expect(bridgeInvokeOf(null)).toBeUndefined();
    expect(bridgeInvokeOf([1])).toBeUndefined();
  });

  it('reads results and events from the host', () => {
    expect(bridgeHostMessageOf({ type: 'result', id: 1, result: { ok: true, value: 1 } })).toMatchObject({ type: 'result', id: 1 });
    expect(bridgeHostMessageOf({ type: 'event', event: 'http:activity', payload: {} })).toMatchObject({ type: 'event' });
    expect(bridgeHostMessageOf({ type: 'result', id: 1 })).toBeUndefined();
    expect(bridgeHostMessageOf('text')).toBeUndefined();
  });
});
