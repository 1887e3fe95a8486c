// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BuildingFileElementResponse, BuildingFileResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { applyServerBuildings, applyServerFiles, beginElementPull, finishElementPull, writeElementPage } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { elementKey } from '../../../../../renderer/db/schema';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import FilePage from '../../../../../renderer/views/files/FilePage.vue';
import { mountedPage, testBridge } from '../../harness';
import { NO_ANSWER, remoteConnection } from '../../api-server';
import { elementsByIds } from '../../../../../renderer/db/reads';

const BUILDING = '11111111-1111-4111-8111-111111111111';
const FILE = '22222222-2222-4222-8222-222222222222';
const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(FilePage))));

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

function element(index: number): BuildingFileElementResponse {
  return {
    id: `E${String(index).padStart(4, '0')}`,
    buildingFileId: FILE,
    name: `Wall ${index}`,
    materialName: 'Beton',
    typeName: null,
    elementClass: 'IfcWall',
    volume: 1.5,
    area: 4,
    height: 2.7,
    width: 0.2,
    length: 3,
    weight: null,
    mapping: null,
    phaseMatch: null,
    brandLayerMatch: null,
    classificationMatch: null,
    phaseLookup: null,
    classificationLookup: null,
    floor: '00',
  };
}

/** A cache holding a Mapped file of `count` elements, for a connection whose server cannot be reached. */
async function seededPage(count: number) {
  run += 1;
  const connection = remoteConnection(`file-page-${run}`);
  const db = new CacheDb(connection.id);
  await applyServerBuildings(db, [{ id: BUILDING, portfolioId: BUILDING, name: 'School' } as never]);
  const file = { id: FILE, buildingId: BUILDING, type: 0, status: 3, isActive: true, isDirty: false, fileName: 'school.ifc', lastModifiedDate: '2026-01-01T00:00:00.000Z' };
  await applyServerFiles(db, BUILDING, [file as BuildingFileResponse]);
  const start = { key: `elements:${FILE}` as const, kind: 'element-cursor' as const, buildingId: BUILDING, fileId: FILE, stamp: file.lastModifiedDate, pageSize: count, nextSkip: count, pagesDone: 1, expectedCount: count, startedAt: file.lastModifiedDate };
  const cursor = await beginElementPull(db, start, null);
  await writeElementPage(db, cursor, Array.from({ length: count }, (_, index) => element(index)), { phase: 'lists', collection: 'x' });
  await finishElementPull(db, cursor);
  db.close();

  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': async () => NO_ANSWER,
  });
  const router = createAppRouter();
  await router.push(`/buildings/${BUILDING}/files/${FILE}`);
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  return { wrapper, sync: useSyncStore(pinia) };
}

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="element-row"]')];
}

/** The rows once each shows its element (a row shows a placeholder until the cache answered for it). */
async function filledRows(count: number): Promise<HTMLElement[]> {
  await vi.waitFor(() => {
    expect(rows()).toHaveLength(count);
    expect(rows().every((row) => row.querySelector('[data-testid="element-open"]') !== null)).toBe(true);
  });
  return rows();
}

function input(testId: string): HTMLInputElement {
  const found = document.querySelector<HTMLInputElement>(`[data-testid="${testId}"]`);
  if (found === null) throw new Error(`No ${testId}.`);
  return found;
}

async function type(testId: string, value: string): Promise<void> {
  const field = input(testId);
  field.value = value;
  field.dispatchEvent(new Event('input'));
  field.dispatchEvent(new Event('blur'));
  await flushPromises();
}

function text(testId: string): string {
  return document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim() ?? '';
}

function click(testId: string): void {
  const found = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (found === null) throw new Error(`No ${testId}.`);
  found.click();
}

