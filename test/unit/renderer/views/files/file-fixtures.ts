/**
 * What the tests of the file screens share: a cache holding a building with a source file and its elements (and
 * catalogue items to map them to), and the app's pages mounted on it inside the providers they use, for a connection
 * whose server answers through the given handler (no answer by default).
 */
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { expect, vi } from 'vitest';
import { defineComponent, h, type VNode } from 'vue';
import { RouterView } from 'vue-router';
import { BuildingFileStatuses, BuildingFileType } from '../../../../../shared/api/enums';
import type { BuildingFileElementResponse, BuildingFileResponse, Material, Product } from '../../../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest, Connection } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { applyServerBuildings, applyServerFiles, applyServerList, beginElementPull, finishElementPull, writeElementPage } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useConnectionsStore } from '../../../../../renderer/stores/connections';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { mountedPage, testBridge } from '../../harness';

export const PORTFOLIO = '10000000-0000-4000-8000-000000000001';
export const BUILDING = '20000000-0000-4000-8000-000000000002';
export const FILE = '30000000-0000-4000-8000-000000000003';
export const CONCRETE = '40000000-0000-4000-8000-000000000004';
export const STEEL = '40000000-0000-4000-8000-000000000005';
export const WINDOW = '50000000-0000-4000-8000-000000000006';
const AT = '2026-01-01T00:00:00.000Z';

/** A host's answer when the server cannot be reached. */
export const NO_ANSWER: ApiAnswer = { kind: 'network', reason: 'unreachable', message: 'Connection refused.' };

/** An element of the file, unmapped and without a building layer unless `fields` says otherwise. */
export function element(id: string, fields: Partial<BuildingFileElementResponse> = {}): BuildingFileElementResponse {
  return {
    id,
    buildingFileId: FILE,
    name: `Element ${id}`,
    materialName: null,
    typeName: null,
    elementClass: 'IfcWall',
    volume: 1,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    mapping: null,
    phaseMatch: null,
    brandLayerMatch: null,
    classificationMatch: null,
    phaseLookup: null,
    classificationLookup: null,
    floor: null,
    ...fields,
  };
}

function material(id: string, name: Material['name'], elementFamily: string): Material {
  return { id, name, elementFamily, description: {}, supplier: null, specificWeight: 2400, lifeTime: null } as Material;
}

/** The catalogue items of every test: two materials and a product. */
export const CATALOGUE = {
  materials: [material(CONCRETE, { nl: 'Beton', en: 'Concrete', de: 'Beton' }, 'stone'), material(STEEL, { nl: 'Staal', en: 'Steel' }, 'metal')],
  products: [{ id: WINDOW, name: { nl: 'Kozijn', en: 'Window frame' }, type: 30, description: {}, supplier: 'Acme', productCode: 'K-12' } as Product],
};

let run = 0;
const mounted = mountedPage();

/** Unmounts what `mountFilePage` mounted and stops its sync; call from `afterEach`. */
export function releasePage(): void {
  mounted.release();
  document.body.innerHTML = '';
}

/** A cache holding the building, its active source file (`status`, Mapped by default) with `elements`, and the catalogue. */
export async function seedCache(elements: readonly BuildingFileElementResponse[], status: number = BuildingFileStatuses.Mapped): Promise<Connection> {
  run += 1;
  const connection: Connection = { id: `file-screens-${run}`, name: 'Test', baseUrl: 'https://test.example.com', apiVersion: 'v2.3', kind: 'remote', hasKey: true };
  const db = new CacheDb(connection.id);
  await applyServerBuildings(db, [{ ...emptyBuilding(BUILDING, PORTFOLIO), name: 'School' }]);
  const file = { id: FILE, buildingId: BUILDING, type: BuildingFileType.Source, status, isActive: true, isDirty: false, fileName: 'school.ifc', lastModifiedDate: AT };
  await applyServerFiles(db, BUILDING, [file as BuildingFileResponse]);
  await applyServerList(db, 'materials', CATALOGUE.materials);
  await applyServerList(db, 'products', CATALOGUE.products);
  const cursor = await beginElementPull(
    db,
    { key: `elements:${FILE}`, kind: 'element-cursor', buildingId: BUILDING, fileId: FILE, stamp: AT, pageSize: 1000, nextSkip: elements.length, pagesDone: 1, expectedCount: elements.length, startedAt: AT },
    null,
  );
  await writeElementPage(db, cursor, elements, { phase: 'lists', collection: 'x' });
  await finishElementPull(db, cursor);
  db.close();
  return connection;
}

/** Mounts the app's pages at `path` on the connection (or `render`'s component there); its API calls go to `handle`. */
export async function mountAt(
  connection: Connection,
  path: string,
  options: { handle?: (request: ApiRequest) => Promise<ApiAnswer>; locale?: AppLocale; render?: () => VNode } = {},
) {
  const render = options.render ?? (() => h(RouterView));
  const App = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, render)));
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': options.handle ?? (async () => NO_ANSWER),
  });
  const router = createAppRouter();
  await router.push(path);
  const pinia = createPinia();
  const wrapper = mount(App, {
    global: { plugins: [pinia, createAppI18n(options.locale ?? 'en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  // Pages load the connections themselves; a component mounted alone does not.
  await wrapper.vm.$.appContext.app.runWithContext(() => useConnectionsStore(pinia).ensureLoaded());
  const sync = useSyncStore(pinia);
  await vi.waitFor(() => expect(sync.db).not.toBeNull(), { timeout: 10_000, interval: 20 });
  return { sync, bridge, router };
}
