// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { applyServerBuildings, applyServerList } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { isLocalId } from '../../../../../renderer/db/schema';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter, ROUTE_NAMES } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import PortfoliosPage from '../../../../../renderer/views/portfolios/PortfoliosPage.vue';
import { mountedPage, testBridge } from '../../harness';
import { NO_ANSWER, remoteConnection } from '../../api-server';
import { byTestId, eventually, type } from '../../dom';

const NOORD = '10000000-0000-4000-8000-000000000001';
const ZUID = '10000000-0000-4000-8000-000000000002';
const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(PortfoliosPage))));

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

function building(id: string, portfolioId: string, fields: Partial<BuildingResponse>): BuildingResponse {
  return { ...emptyBuilding(`20000000-0000-4000-8000-00000000000${id}`, portfolioId), ...fields };
}

async function seededPage() {
  run += 1;
  const connection = remoteConnection(`building-list-${run}`);
  const db = new CacheDb(connection.id);
  await applyServerList(db, 'portfolios', [
    { id: NOORD, name: 'Noord', logo: null },
    { id: ZUID, name: 'Zuid', logo: null },
  ]);
  await applyServerBuildings(db, [
    building('1', NOORD, { name: 'Tower A', addressCity: 'Amsterdam', grossSurfaceArea: 5000 }),
    building('2', NOORD, { name: 'School', addressCity: 'Zaandam', grossSurfaceArea: 900 }),
    building('3', NOORD, { name: 'Depot', addressCity: 'Amstelveen', grossSurfaceArea: 2500 }),
    building('4', ZUID, { name: 'Clinic', addressCity: 'Maastricht', grossSurfaceArea: 1500 }),
  ]);
  db.close();
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': async () => NO_ANSWER,
  });
  const router = createAppRouter();
  await router.push('/portfolios');
  const pinia = createPinia();
  const wrapper = mount(Page, {
    // Transitions render as in the app (not as test-utils' stubs), so the drawer's focus trap finds the form in it.
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle }, stubs: { transition: false } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(document.querySelectorAll('[data-testid="building-row"]')).toHaveLength(4));
  return { wrapper, sync, router };
}

/** The names of the building rows per portfolio card, in order. */
function shown(): string[][] {
  return [...document.querySelectorAll('[data-testid="portfolio-card"]')].map((card) =>
    [...card.querySelectorAll('[data-testid="building-link"]')].map((link) => link.textContent?.trim() ?? ''),
  );
}

describe('the building lists', { timeout: 30_000 }, () => {
  it('are searched by name or address, leaving out portfolios without a match, and say when nothing matches', async () => {
    await seededPage();
    expect(shown()).toEqual([['Depot', 'School', 'Tower A'], ['Clinic']]);
    await type('building-search', 'ams');
    await eventually(() => expect(shown()).toEqual([['Depot', 'Tower A']]));
    await type('building-search', 'tower amsterdam');
    await eventually(() => expect(shown()).toEqual([['Tower A']]));
    await type('building-search', 'nowhere');
    await eventually(() => expect(byTestId('building-no-match')).not.toBeNull());
    expect(shown()).toEqual([]);
    await type('building-search', '');
    await eventually(() => expect(shown()).toEqual([['Depot', 'School', 'Tower A'], ['Clinic']]));
  });

  it('are sorted by the chosen column, either way', async () => {
    await seededPage();
    byTestId('building-sort')?.querySelector<HTMLElement>('.n-base-selection')?.click();
    await eventually(() => expect(document.querySelectorAll('.n-base-select-option').length).toBe(6));
    const option = [...document.querySelectorAll<HTMLElement>('.n-base-select-option')].find((item) => item.textContent?.trim() === 'Gross floor area');
    option?.click();
    await eventually(() => expect(shown()).toEqual([['School', 'Depot', 'Tower A'], ['Clinic']]));
    byTestId('building-sort-direction')?.click();
    await eventually(() => expect(shown()).toEqual([['Tower A', 'Depot', 'School'], ['Clinic']]));
    expect(byTestId('building-sort-direction')?.dataset['descending']).toBe('true');
  });

  it('gain a new building of a portfolio, in the cache and the outbox, offline, which then opens', async () => {
    const { sync, router } = await seededPage();
    const zuid = document.querySelector<HTMLElement>(`[data-testid="portfolio-card"][data-portfolio-id="${ZUID}"]`);
    zuid?.querySelector<HTMLElement>('[data-testid="building-new"]')?.click();
    await eventually(() => expect(byTestId('building-form')).not.toBeNull());
    const save = (): HTMLButtonElement => byTestId('building-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    await eventually(() => expect(document.activeElement).toBe(byTestId('building-field-name')));
    expect(byTestId('building-form')?.querySelector('.n-form-item-feedback--error')).toBeNull();
    expect(byTestId('building-form')?.textContent).not.toContain('Required.');
    await type('building-field-name', '');
    expect(byTestId('building-form')?.textContent).toContain('Required.');
    await type('building-field-name', 'Annex');
    await type('building-field-grossSurfaceArea', '320');
    await type('building-field-expectedLifespanStuff', '-1');
    expect(save().disabled).toBe(true);
    await type('building-field-expectedLifespanStuff', '8');
    save().click();

    await eventually(() => expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.building));
    const id = String(router.currentRoute.value.params['buildingId']);
    expect(isLocalId(id)).toBe(true);
    const stored = await sync.db!.buildings.get(id);
    expect(stored).toMatchObject({ name: 'Annex', portfolioId: ZUID, grossSurfaceArea: 320, expectedLifespanStuff: 8, addressCity: null });
    const entries = await sync.db!.outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['buildings', id, 'create']]);
  });
});
