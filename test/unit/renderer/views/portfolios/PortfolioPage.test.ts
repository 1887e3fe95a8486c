// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { RouterView, type Router } from 'vue-router';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { applyServerBuildings, applyServerList } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { isLocalId } from '../../../../../renderer/db/schema';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { NO_ANSWER, remoteConnection } from '../../api-server';
import { all, byTestId, click, eventually, text } from '../../dom';

const HOUSING = '10000000-0000-4000-8000-000000000001';
const EMPTY = '10000000-0000-4000-8000-000000000002';
const TOWER = '20000000-0000-4000-8000-000000000001';
const SCHOOL = '20000000-0000-4000-8000-000000000002';
const ELSEWHERE = '20000000-0000-4000-8000-000000000003';
const App = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(RouterView))));

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

function building(id: string, portfolioId: string, name: string): BuildingResponse {
  return { ...emptyBuilding(id, portfolioId), name };
}

/** A cache with two portfolios (one with two buildings, one empty), for a connection whose server cannot be reached. */
async function seededApp(path: string): Promise<{ bridge: TestBridge; router: Router; db: () => CacheDb }> {
  run += 1;
  const connection = remoteConnection(`portfolio-page-${run}`);
  const seed = new CacheDb(connection.id);
  await applyServerList(seed, 'portfolios', [
    { id: HOUSING, name: 'Woningcorporatie', logo: 'housing.png' },
    { id: EMPTY, name: 'Leeg', logo: null },
  ]);
  await applyServerBuildings(seed, [building(TOWER, HOUSING, 'Tower A'), building(SCHOOL, HOUSING, 'School'), building(ELSEWHERE, EMPTY + 'x', 'Elsewhere')]);
  seed.close();

  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': async () => NO_ANSWER,
  });
  const router = createAppRouter();
  await router.push(path);
  const pinia = createPinia();
  const wrapper = mount(App, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  return {
    bridge,
    router,
    db: () => {
      if (sync.db === null) throw new Error('No cache open.');
      return sync.db;
    },
  };
}

async function type(testId: string, value: string): Promise<HTMLInputElement> {
  const field = byTestId(testId) as HTMLInputElement | null;
  if (field === null) throw new Error(`No ${testId}.`);
  field.value = value;
  field.dispatchEvent(new Event('input'));
  field.dispatchEvent(new Event('blur'));
  await flushPromises();
  return field;
}

function apiCalls(bridge: TestBridge, operationId: string) {
  return bridge.requestsOf('api:request').filter((request) => request.operationId === operationId);
}

