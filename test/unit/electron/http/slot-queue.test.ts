import { describe, expect, it } from 'vitest';
import { SlotQueue, type QueueActivity, type ReleaseSlot } from '../../../../electron/http/slot-queue';

function recorded(limit: number): { queue: SlotQueue; seen: QueueActivity[] } {
  const seen: QueueActivity[] = [];
  return { queue: new SlotQueue(limit, (activity) => seen.push(activity)), seen };
}

async function granted(promise: Promise<ReleaseSlot | undefined>): Promise<ReleaseSlot> {
  const release = await promise;
  if (release === undefined) throw new Error('expected a slot');
  return release;
}

describe('SlotQueue', () => {
  it('hands out at most `limit` slots and the rest in order of arrival', async () => {
    const { queue } = recorded(2);
    const order: string[] = [];
    const first = await granted(queue.acquire());
    const second = await granted(queue.acquire());
    const waiting = ['c', 'd', 'e'].map((name) =>
      queue.acquire().then((release) => {
        order.push(name);
        return release;
      }),
    );
    await Promise.resolve();
    expect(queue.activity).toEqual({ queued: 3, running: 2 });
    expect(order).toEqual([]);

    first();
    const c = await granted(waiting[0]!);
    expect(order).toEqual(['c']);
    second();
    c();
    await Promise.all(waiting);
    expect(order).toEqual(['c', 'd', 'e']);
    expect(queue.activity).toEqual({ queued: 0, running: 2 });
  });

  it('reports every change of the counts', async () => {
    const { queue, seen } = recorded(1);
    const first = await granted(queue.acquire());
    const next = queue.acquire();
    first();
    (await granted(next))();
    expect(seen).toEqual([
      { queued: 0, running: 1 },
      { queued: 1, running: 1 },
      { queued: 0, running: 1 },
      { queued: 0, running: 0 },
    ]);
  });

  it('ignores a second release of the same slot', async () => {
    const { queue } = recorded(1);
    const release = await granted(queue.acquire());
    release();
    release();
    expect(queue.activity).toEqual({ queued: 0, running: 0 });
  });

  it('lets a waiter leave the queue when its signal aborts', async () => {
    const { queue } = recorded(1);
    const held = await granted(queue.acquire());
    const controller = new AbortController();
    const leaving = queue.acquire(controller.signal);
    const staying = queue.acquire();
    controller.abort();
    expect(await leaving).toBeUndefined();
    expect(queue.activity).toEqual({ queued: 1, running: 1 });
    held();
    expect(await staying).toBeTypeOf('function');
    expect(await queue.acquire(AbortSignal.abort())).toBeUndefined();
  });

  it('refuses waiters and newcomers once closed, and is idle when the last slot comes back', async () => {
    const { queue } = recorded(1);
    const held = await granted(queue.acquire());
    const waiting = queue.acquire();
    queue.close();
    expect(await waiting).toBeUndefined();
    expect(await queue.acquire()).toBeUndefined();

    let idle = false;
    const idlePromise = queue.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    held();
    await idlePromise;
    expect(idle).toBe(true);
    expect(queue.activity).toEqual({ queued: 0, running: 0 });
  });

  it('needs at least one slot', () => {
    expect(() => new SlotQueue(0)).toThrow(RangeError);
    expect(() => new SlotQueue(1.5)).toThrow(RangeError);
  });
});
