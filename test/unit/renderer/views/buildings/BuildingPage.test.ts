// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { Router } from 'vue-router';
import { BuildingFileStatuses, BuildingFileType, BuildingLevel } from '../../../../../shared/api/enums';
import type { BuildingFileResponse, BuildingResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { applyServerBuildings, applyServerFiles, applyServerList, writeFileStatus } from '../../../../../renderer/db/apply-pull';
import { writeBuildingFigures } from '../../../../../renderer/db/building-figures';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { createBuilding } from '../../../../../renderer/db/edits';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter, ROUTE_NAMES } from '../../../../../renderer/router';
import { BUILDING_TIMING_KEY, type BuildingTiming } from '../../../../../renderer/stores/buildings';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import BuildingPage from '../../../../../renderer/views/buildings/BuildingPage.vue';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { NO_ANSWER, remoteConnection } from '../../api-server';
import { all, byTestId, click, eventually, text, type } from '../../dom';

const PORTFOLIO = '10000000-0000-4000-8000-000000000001';
const BUILDING = '20000000-0000-4000-8000-000000000002';
const MAPPED = '30000000-0000-4000-8000-000000000003';
const REFINING = '30000000-0000-4000-8000-000000000004';
const AT = '2026-01-01T10:00:00.000Z';
const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(BuildingPage))));

/** Rounds of the file status loop come quickly, but not in a busy loop. */
const fastTiming: BuildingTiming = {
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 5);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
  statusPollMs: 5,
  recalculationPollMs: 5,
  recalculationPolls: 3,
};

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

function building(fields: Partial<BuildingResponse> = {}): BuildingResponse {
  return {
    ...emptyBuilding(BUILDING, PORTFOLIO),
    name: 'Tower A',
    addressStreet: 'Keizersgracht',
    addressHousenumber: '12',
    addressCity: 'Amsterdam',
    expectedLifespanSkin: 20,
    ...fields,
  };
}

function file(id: string, fileName: string, status: number): BuildingFileResponse {
  return { id, buildingId: BUILDING, type: BuildingFileType.Source, status, isActive: true, isDirty: false, fileName, lastModifiedDate: AT } as BuildingFileResponse;
}

const validation = {
  percentageClassificationAssignedByNumber: 0.8,
  percentageClassificationAssignedByVolume: 0.9,
  percentageVolumeBaseQuantityAssignedByNumber: 1,
  percentageAreaBaseQuantityAssignedByNumber: 1,
  percentageLengthBaseQuantityAssignedByNumber: 0.5,
  percentageBaseQuantitiesAssignedByNumber: 0.5,
  percentageMaterialSpecifiedByNumber: 0.95,
  percentageMaterialSpecifiedByVolume: 0.97,
  percentageElementsWithKnownMassByNumber: 0.9,
  percentageElementsMappedByNumber: 0.75,
  percentageElementsMappedByVolume: 0.85,
};

/** The seeded cache of a connection whose server cannot be reached, and the page on it. */
async function seededPage(
  options: { building?: Partial<BuildingResponse>; figures?: boolean; files?: BuildingFileResponse[]; path?: string; seed?: (db: CacheDb) => Promise<void> } = {},
) {
  run += 1;
  const connection = remoteConnection(`building-page-${run}`);
  const db = new CacheDb(connection.id);
  await applyServerList(db, 'portfolios', [{ id: PORTFOLIO, name: 'Woningcorporatie', logo: null }]);
  await applyServerBuildings(db, [building(options.building)]);
  await applyServerFiles(db, BUILDING, options.files ?? [file(MAPPED, 'tower.ifc', BuildingFileStatuses.Mapped), file(REFINING, 'annex.ifc', BuildingFileStatuses.Refining)]);
  await writeFileStatus(db, BUILDING, { id: REFINING, status: BuildingFileStatuses.Refining, elementProcessedCount: 40, elementCount: 160, statusMessage: 'Refining elements' }, '2026-01-01T10:05:00.000Z');
  if (options.figures !== false) {
    await writeBuildingFigures(
      db,
      BUILDING,
      {
        circular: {
          circularityConstructionPhase: 0.62,
          circularityUsagePhase: 1.2,
          circularityEndOfLifePhase: 0.47,
          ciScoreBuilding: 0.49,
          correctionUnknownMaterials: 0.96,
          correctionUnknownBrandLayer: 1,
          madasterCiScore: 0.47,
        },
        financial: {
          currentValue: 1000,
          currentValuePerMaterialFamily: { metal: 800, wood: 200 },
          ncwValue: 700,
          ncwValuePerBuildingLevel: Object.values(BuildingLevel).map((level, index) => ({ id: level.id, label: level.label, value: index * 100 })),
        },
        validation,
      },
      AT,
    );
  }
  await options.seed?.(db);
  db.close();

  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': async () => NO_ANSWER,
  });
  const router = createAppRouter();
  await router.push(options.path ?? `/buildings/${BUILDING}`);
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle, [BUILDING_TIMING_KEY]: fastTiming } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(sync.db).not.toBeNull());
  return { wrapper, sync, bridge, router };
}

