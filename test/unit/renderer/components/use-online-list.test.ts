import { describe, expect, it } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import type { ApiFailure } from '../../../../renderer/api/failure';
import { failed, succeeded, type ApiOutcome } from '../../../../renderer/api/outcome';
import { useOnlineList } from '../../../../renderer/components/use-online-list';

const unreachable: ApiFailure = { kind: 'network', reason: 'refused', message: 'connect ECONNREFUSED' };

/** The server's answers, handed out one read at a time, so the test sees the list while a read is on its way. */
function answers() {
  const reads: { key: string; answer: (outcome: ApiOutcome<string[]>) => void }[] = [];
  const key = ref('building-1');
  const read = (): Promise<ApiOutcome<string[]>> =>
    new Promise((resolve) => {
      reads.push({ key: key.value, answer: resolve });
    });
  return { key, read, reads };
}

async function settled(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await nextTick();
}

describe('useOnlineList', () => {
  it('reads at once, keeps a refusal until the next answer, and starts over for another key', async () => {
    const { key, read, reads } = answers();
    const scope = effectScope();
    const list = scope.run(() => useOnlineList(() => key.value, read));
    if (list === undefined) throw new Error('No list.');

    expect(list.loading.value).toBe(true);
    expect(list.items.value).toBeNull();
    reads[0]?.answer(failed(unreachable));
    await settled();
    expect(list.refusal.value).toEqual(unreachable);
    expect(list.loading.value).toBe(false);

    const retry = list.load();
    expect(list.loading.value).toBe(true);
    expect(list.refusal.value).toEqual(unreachable);
    reads[1]?.answer(succeeded(['Ann', 'Bob']));
    await retry;
    expect(list.refusal.value).toBeNull();
    expect(list.items.value).toEqual(['Ann', 'Bob']);

    key.value = 'building-2';
    await settled();
    expect(list.items.value).toBeNull();
    expect(reads.map((each) => each.key)).toEqual(['building-1', 'building-1', 'building-2']);
    reads[2]?.answer(succeeded([]));
    await settled();
    expect(list.items.value).toEqual([]);
    scope.stop();
  });

  it('drops the answer of a read that a later one overtook, such as the previous key\'s', async () => {
    const { key, read, reads } = answers();
    const scope = effectScope();
    const list = scope.run(() => useOnlineList(() => key.value, read));
    if (list === undefined) throw new Error('No list.');

    key.value = 'building-2';
    await settled();
    reads[1]?.answer(succeeded(['Cy']));
    await settled();
    reads[0]?.answer(succeeded(['Ann', 'Bob']));
    await settled();
    expect(list.items.value).toEqual(['Cy']);
    expect(list.loading.value).toBe(false);

    const retry = list.load();
    const again = list.load();
    reads[3]?.answer(succeeded(['Dee']));
    await again;
    expect(list.loading.value).toBe(false);
    reads[2]?.answer(failed(unreachable));
    await retry;
    expect(list.refusal.value).toBeNull();
    expect(list.items.value).toEqual(['Dee']);
    scope.stop();
  });
});
