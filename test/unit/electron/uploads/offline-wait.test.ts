import { describe, expect, it } from 'vitest';
import { OfflineWaits, offlineDelayMs } from '../../../../electron/uploads/offline-wait';

describe('offlineDelayMs', () => {
  it('doubles from the base up to the ceiling, between half and all of it', () => {
    expect([1, 2, 3, 4, 10].map((failures) => offlineDelayMs(failures, 5_000, 300_000, () => 0.999999))).toEqual([5_000, 10_000, 20_000, 40_000, 300_000]);
    expect([1, 2, 3, 10].map((failures) => offlineDelayMs(failures, 5_000, 300_000, () => 0))).toEqual([2_500, 5_000, 10_000, 150_000]);
  });
});

describe('OfflineWaits', () => {
  it('ends the waits of a woken connection, and only of that one', async () => {
    const waits = new OfflineWaits();
    const never = new AbortController().signal;
    const ended: string[] = [];
    const first = waits.wait('a', 60_000, never, waits.wakeUps('a')).then(() => ended.push('a'));
    const other = waits.wait('b', 60_000, never, waits.wakeUps('b')).then(() => ended.push('b'));
    waits.wake('a');
    await first;
    expect(ended).toEqual(['a']);
    waits.wake('b');
    await other;
    expect(ended).toEqual(['a', 'b']);
  });

  it('does not wait at all when the connection was woken since the failure', async () => {
    const waits = new OfflineWaits(() => new Promise(() => undefined));
    const since = waits.wakeUps('a');
    waits.wake('a');
    await waits.wait('a', 60_000, new AbortController().signal, since);
    expect(waits.wakeUps('a')).toBe(since + 1);
  });

  it('ends a wait when its signal aborts', async () => {
    const waits = new OfflineWaits();
    const controller = new AbortController();
    const waiting = waits.wait('a', 60_000, controller.signal, 0);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
