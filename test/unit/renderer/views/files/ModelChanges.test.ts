// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiAnswer } from '../../../../../shared/ipc';
import type { BuildingFileElementResponse } from '../../../../../shared/api/schemas';
import { elementsByIds } from '../../../../../renderer/db/reads';
import { smallIfc, type SmallIfcElement } from '../../../../fixtures/small-ifc';
import { problem, remoteConnection, startApiServer, type ApiServer } from '../../api-server';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, CONCRETE, element, FILE, mountAt, releasePage, seedCache, STEEL } from './file-fixtures';

afterEach(releasePage);

/** The small model's walls; `changes` replaces some of them (by name) in a later version. */
function model(changes: Record<string, Partial<SmallIfcElement>> = {}): Buffer {
  const walls: SmallIfcElement[] = [
    { entity: 'IFCWALL', name: 'Wall 1', material: 'Beton', body: 'box', size: [4, 0.2, 3], isExternal: true },
    { entity: 'IFCWALL', name: 'Wall 2', material: 'Beton', body: 'box', size: [5, 0.2, 3], isExternal: true },
  ];
  return Buffer.from(smallIfc(walls.map((wall) => ({ ...wall, ...changes[wall.name] }))), 'latin1');
}

/** A file on a real server whose second version changed a wall's name and material after a user edited both. */
async function changedAfterEdits(): Promise<{ server: ApiServer; buildingId: string; fileId: string; wallId: string }> {
  const server = await startApiServer({ worker: true });
  const { id: portfolioId } = await server.createPortfolio('Woningcorporatie');
  const { id: buildingId } = await server.createBuilding(portfolioId, 'School');
  const fileId = (await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 })).json.id;
  const file = `/buildings/${buildingId}/files/${fileId}`;
  await server.uploadSource(buildingId, fileId, 'school.ifc', model());
  const elements = (await server.request<BuildingFileElementResponse[]>('GET', `${file}/elements`)).json;
  const wallId = elements.find((each) => each.name === 'Wall 1')?.id;
  if (wallId === undefined) throw new Error('No Wall 1 in the model.');
  expect((await server.request('POST', `${file}/setimporting`)).status).toBe(204);
  expect((await server.request('PUT', `${file}/elements/${wallId}`, { id: wallId, name: 'North wall', materialName: 'Unobtainium' })).status).toBe(200);
  expect((await server.request('POST', `${file}/startrefinement`)).status).toBe(202);
  await eventually(async () => expect((await server.request<{ status: number }>('GET', `${file}/status`)).json.status).toBe(3));
  await server.uploadSource(buildingId, fileId, 'school.ifc', model({ 'Wall 1': { name: 'Wall 1 renamed', material: 'Baksteen' } }));
  return { server, buildingId, fileId, wallId };
}

function rows(): Array<[string, string]> {
  return all('model-change').map((row) => [row.dataset['elementId'] ?? '', row.dataset['field'] ?? '']);
}

const NOT_FOUND: ApiAnswer = problem(404, 'Not Found', 'Route GET:/api/v2.3/buildings/…/modelchanges not found');

