// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { config } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse } from '../../../../../shared/api/schemas';
import { smallIfc } from '../../../../fixtures/small-ifc';
import { remoteConnection, startApiServer } from '../../api-server';
import { all, byTestId, click, eventually, type } from '../../dom';
import { mountAt, releasePage } from './file-fixtures';

// Transitions render as in the app (not as test-utils' stubs), so the drawer's focus trap finds the form in it.
beforeAll(() => {
  config.global.stubs = { ...config.global.stubs, transition: false };
});
afterEach(releasePage);

/** A file on a real server (with its worker) whose one wall names neither a phase nor a classification. */
async function wallWithInferredValues() {
  const server = await startApiServer({ worker: true });
  const { id: portfolioId } = await server.createPortfolio('Woningcorporatie');
  const { id: buildingId } = await server.createBuilding(portfolioId, 'School');
  const fileId = (await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 })).json.id;
  const model = smallIfc([{ entity: 'IFCWALL', name: 'Wall 1', material: 'Beton', body: 'box', size: [4, 0.2, 3], isExternal: true }]);
  await server.uploadSource(buildingId, fileId, 'school.ifc', Buffer.from(model, 'latin1'));
  const [wall] = (await server.request<BuildingFileElementResponse[]>('GET', `/buildings/${buildingId}/files/${fileId}/elements`)).json;
  if (wall?.classificationMatch === null || wall?.phaseMatch === null || wall === undefined) throw new Error('The server inferred no phase or classification.');
  return { server, buildingId, fileId, wall };
}

function cell(column: string): HTMLElement {
  const found = all('element-row')[0]?.querySelector<HTMLElement>(`[data-testid="element-cell-${column}"] .grid__text`);
  if (found === undefined || found === null) throw new Error(`No ${column} cell.`);
  return found;
}

describe('inferred values in the grid and the element form', { timeout: 60_000 }, () => {
  it('shows them as inferred in both, and a save of another field leaves them in the grid while the server refines', async () => {
    const { server, buildingId, fileId, wall } = await wallWithInferredValues();
    const classification = `${wall.classificationMatch?.code} ${wall.classificationMatch?.name}`;
    const { sync } = await mountAt(remoteConnection('inferred-values'), `/buildings/${buildingId}/files/${fileId}`, { handle: (request) => server.handle(request) });
    await eventually(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));

    // The grid: the values, each marked as the server's inference.
    await eventually(() => expect(cell('phase').textContent?.trim()).toBe('Existing (inferred)'));
    expect(cell('phase').dataset['inferred']).toBe('true');
    expect(cell('classification').textContent?.trim()).toBe(`${classification} (inferred)`);
    expect(cell('classification').dataset['inferred']).toBe('true');
    expect(cell('name').dataset['inferred']).toBeUndefined();

    // The form: the same values, as inferred, where its fields are empty.
    all('element-row')[0]?.querySelector<HTMLElement>('[data-testid="element-open"]')?.click();
    await eventually(() => expect(byTestId('element-form')).not.toBeNull());
    expect((byTestId('element-field-phaseLookup') as HTMLInputElement).placeholder).toBe('Existing (inferred)');
    expect(byTestId('element-inferred-phaseLookup')?.textContent).toBe('The element names no phase: the server assumes Existing.');
    expect(byTestId('element-field-classificationLookup-text')?.textContent).toBe(`${classification} (inferred)`);
    expect(byTestId('element-inferred-classificationLookup')?.textContent).toBe(`The element names no classification code: the server inferred ${classification}.`);

    // A save of the name: the server answers the element without its matches until it has refined the file again.
    const release = server.hold('startBuildingFileRefinement');
    await type('element-field-name', 'North wall');
    click('element-save');
    await eventually(() => expect(server.calls).toContain('replaceElement'));
    await eventually(() => expect(all('element-row')[0]?.querySelector('[data-testid="element-changed"]')).toBeNull());
    expect(cell('name').textContent?.trim()).toBe('North wall');
    expect(cell('phase').textContent?.trim()).toBe('Existing (inferred)');
    expect(cell('classification').textContent?.trim()).toBe(`${classification} (inferred)`);
    release();
  });
});
