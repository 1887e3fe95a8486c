/**
 * What the catalogue screen tests share: catalogue items to seed a cache with, and the app's router view mounted on a
 * connection whose server answers through the given handler (offline by default), inside the message and dialog
 * providers the pages use.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { expect, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { RouterView, type Router } from 'vue-router';
import { FinancialImportType, ProductType } from '../../../../../shared/api/enums';
import type { Material, Product } from '../../../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { OWN_DATABASE_STORAGE_PREFIX, useCataloguesStore } from '../../../../../renderer/stores/catalogues';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { mountedPage, testBridge } from '../../harness';
import { NO_ANSWER, remoteConnection } from '../../api-server';

const App = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(RouterView))));

/** A material with the given id and English name; other fields plausible. */
export function material(id: string, name: string, fields: Partial<Material> = {}): Material {
  return {
    id,
    name: { en: name },
    elementFamily: 'stone',
    description: {},
    supplier: null,
    specificWeight: 2000,
    lifeTime: null,
    circular: {
      recycledPercentageFeedstock: 0.1,
      rapidRenewablesPercentageFeedstock: 0,
      virginPercentageFeedstock: 0.9,
      recycledPercentageEndOfLife: 0.5,
      landfillPercentageEndOfLife: 0.5,
      incinerationPercentageEndOfLife: 0,
      efficiencyPercentageRecyclingFeedstock: 0.75,
      efficiencyPercentageRecyclingEndOfLife: 0.75,
    },
    financial: { importType: FinancialImportType.Manual, priceSetId: null, transportCosts: 0.01, handlingFeedstockEuroKg: 0, handlingFeedstockPercentage: 0.2 },
    ...fields,
  };
}

/** A product with the given id and English name. */
export function product(id: string, name: string, fields: Partial<Product> = {}): Product {
  const circular = Object.fromEntries(
    [
      'recycledPercentageFeedstock',
      'rapidRenewablesPercentageFeedstock',
      'virginPercentageFeedstock',
      'recycledPercentageEndOfLife',
      'landfillPercentageEndOfLife',
      'incinerationPercentageEndOfLife',
      'efficiencyPercentageRecyclingFeedstock',
      'efficiencyPercentageRecyclingEndOfLife',
      'technicalLifetime',
      'functionalLifetime',
      'productReusedPercentageFeedstock',
      'productRecycledPercentageFeedstock',
      'productRapidRenewablesPercentageFeedstock',
      'productVirginPercentageFeedstock',
      'productReusedPercentageEndOfLife',
      'productRecycledPercentageEndOfLife',
      'productLandfillPercentageEndOfLife',
      'productIncinerationPercentageEndOfLife',
    ].map((key) => [key, null]),
  ) as Product['circular'];
  return {
    id,
    name: { en: name },
    type: ProductType.QuantityProduct,
    description: {},
    supplier: null,
    productCode: null,
    circular,
    fixedDimensions: [],
    defaultDimensions: [],
    ...fields,
  };
}

/** A uuid-shaped id, numbered. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

const mounted = mountedPage();

/** Unmounts what `mountApp` mounted and stops its sync; call from `afterEach`. */
export function unmountApp(): void {
  mounted.release();
  document.body.innerHTML = '';
  localStorage.clear();
}

/** The account's own database as a test's connection last heard it, so the screens know it offline. */
export function rememberOwnDatabase(connectionId: string, ids: { materials?: string[]; products?: string[] }): void {
  const own = { id: uuid(999), name: 'Acme', materials: ids.materials ?? [], products: ids.products ?? [], checkedAt: '2026-01-01T00:00:00.000Z' };
  localStorage.setItem(OWN_DATABASE_STORAGE_PREFIX + connectionId, JSON.stringify(own));
}

/** Mounts the app's pages at `path` on the connection in `locale`; its API calls go to `handle` (no answer by default). */
export async function mountApp(connectionId: string, path: string, handle: (request: ApiRequest) => Promise<ApiAnswer> = async () => NO_ANSWER, locale: AppLocale = 'en') {
  const connection = remoteConnection(connectionId);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': handle,
  });
  const router: Router = createAppRouter();
  await router.push(path);
  const pinia = createPinia();
  const wrapper = mount(App, {
    global: { plugins: [pinia, createAppI18n(locale), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await settle(() => expect(sync.db).not.toBeNull());
  return { wrapper, router, sync, catalogues: useCataloguesStore(pinia), bridge };
}

/** Waits until `check` passes: what the pages show follows the cache and the server by a few turns. */
export function settle<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}

/** The element with a test id, or an error naming it. */
export function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T {
  const found = document.querySelector<T>(`[data-testid="${testId}"]`);
  if (found === null) throw new Error(`No ${testId}.`);
  return found;
}

/** Every element with a test id. */
export function allByTestId(testId: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`)];
}

/** The trimmed text of the element with a test id ('' when there is none). */
export function text(testId: string): string {
  return document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim() ?? '';
}

/** Types into an input as a user does: the value, then its input event. */
export async function type(input: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  input.value = value;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

/** Types into the input with a test id, once the page shows it. */
export async function typeInto(testId: string, value: string): Promise<void> {
  await type(await settle(() => byTestId<HTMLInputElement>(testId)), value);
}

/** Clicks the element with a test id, once the page shows it. */
export async function click(testId: string): Promise<void> {
  (await settle(() => byTestId(testId))).click();
  await flushPromises();
}