function operations(bridge: TestBridge): string[] {
  return bridge.requestsOf('api:request').map((request) => request.operationId);
}

async function routeName(router: Router): Promise<unknown> {
  await flushPromises();
  return router.currentRoute.value.name;
}

describe('the building dashboard', { timeout: 30_000 }, () => {
  it('puts a new building’s files first, and says that empty charts have nothing to show yet', async () => {
    await seededPage({
      files: [],
      seed: (db) =>
        writeBuildingFigures(
          db,
          BUILDING,
          {
            circular: {
              circularityConstructionPhase: null,
              circularityUsagePhase: null,
              circularityEndOfLifePhase: null,
              ciScoreBuilding: null,
              correctionUnknownMaterials: null,
              correctionUnknownBrandLayer: null,
              madasterCiScore: null,
            },
            financial: { currentValue: 0, currentValuePerMaterialFamily: {}, ncwValue: 0, ncwValuePerBuildingLevel: Object.values(BuildingLevel).map((level) => ({ id: level.id, label: level.label, value: 0 })) },
            validation,
          },
          AT,
        ),
    });
    await eventually(() => expect(byTestId('building-overview')?.dataset['filesFirst']).toBe('true'));
    expect(byTestId('building-overview')?.classList.contains('building-page__overview--files-first')).toBe(true);
    expect(text('financial-no-levels')).toBe('No building layer has a value yet.');
    expect(text('financial-no-families')).toBe('No material of this building has a value yet.');
    expect(byTestId('financial-level-chart')).toBeNull();
  });

  it('keeps the figures first once the building has files', async () => {
    await seededPage();
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    expect(byTestId('building-overview')?.dataset['filesFirst']).toBe('false');
  });

  it('shows the circularity index with its phases and corrections, the validation and the financial figures from the cache, offline', async () => {
    await seededPage();
    await eventually(() => expect(byTestId('ci-gauge')?.dataset['value']).toBe('47%'));
    expect(text('ci-building')).toBe('Before corrections: 49%');
    const phases = all('ci-phase').map((row) => [row.dataset['phase'], row.querySelector('[data-testid="ci-value"]')?.textContent?.trim()]);
    expect(phases).toEqual([
      ['construction', '62%'],
      ['usage', '1.20 × the average lifespan'],
      ['endOfLife', '47%'],
    ]);
    const corrections = all('ci-correction').map((row) => [row.dataset['correction'], row.querySelector('[data-testid="ci-value"]')?.textContent?.trim()]);
    expect(corrections).toEqual([
      ['unknownMaterials', '96%'],
      ['unknownBrandLayer', '100%'],
    ]);
    expect(byTestId('ci-gauge')?.querySelector('svg')).not.toBeNull();

    const rows = all('validation-row');
    expect(rows).toHaveLength(11);
    expect(rows[0]?.dataset['field']).toBe('percentageElementsMappedByNumber');
    expect(rows[0]?.textContent).toContain('Elements mapped (by number)');
    expect(rows[0]?.querySelector('[data-testid="validation-value"]')?.textContent).toBe('75%');

    expect(text('financial-current')).toBe('€1,000');
    expect(text('financial-ncw')).toBe('€700');
    expect(byTestId('financial-source')?.dataset['source']).toBe('cache');
    expect(byTestId('financial-family-chart')?.getAttribute('aria-label')).toBe('Metal: €800; Wood: €200');
    expect(byTestId('financial-level-chart')?.dataset['bars']).toBe('7');
    expect(byTestId('financial-level-chart')?.getAttribute('aria-label')).toContain('Space plan: €400');
    expect(byTestId('figures-stale')).toBeNull();
    expect(text('figures-fetched')).toContain('Figures fetched');
  });

  it('lists the files with their live status and the progress of the one the server is processing, and polls only that one', async () => {
    // The Mapped file's status (its summary of what counts) is read once when the page opens; only the busy one is polled.
    const { bridge, router } = await seededPage();
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    const [annex, tower] = all('file-row');
    expect(tower?.dataset['fileId']).toBe(MAPPED);
    expect(tower?.querySelector('[data-testid="file-row-status"]')?.textContent?.trim()).toBe('Mapped');
    expect(tower?.querySelector('[data-testid="file-progress"]')).toBeNull();
    expect(annex?.dataset['busy']).toBe('true');
    expect(annex?.querySelector('[data-testid="file-progress"]')?.textContent).toContain('40 of 160 elements');
    expect(annex?.querySelector('[data-testid="file-status-message"]')?.textContent).toBe('Refining elements');

    await eventually(() => expect(operations(bridge).filter((operation) => operation === 'getBuildingFileStatus').length).toBeGreaterThanOrEqual(3));
    const polled = bridge.requestsOf('api:request').filter((request) => request.operationId === 'getBuildingFileStatus').map((request) => request.params?.['fileId']);
    expect(polled.filter((fileId) => fileId === MAPPED)).toHaveLength(1);
    expect(polled.filter((fileId) => fileId === REFINING).length).toBeGreaterThanOrEqual(2);

    tower?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(await routeName(router)).toBe(ROUTE_NAMES.file);
  });

  it('says the figures were never fetched and that a sync brings them; fetching now says why it could not', async () => {
    await seededPage({ figures: false });
    await eventually(() => expect(byTestId('figures-empty')).not.toBeNull());
    expect(text('figures-empty')).toContain('A sync brings them');
    expect(byTestId('ci-card')).toBeNull();
    click('figures-fetch');
    await eventually(() => expect(text('figures-refusal')).toBe('The server could not be reached.'));
  });

  it('says the figures may be out of date while the server recalculates, and offers no second recalculation', async () => {
    await seededPage({ building: { isDirty: true } });
    await eventually(() => expect(byTestId('figures-stale')).not.toBeNull());
    expect(text('building-recalculating')).toContain('The server is recalculating');
    expect((byTestId('building-recalculate') as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks for a recalculation when elements changed since the last one', async () => {
    await seededPage({ building: { hasDirtyElements: true } });
    await eventually(() => expect(text('building-dirty-elements')).toContain('Recalculate to bring the figures up to date'));
  });

  it('says why the online actions could not run when the server cannot be reached', async () => {
    const { bridge } = await seededPage();
    await eventually(() => expect(byTestId('building-recalculate')).not.toBeNull());
    click('building-recalculate');
    await eventually(() => expect(text('building-action-refusal')).toBe('The server could not be reached.'));
    expect(operations(bridge)).toContain('processBuilding');

    click('building-passport');
    await eventually(() => expect(byTestId('passport-excel')).not.toBeNull());
    click('passport-excel');
    await eventually(() => expect(operations(bridge)).toContain('exportBuildingExcelPassport'));
    const passport = bridge.requestsOf('api:request').find((request) => request.operationId === 'exportBuildingExcelPassport');
    expect(passport?.headers).toEqual({ 'accept-language': 'en' });
    await eventually(() => expect(text('building-action-refusal')).toBe('The server could not be reached.'));
  });

  it('says a building created here is not on the server yet, and does not call it for online actions', async () => {
    let localId = '';
    const { bridge, router } = await seededPage({
      seed: async (db) => {
        localId = await createBuilding(db, PORTFOLIO, { name: 'Annex', addressCity: 'Delft' });
      },
    });
    await router.push(`/buildings/${encodeURIComponent(localId)}`);
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Annex'));
    expect(byTestId('building-not-on-server')).not.toBeNull();
    click('building-recalculate');
    await eventually(() => expect(text('building-action-refusal')).toContain('This building is not on the server yet.'));
    expect(operations(bridge)).not.toContain('processBuilding');
    click('building-tab-access');
    await eventually(() => expect(byTestId('access-not-on-server')).not.toBeNull());
  });

  it('shows every fact of the building and its images by name', async () => {
    await seededPage({ building: { images: ['front.jpg', 'roof.png'], mpgLabelIndicative: 0.83 } });
    await eventually(() => expect(byTestId('building-tab-details')).not.toBeNull());
    click('building-tab-details');
    await eventually(() => expect(byTestId('building-details-panel')).not.toBeNull());
    const fact = (field: string) => document.querySelector(`[data-testid="building-fact"][data-field="${field}"] dd`)?.textContent?.trim();
    await eventually(() => expect(fact('portfolioId')).toBe('Woningcorporatie'));
    expect(fact('addressStreet')).toBe('Keizersgracht');
    expect(fact('expectedLifespanSkin')).toBe('20 years');
    expect(fact('grossSurfaceArea')).toBe('—');
    expect(fact('mpgLabelIndicative')).toBe('0.83');
    expect(all('building-image').map((item) => item.textContent)).toEqual(['front.jpg', 'roof.png']);
    expect(text('building-images-hint')).toContain('offers no way to download them');
  });

  it('shows that the building is not in the cache', async () => {
    await seededPage({ path: '/buildings/40000000-0000-4000-8000-000000000009' });
    await eventually(() => expect(byTestId('building-not-found')).not.toBeNull());
  });
});

describe('editing a building', { timeout: 30_000 }, () => {
  it('refuses values as they are typed, and saves only the changed fields into the cache and the outbox, offline', async () => {
    const { sync } = await seededPage();
    await eventually(() => expect(byTestId('building-edit')).not.toBeNull());
    click('building-edit');
    await eventually(() => expect(byTestId('building-form')).not.toBeNull());
    const save = (): HTMLButtonElement => byTestId('building-save') as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    expect(all('building-form').length).toBe(1);
    expect(['identity', 'address', 'usage', 'lifespans', 'labels'].every((group) => byTestId(`building-group-${group}`) !== null)).toBe(true);

    await type('building-field-name', '  ');
    expect(byTestId('building-form')?.textContent).toContain('Required.');
    expect(save().disabled).toBe(true);
    await type('building-field-name', 'Tower B');
    await type('building-field-expectedLifespanStructure', '12.5');
    expect(byTestId('building-form')?.textContent).toContain('Must be a whole number.');
    expect(save().disabled).toBe(true);
    await type('building-field-expectedLifespanStructure', '120');
    await type('building-field-grossSurfaceArea', '-3');
    expect(byTestId('building-form')?.textContent).toContain('Must not be negative.');
    await type('building-field-grossSurfaceArea', '4250.5');
    await type('building-field-addressCity', '');
    expect(save().disabled).toBe(false);
    save().click();

    await eventually(async () => expect((await sync.db!.buildings.get(BUILDING))?.name).toBe('Tower B'));
    const stored = await sync.db!.buildings.get(BUILDING);
    expect(stored?.expectedLifespanStructure).toBe(120);
    expect(stored?.grossSurfaceArea).toBe(4250.5);
    expect(stored?.addressCity).toBeNull();
    expect(stored?.expectedLifespanSkin).toBe(20);
    expect(stored?.base?.name).toBe('Tower A');
    const entries = await sync.db!.outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['buildings', BUILDING, 'update']]);
    expect(entries[0]?.fields).toEqual({ name: 'Tower B', expectedLifespanStructure: 120, grossSurfaceArea: 4250.5, addressCity: null });
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Tower B'));
    expect(byTestId('building-pending')).not.toBeNull();
  });

  it('deletes the building once confirmed, into the outbox, and goes back to the portfolios', async () => {
    const { sync, router } = await seededPage();
    await eventually(() => expect(byTestId('building-delete')).not.toBeNull());
    click('building-delete');
    await eventually(() => expect(byTestId('building-delete-confirm')).not.toBeNull());
    expect(document.body.textContent).toContain('Delete Tower A?');
    click('building-delete-confirm');
    await eventually(async () => expect(await sync.db!.buildings.get(BUILDING)).toBeUndefined());
    const entries = await sync.db!.outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['buildings', BUILDING, 'delete']]);
    await eventually(() => expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.portfolios));
  });
});
