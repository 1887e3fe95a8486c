// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { BuildingFileStatuses } from '../../../../../shared/api/enums';
import { ROUTE_NAMES } from '../../../../../renderer/router';
import AttentionSummary from '../../../../../renderer/views/activity/AttentionSummary.vue';
import { useAttention } from '../../../../../renderer/views/activity/use-attention';
import { click, eventually } from '../../dom';
import { BUILDING, mountAt, releasePage, seedCache } from '../files/file-fixtures';

afterEach(releasePage);

const Summary = defineComponent(() => {
  const attention = useAttention();
  return () => h(AttentionSummary, { items: attention.items.value });
});

function items(): Array<[string | undefined, string]> {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="attention-item"]')].map((item) => [item.dataset['kind'], item.textContent?.replace(/\s+/g, ' ').trim() ?? '']);
}

describe('AttentionSummary', { timeout: 30_000 }, () => {
  it('lists a failed import under "Needs you" with its file, and leads to its building', async () => {
    const connection = await seedCache([], BuildingFileStatuses.UnknownImportFile);
    const { router } = await mountAt(connection, '/activity', { render: () => h(Summary) });
    await eventually(() => expect(items()).toEqual([['imports', '1The import of one file failed: upload a corrected version or delete it. school.ifcOpen its building']]));
    click('attention-go');
    await eventually(() => expect([router.currentRoute.value.name, router.currentRoute.value.params['buildingId']]).toEqual([ROUTE_NAMES.building, BUILDING]));
  });

  it('does not list a file whose import went through', async () => {
    const connection = await seedCache([], BuildingFileStatuses.Mapped);
    await mountAt(connection, '/activity', { render: () => h(Summary) });
    await eventually(() => expect(document.querySelector('[data-testid="attention-all-well"]')).not.toBeNull());
    expect(items()).toEqual([]);
  });
});