describe('the portfolios list and a portfolio’s page, from the cache', { timeout: 30_000 }, () => {
  it('creates a portfolio offline: refuses a blank name, writes the trimmed name with its outbox entry, and opens its page', async () => {
    const { router, db } = await seededApp('/portfolios');
    await eventually(() => expect(all('portfolio-card')).toHaveLength(2));
    click('portfolio-new');
    await eventually(() => expect(byTestId('portfolio-name-input')).not.toBeNull());

    click('portfolio-name-save');
    await eventually(() => expect(text('portfolio-name-form')).toContain('Required.'));
    await type('portfolio-name-input', '   ');
    click('portfolio-name-save');
    await flushPromises();
    expect(text('portfolio-name-form')).toContain('Required.');
    expect(await db().portfolios.count()).toBe(2);
    expect(await db().outbox.count()).toBe(0);

    await type('portfolio-name-input', '  Nieuwbouw  ');
    click('portfolio-name-save');
    await eventually(() => expect(router.currentRoute.value.name).toBe('portfolio'));
    const id = String(router.currentRoute.value.params['portfolioId']);
    expect(isLocalId(id)).toBe(true);
    expect((await db().portfolios.get(id))?.name).toBe('Nieuwbouw');
    const entries = await db().outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['portfolios', id, 'create']]);

    await eventually(() => expect(byTestId('portfolio-page')).not.toBeNull());
    expect(text('portfolio-not-on-server')).toContain('not on the server yet');
    expect(byTestId('portfolio-no-buildings')).not.toBeNull();
    click('portfolio-tab-access');
    await eventually(() => expect(byTestId('access-not-on-server')).not.toBeNull());
    expect(byTestId('access-panel')).toBeNull();
    click('portfolio-tab-logo');
    await eventually(() => expect(text('portfolio-logo-unavailable')).toContain('This portfolio is not on the server yet.'));
    expect((byTestId('portfolio-logo-input') as HTMLInputElement).disabled).toBe(true);
  });

  it('opens a portfolio from its card and lists its buildings only, searchable', async () => {
    const { router } = await seededApp('/portfolios');
    const link = await eventually(() => {
      const found = all('portfolio-link').find((each) => each.textContent?.includes('Woningcorporatie'));
      expect(found).toBeDefined();
      return found!;
    });
    link.click();
    await eventually(() => expect(router.currentRoute.value.params['portfolioId']).toBe(HOUSING));
    await eventually(() => expect(all('building-row')).toHaveLength(2));
    expect(text('portfolio-page')).toContain('2 buildings');
    expect(all('building-row').map((row) => row.dataset['buildingId'])).toEqual([SCHOOL, TOWER]);
    await type('building-search', 'tower');
    await eventually(() => expect(all('building-row').map((row) => row.dataset['buildingId'])).toEqual([TOWER]));
    await type('building-search', 'nothing like it');
    await eventually(() => expect(byTestId('building-no-match')).not.toBeNull());
  });

  it('renames in place: refuses a blank name, Escape leaves the name, and a save writes the row and its outbox entry', async () => {
    const { db } = await seededApp(`/portfolios/${HOUSING}`);
    await eventually(() => expect(byTestId('portfolio-rename')).not.toBeNull());
    click('portfolio-rename');
    const input = await eventually(() => {
      const found = byTestId('portfolio-name-input') as HTMLInputElement | null;
      expect(found?.value).toBe('Woningcorporatie');
      return found!;
    });
    await type('portfolio-name-input', ' ');
    click('portfolio-name-save');
    await eventually(() => expect(text('portfolio-name-form')).toContain('Required.'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await eventually(() => expect(byTestId('portfolio-name-form')).toBeNull());
    expect(await db().outbox.count()).toBe(0);

    click('portfolio-rename');
    await eventually(() => expect(byTestId('portfolio-name-input')).not.toBeNull());
    await type('portfolio-name-input', '  Woningen noord ');
    click('portfolio-name-save');
    await eventually(() => expect(document.querySelector('.page-header__title')?.textContent).toBe('Woningen noord'));
    expect((await db().portfolios.get(HOUSING))?.name).toBe('Woningen noord');
    const entries = await db().outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op, entry.fields])).toEqual([['portfolios', HOUSING, 'update', { name: 'Woningen noord' }]]);
    await eventually(() => expect(byTestId('portfolio-pending')).not.toBeNull());

    // A change the server refused: the page says so instead, with the way to Activity.
    await db().outbox.toCollection().modify({ state: 'parked' });
    await eventually(() => expect(byTestId('portfolio-parked')).not.toBeNull());
    expect(byTestId('portfolio-pending')).toBeNull();
    expect(byTestId('portfolio-parked')?.querySelector('a')?.getAttribute('href')).toBe('#/activity');
  });

  it('does not delete a portfolio that holds buildings, and says how many it holds', async () => {
    const { db } = await seededApp(`/portfolios/${HOUSING}`);
    await eventually(() => expect(all('building-row')).toHaveLength(2));
    click('portfolio-delete');
    await eventually(() => expect(byTestId('portfolio-delete-blocked')).not.toBeNull());
    expect(document.body.textContent).toContain('Woningcorporatie still holds buildings');
    expect(document.body.textContent).toContain('It holds 2 buildings.');
    expect(byTestId('portfolio-delete-confirm')).toBeNull();
    click('portfolio-delete-blocked');
    await flushPromises();
    expect(await db().portfolios.get(HOUSING)).toBeDefined();
    expect(await db().outbox.count()).toBe(0);
  });

  it('deletes an empty portfolio after confirmation: the row goes, a delete entry waits, and the list opens', async () => {
    const { router, db } = await seededApp(`/portfolios/${EMPTY}`);
    await eventually(() => expect(byTestId('portfolio-no-buildings')).not.toBeNull());
    click('portfolio-delete');
    await eventually(() => expect(byTestId('portfolio-delete-confirm')).not.toBeNull());
    expect(document.body.textContent).toContain('The portfolio holds no buildings.');
    click('portfolio-delete-confirm');
    await eventually(() => expect(router.currentRoute.value.name).toBe('portfolios'));
    expect(await db().portfolios.get(EMPTY)).toBeUndefined();
    const entries = await db().outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['portfolios', EMPTY, 'delete']]);
  });

  it('says offline that the databases and the passport need the server, and asks it nothing', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { bridge } = await seededApp(`/portfolios/${HOUSING}`);
    await eventually(() => expect(byTestId('portfolio-tab-databases')).not.toBeNull());
    click('portfolio-tab-databases');
    await eventually(() => expect(text('portfolio-databases-refusal')).toContain('You are offline. This needs the server'));

    click('portfolio-passport');
    await eventually(() => expect(byTestId('portfolio-passport-request')).not.toBeNull());
    click('portfolio-passport-request');
    await eventually(() => expect(text('portfolio-action-refusal')).toContain('You are offline.'));

    click('portfolio-tab-logo');
    await eventually(() => expect(text('portfolio-logo-unavailable')).toContain('You are offline.'));
    expect(text('portfolio-logo-name')).toBe('housing.png');
    click('portfolio-tab-access');
    await eventually(() => expect(text('access-refusal')).toContain('You are offline.'));
    expect(apiCalls(bridge, 'listPortfolioAvailableDatabases')).toEqual([]);
    expect(apiCalls(bridge, 'exportPortfolioPassport')).toEqual([]);
    expect(apiCalls(bridge, 'listPortfolioUsers')).toEqual([]);
  });

  it('says so when the server cannot be reached', async () => {
    const { bridge } = await seededApp(`/portfolios/${HOUSING}`);
    await eventually(() => expect(byTestId('portfolio-tab-databases')).not.toBeNull());
    click('portfolio-tab-databases');
    await eventually(() => expect(text('portfolio-databases-refusal')).toContain('The server could not be reached.'));
    expect(apiCalls(bridge, 'listPortfolioAvailableDatabases')[0]?.params).toEqual({ id: HOUSING });
  });

  it('says a portfolio that is not in the cache is not there', async () => {
    await seededApp('/portfolios/10000000-0000-4000-8000-00000000000f');
    await eventually(() => expect(byTestId('portfolio-not-found')).not.toBeNull());
  });
});
