import { describe, expect, it } from 'vitest';
import { NOTICES_KEPT, useNoticesStore } from '../../../../renderer/stores/notices';
import { storeContext, testBridge } from '../harness';

describe('the notices store', () => {
  it('keeps the notices of the session newest first, up to its bound, and empties on clear without reusing ids', () => {
    const bridge = testBridge({});
    storeContext(bridge.handle);
    const store = useNoticesStore();

    for (let index = 1; index <= NOTICES_KEPT + 5; index += 1) {
      bridge.emit('notice', { kind: index % 2 === 0 ? 'error' : 'success', title: `Notice ${index}`, message: `Text ${index}` });
    }
    expect(store.notices).toHaveLength(NOTICES_KEPT);
    expect(store.notices[0]).toMatchObject({ kind: 'success', title: `Notice ${NOTICES_KEPT + 5}`, message: `Text ${NOTICES_KEPT + 5}` });
    expect(store.notices[0]?.at).toBeInstanceOf(Date);
    expect(store.notices.at(-1)?.title).toBe('Notice 6');

    const last = store.notices[0]!.id;
    store.clear();
    expect(store.notices).toEqual([]);
    bridge.emit('notice', { kind: 'info', title: 'After', message: '' });
    expect(store.notices.map((notice) => [notice.title, notice.id > last])).toEqual([['After', true]]);
  });
});
