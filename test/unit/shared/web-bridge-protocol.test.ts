import { describe, expect, it } from 'vitest';
import { bridgeHostMessageOf, bridgeInvokeOf, bridgeInvokeOfFrame, invokeFrameOf } from '../../../shared/web-bridge-protocol';

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

  it('sends a call with bytes as one binary frame, and reads it back with the bytes in their field', () => {
    const data = Uint8Array.from({ length: 300 }, (_, index) => index % 256);
    const message = { type: 'invoke' as const, id: 7, channel: 'uploads:write-spool' as const, request: { spoolId: 's-1', offset: 1024, data } };
    const frame = invokeFrameOf(message);
    expect(frame).toBeInstanceOf(Uint8Array);
    // The bytes travel as they are, after the header: no base64.
    expect((frame as Uint8Array).byteLength).toBeLessThan(data.byteLength + 200);
    const read = bridgeInvokeOfFrame(frame as Uint8Array);
    expect(read).toEqual({ type: 'invoke', id: 7, channel: 'uploads:write-spool', request: { spoolId: 's-1', offset: 1024, data } });

    expect(typeof invokeFrameOf({ type: 'invoke', id: 8, channel: 'app:info', request: {} })).toBe('string');
    expect(() => invokeFrameOf({ ...message, request: { data, more: data } })).toThrow();
  });

  it('refuses binary frames that are not a call: too short, a header longer than the frame, not JSON, no bytes field', () => {
    const header = (value: unknown): Uint8Array => {
      const text = new TextEncoder().encode(JSON.stringify(value));
      const frame = new Uint8Array(4 + text.byteLength + 2);
      new DataView(frame.buffer).setUint32(0, text.byteLength);
      frame.set(text, 4);
      return frame;
    };
    expect(bridgeInvokeOfFrame(new Uint8Array(3))).toBeUndefined();
    expect(bridgeInvokeOfFrame(Uint8Array.of(0, 0, 1, 0, 1, 2))).toBeUndefined();
    expect(bridgeInvokeOfFrame(Uint8Array.of(0, 0, 0, 2, 0x7b, 0x7b))).toBeUndefined();
    expect(bridgeInvokeOfFrame(header({ type: 'invoke', id: 1, channel: 'uploads:write-spool', request: {} }))).toBeUndefined();
    expect(bridgeInvokeOfFrame(header({ type: 'invoke', id: 1, channel: 'uploads:write-spool', request: { data: 1 }, bytesField: 'data' }))).toBeUndefined();
    expect(bridgeInvokeOfFrame(header({ type: 'invoke', id: 1, channel: 'uploads:write-spool', request: {}, bytesField: 'data' }))).toMatchObject({
      request: { data: Uint8Array.of(0, 0) },
    });
  });
});