describe('what the model changed after the user’s edits', { timeout: 60_000 }, () => {
  it('lists each change with both values; take the model’s and keep mine resolve them, and the elements are synced again', async () => {
    const { server, buildingId, fileId, wallId } = await changedAfterEdits();
    const { sync, bridge } = await mountAt(remoteConnection('model-changes-1'), `/buildings/${buildingId}/files/${fileId}/report`, {
      handle: (request) => server.handle(request),
    });
    await eventually(() => expect(rows()).toEqual([[wallId, 'name'], [wallId, 'materialName']]));
    await eventually(async () => expect((await elementsByIds(sync.db!, fileId, [wallId]))[0]).toMatchObject({ name: 'North wall', materialName: 'Unobtainium' }));
    const [name, material] = all('model-change');
    expect(name?.querySelector('[data-testid="model-change-mine"]')?.textContent?.trim()).toBe('North wall');
    expect(name?.querySelector('[data-testid="model-change-model"]')?.textContent).toContain('Wall 1 renamed');
    expect(name?.querySelector('[data-testid="model-change-model"]')?.textContent).toContain('was Wall 1 when edited');
    expect(material?.textContent).toContain('Unobtainium');
    expect(material?.textContent).toContain('Baksteen');

    // A refusal says why and changes nothing.
    server.overrides.set('resolveBuildingFileModelChanges', () => problem(409, 'Conflict', 'Changes of the model are resolved once the file is Mapped.'));
    material?.querySelector<HTMLElement>('[data-testid="take-model"]')?.click();
    await eventually(() => expect(text('model-changes-action-refusal')).toContain('The choice was not made.'));
    expect(rows()).toHaveLength(2);
    server.overrides.delete('resolveBuildingFileModelChanges');

    material?.querySelector<HTMLElement>('[data-testid="take-model"]')?.click();
    await eventually(() => expect(rows()).toEqual([[wallId, 'name']]));
    const sent = bridge.requestsOf('api:request').filter((request) => request.operationId === 'resolveBuildingFileModelChanges');
    expect(sent.at(-1)?.body).toEqual([{ elementId: wallId, field: 'materialName', keep: 'model' }]);
    // The server moved the file: the sync reads its elements again, with the model's material.
    await eventually(async () => expect((await elementsByIds(sync.db!, fileId, [wallId]))[0]).toMatchObject({ name: 'North wall', materialName: 'Baksteen' }));

    click('keep-mine-all');
    await eventually(() => expect(byTestId('model-changes-none')).not.toBeNull());
    expect(rows()).toEqual([]);
    expect((await server.request<BuildingFileElementResponse>('GET', `/buildings/${buildingId}/files/${fileId}/elements/${wallId}`)).json).toMatchObject({
      name: 'North wall',
      materialName: 'Baksteen',
    });
    expect((await server.request<{ changes: unknown[] }>('GET', `/buildings/${buildingId}/files/${fileId}/modelchanges`)).json.changes).toEqual([]);
  });

  it('names the items of a changed mapping, marking a name shown in another language for want of one in the user’s', async () => {
    const connection = await seedCache([element('E1')]);
    const changes = {
      buildingFileId: FILE,
      changes: [{ elementId: 'E1', elementName: 'Wall 1', field: 'materialId', mine: STEEL, model: CONCRETE, modelBefore: STEEL }],
      removedEdited: { count: 0, elements: [] },
    };
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}/report`, {
      locale: 'de',
      handle: async (request) => (request.operationId === 'getBuildingFileModelChanges' ? { kind: 'ok', status: 200, value: changes, location: null } : NOT_FOUND),
    });
    await eventually(() => expect(byTestId('model-change-mine')?.textContent).toContain('Steel'));
    // Steel has no German name: its English one is marked; concrete has one, Beton, and is not.
    expect(byTestId('model-change-mine')?.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en');
    const model = byTestId('model-change-model');
    expect(model?.textContent).toContain('Beton');
    expect(model?.querySelectorAll('[data-testid="language-mark"]')).toHaveLength(1);
    expect(model?.querySelector('.changes__id [data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en');
  });

  it('says plainly when the server does not tell, and when it cannot be reached', async () => {
    const connection = await seedCache([element('E1')]);
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}/report`, { handle: async () => NOT_FOUND });
    await eventually(() => expect(text('model-changes-unsupported')).toBe('This server does not list what a new version of the model changed after edits.'));
    releasePage();

    const offline = await seedCache([element('E1')]);
    await mountAt(offline, `/buildings/${BUILDING}/files/${FILE}/report`);
    await eventually(() => expect(text('model-changes-refusal')).toContain('What the model changed after edits cannot be read now.'));
    expect(all('keep-mine')).toEqual([]);
  });
});