describe('the file page', () => {
  it('renders only the rows in view, whatever the number of elements', async () => {
    await seededPage(1200);
    // Counting 1,200 cached elements in fake-indexeddb takes over a second on a loaded machine.
    await vi.waitFor(() => expect(text('element-view-count')).toBe('1,200 of 1,200 elements'), { timeout: 10_000 });
    await vi.waitFor(() => expect(rows().length).toBeGreaterThan(10), { timeout: 10_000 });
    expect(rows().length).toBeLessThan(100);
    expect(rows()[0]?.dataset['elementId']).toBe('E0000');
  });

  it('filters and sorts the view', async () => {
    await seededPage(20);
    await vi.waitFor(() => expect(rows()).toHaveLength(20));
    await type('element-quick-filter', 'wall 1');
    await vi.waitFor(() => expect(text('element-view-count')).toBe('11 of 20 elements'));
    click('grid-header-name');
    await vi.waitFor(() => expect(rows().map((row) => row.dataset['elementId'])).toEqual(['E0001', ...Array.from({ length: 10 }, (_, index) => `E${String(10 + index).padStart(4, '0')}`)]));
    click('grid-header-name');
    await vi.waitFor(() => expect(rows()[0]?.dataset['elementId']).toBe('E0019'));
  });

  it('says when the filters leave out every element, and clears them on request', async () => {
    await seededPage(20);
    await vi.waitFor(() => expect(rows()).toHaveLength(20));
    expect(document.querySelector('[data-testid="element-no-match"]')).toBeNull();
    await type('element-quick-filter', 'no such element anywhere');
    await vi.waitFor(() => expect(text('element-no-match')).toContain('No element matches the filters; the file has 20.'));
    click('element-clear-filters');
    await vi.waitFor(() => expect(rows()).toHaveLength(20));
    expect(document.querySelector('[data-testid="element-no-match"]')).toBeNull();
    expect((document.querySelector('[data-testid="element-quick-filter"]') as HTMLInputElement).value).toBe('');
  });

  it('edits a cell in place, refusing a negative quantity', async () => {
    const { sync } = await seededPage(3);
    const cell = (await filledRows(3))[2]?.querySelector<HTMLElement>('[data-testid="element-cell-volume"]');
    cell?.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="element-inline-input"]')).not.toBeNull());
    const editor = input('element-inline-input');
    editor.value = '-1';
    editor.dispatchEvent(new Event('input'));
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flushPromises();
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    editor.value = '2,5';
    editor.dispatchEvent(new Event('input'));
    editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await vi.waitFor(async () => expect((await elementsByIds(sync.db!, FILE, ['E0002']))[0]?.volume).toBe(2.5));
  });

  it('changes the selected elements together, in one outbox entry each', async () => {
    const { sync } = await seededPage(5);
    await vi.waitFor(() => expect(rows()).toHaveLength(5));
    for (const row of rows().slice(1, 4)) row.querySelector<HTMLElement>('[data-testid="element-select"]')?.click();
    await vi.waitFor(() => expect(text('element-selected-count')).toBe('3 selected'));
    click('element-bulk-edit');
    await vi.waitFor(() => expect(document.querySelector('[data-testid="bulk-edit-form"]')).not.toBeNull());
    await type('bulk-field-floor', '01');
    click('bulk-apply');
    await vi.waitFor(async () => expect((await sync.db!.outbox.toArray()).map((entry) => entry.key)).toEqual(['E0001', 'E0002', 'E0003'].map((id) => elementKey(FILE, id))));
    const floors = (await elementsByIds(sync.db!, FILE, ['E0000', 'E0001', 'E0002', 'E0003', 'E0004'])).map((row) => [row?.id, row?.floor]);
    expect(floors).toEqual([['E0000', '00'], ['E0001', '01'], ['E0002', '01'], ['E0003', '01'], ['E0004', '00']]);
  });

  it('saves only the changed fields of an element, into the cache and its outbox, offline', async () => {
    const { sync } = await seededPage(3);
    (await filledRows(3))[1]?.querySelector<HTMLElement>('[data-testid="element-open"]')?.click();
    await vi.waitFor(() => expect(document.querySelector('[data-testid="element-form"]')).not.toBeNull());
    const save = (): HTMLButtonElement => document.querySelector<HTMLButtonElement>('[data-testid="element-save"]')!;
    expect(save().disabled).toBe(true);

    await type('element-field-volume', '-2');
    expect(document.body.textContent).toContain('Must not be negative.');
    expect(save().disabled).toBe(true);
    await type('element-field-volume', '1.5');
    await type('element-field-name', 'Wall checked on site');
    expect(save().disabled).toBe(false);
    save().click();

    await vi.waitFor(async () => expect((await elementsByIds(sync.db!, FILE, ['E0001']))[0]?.name).toBe('Wall checked on site'));
    const [stored] = await elementsByIds(sync.db!, FILE, ['E0001']);
    expect(stored?.volume).toBe(1.5);
    expect(stored?.base?.name).toBe('Wall 1');
    const entries = await sync.db!.outbox.toArray();
    expect(entries.map((entry) => [entry.entity, entry.key, entry.op])).toEqual([['elements', elementKey(FILE, 'E0001'), 'update']]);
    await vi.waitFor(() => expect(rows()[1]?.querySelector('[data-testid="element-changed"]')).not.toBeNull());
  });
});
