/**
 * A new version keeps every field a user set, field by field (decisions §3), through the HTTP API on real models: each
 * field edited through PUT (v2.3 and v2.1) stays when the same model is uploaded again; a model that changed a field
 * after the user edited it is listed with both values in the model changes (an extension) and resolved in one step;
 * a field set back to the model's value follows the model again; created elements stay, deleted ones stay deleted,
 * and an edited element the new version lacks goes and is counted.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BuildingFileElementResponse,
  BuildingFileModelChanges,
  BuildingFileResponse,
  BuildingFileStatusResponse,
  BuildingResponse,
  BuildingValidation,
  Material,
} from '../../../shared/api';
import { ifcFixture } from '../../fixtures/files';
import { smallIfc, type SmallIfcElement } from '../../fixtures/small-ifc';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
});
afterAll(async () => {
  await test.close();
});

/** A source file of a building and the addresses of its parts. */
interface SourceFile {
  buildingId: string;
  fileId: string;
  url: string;
}

async function newSourceFile(): Promise<SourceFile> {
  const { buildingId } = await createPortfolioWithBuilding(test);
  const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
  const fileId = created.json<{ id: string }>().id;
  return { buildingId, fileId, url: `${api}/buildings/${buildingId}/files/${fileId}` };
}

async function statusOf(file: SourceFile): Promise<BuildingFileStatusResponse> {
  return (await test.request({ method: 'GET', url: `${file.url}/status` })).json<BuildingFileStatusResponse>();
}

/** Uploads a version of the file's source and waits until it is Mapped. */
async function uploadVersion(file: SourceFile, name: string, content: Buffer): Promise<void> {
  const upload = await test.request({
    method: 'POST',
    url: `${file.url}/upload/${name}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: content,
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const status = await eventually(() => statusOf(file), (value) => [0, 3, 99].includes(value.status), 120_000);
  expect(status.status, status.statusMessage ?? '').toBe(3);
}

/** Sets the file to Importing, runs `edit`, and refines it back to Mapped, as a client edits elements. */
async function editElements(file: SourceFile, edit: () => Promise<void>): Promise<void> {
  expect((await test.request({ method: 'POST', url: `${file.url}/setimporting` })).statusCode).toBe(204);
  await edit();
  expect((await test.request({ method: 'POST', url: `${file.url}/startrefinement` })).statusCode).toBe(202);
  await eventually(() => statusOf(file), (value) => value.status === 3);
}

async function elementsOf(file: SourceFile, version = api): Promise<Map<string, BuildingFileElementResponse>> {
  const list = (await test.request({ method: 'GET', url: `${file.url.replace(api, version)}/elements` })).json<BuildingFileElementResponse[]>();
  return new Map(list.map((element) => [element.id, element]));
}

async function put(file: SourceFile, id: string, body: object, version = api): Promise<BuildingFileElementResponse> {
  const response = await test.request({ method: 'PUT', url: `${file.url.replace(api, version)}/elements/${encodeURIComponent(id)}`, payload: { id, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<BuildingFileElementResponse>();
}

async function modelChanges(file: SourceFile, version = api): Promise<BuildingFileModelChanges> {
  const response = await test.request({ method: 'GET', url: `${file.url.replace(api, version)}/modelchanges` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<BuildingFileModelChanges>();
}

/** An element's fields that a user sets and an import derives, without what refinement derives from them. */
function ownFields(element: BuildingFileElementResponse | undefined): Partial<BuildingFileElementResponse> {
  if (element === undefined) return {};
  const { mapping: _mapping, phaseMatch: _phase, brandLayerMatch: _layer, classificationMatch: _classification, ...own } = element;
  return own;
}

describe('a new version of the same model', () => {
  it('keeps every field a user set through PUT, v2.3 and v2.1, and everything else as the model says', async () => {
    const file = await newSourceFile();
    const model = await readFile(ifcFixture('AC20-FZK-Haus.ifc'));
    await uploadVersion(file, 'AC20-FZK-Haus.ifc', model);
    const before = await elementsOf(file);
    const [first, second, third] = [...before.values()].filter((element) => element.volume !== null);
    if (first === undefined || second === undefined || third === undefined) throw new Error('The model has too few elements with a volume.');
    const materials = (await test.request({ method: 'GET', url: `${api}/materials` })).json<Material[]>();
    const brick = materials.find((material) => material.id !== first.mapping?.id)?.id;
    if (brick === undefined) throw new Error('The platform database has no materials.');

    const everyField = {
      name: 'Outer wall north',
      floor: 'Roof level',
      materialName: 'Reclaimed brick',
      materialId: brick,
      typeName: 'Brick wall 300',
      elementClass: 'IfcWallStandardCase',
      volume: 12.5,
      area: 41.25,
      height: 2.75,
      width: 0.3,
      length: 15,
      weight: 21_000,
      phaseLookup: 'sloop',
      classificationLookup: '22.1',
    };
    const v21Fields = {
      floor: 'Cellar',
      materialName: 'Gypsum board',
      typeName: 'Partition 100',
      elementClass: 'IfcCovering',
      volume: 0.75,
      area: 7.5,
      height: 2.5,
      width: 0.1,
      length: 3,
      weight: 640,
      phase: 'nieuw',
      classification: '42.1',
    };
    await editElements(file, async () => {
      await put(file, first.id, everyField);
      const v21 = await put(file, second.id, v21Fields, '/api/v2.1');
      // v2.1 carries no name and no materialId: a replace through it leaves them.
      expect(v21.name).toBe(second.name);
      // The third is sent back as read: nothing of it becomes the user's.
      const { id: _id, mapping, phaseMatch: _phase, brandLayerMatch: _layer, classificationMatch: _classification, buildingFileId: _file, ...asRead } = third;
      await put(file, third.id, {
        ...asRead,
        materialId: mapping?.id ?? null,
        phaseLookup: third.phaseLookup?.join(', ') ?? null,
        classificationLookup: third.classificationLookup?.join(', ') ?? null,
      });
    });
    const edited = await elementsOf(file);

    await uploadVersion(file, 'AC20-FZK-Haus.ifc', model);
    const after = await elementsOf(file);
    expect(after.size).toBe(before.size);
    const { materialId: _materialId, phaseLookup, classificationLookup, ...plain } = everyField;
    expect(after.get(first.id)).toMatchObject({ ...plain, phaseLookup: [phaseLookup], classificationLookup: [classificationLookup], mapping: { id: brick } });
    expect(after.get(first.id)?.phaseMatch?.name).toBe('Demolition');
    expect(after.get(first.id)?.classificationMatch?.code).toBe('22.1');
    const { phase, classification, ...plainV21 } = v21Fields;
    expect(after.get(second.id)).toMatchObject({ ...plainV21, name: second.name, phaseLookup: [phase], classificationLookup: [classification] });
    expect(after.get(second.id)?.phaseMatch?.name).toBe('New');
    expect(after.get(first.id)).toEqual(edited.get(first.id));
    expect(after.get(second.id)).toEqual(edited.get(second.id));
    for (const [id, element] of before) {
      if (id !== first.id && id !== second.id) expect(ownFields(after.get(id)), id).toEqual(ownFields(element));
    }
    expect(await modelChanges(file)).toEqual({ buildingFileId: file.fileId, changes: [], removedEdited: { count: 0, elements: [] } });
  });
});

/** The small model's elements; `changes` replaces some of them (by name) in a later version. */
function smallModel(changes: Record<string, Partial<SmallIfcElement>> = {}, without: readonly string[] = []): Buffer {
  const elements: SmallIfcElement[] = [
    { entity: 'IFCWALL', name: 'Wall 1', material: 'Beton', body: 'box', size: [4, 0.2, 3], isExternal: true },
    { entity: 'IFCWALL', name: 'Wall 2', material: 'Beton', body: 'box', size: [5, 0.2, 3], isExternal: true },
    { entity: 'IFCWALL', name: 'Wall 3', material: 'Beton', body: 'box', size: [6, 0.2, 3], isExternal: true },
    { entity: 'IFCSLAB', name: 'Floor', material: 'Beton', body: 'box', size: [6, 5, 0.25], predefinedType: 'FLOOR' },
    // Last, so that leaving it out keeps the others' GlobalIds.
    { entity: 'IFCWALL', name: 'Wall 4', material: 'Beton', body: 'box', size: [3, 0.2, 3], isExternal: true },
  ];
  const model = elements.filter((element) => !without.includes(element.name)).map((element) => ({ ...element, ...changes[element.name] }));
  return Buffer.from(smallIfc(model), 'latin1');
}

describe('a new version that changed what a user edited', () => {
  /** The file after v1, the user's edits and v2, with the element ids by their v1 names. */
  async function editedThenChanged(): Promise<{ file: SourceFile; ids: Record<'wall1' | 'wall2' | 'wall3' | 'floor' | 'wall4', string> }> {
    const file = await newSourceFile();
    await uploadVersion(file, 'small.ifc', smallModel());
    const byName = Object.fromEntries([...(await elementsOf(file)).values()].map((element) => [element.name ?? '', element.id]));
    const ids = { wall1: byName['Wall 1'], wall2: byName['Wall 2'], wall3: byName['Wall 3'], floor: byName['Floor'], wall4: byName['Wall 4'] };
    if (Object.values(ids).some((id) => id === undefined)) throw new Error(`Unexpected elements: ${JSON.stringify(byName)}`);
    const id = ids as Record<keyof typeof ids, string>;
    await activate(file);

    await editElements(file, async () => {
      const wall1 = await put(file, id.wall1, { name: 'North wall', materialName: 'Unobtainium', volume: 2.4, classificationLookup: '21.1' });
      expect(wall1.name).toBe('North wall');
      // Set and set back: the model's again.
      await put(file, id.wall2, { name: 'Renamed', materialName: 'Beton', classificationLookup: '21.1' });
      await put(file, id.wall2, { name: 'Wall 2', materialName: 'Beton', classificationLookup: '21.1' });
      await put(file, id.wall4, { name: 'Wall 4', materialName: 'Kalkzandsteen', classificationLookup: '21.1' });
      expect((await test.request({ method: 'DELETE', url: `${file.url}/elements/${id.wall3}` })).statusCode).toBe(204);
      const created = await test.request({ method: 'POST', url: `${file.url}/elements`, payload: { id: 'HAND-1', name: 'Added by hand', materialName: 'Beton', volume: 1.5 } });
      expect(created.statusCode).toBe(201);
    });
    await uploadVersion(
      file,
      'small.ifc',
      smallModel({ 'Wall 1': { name: 'Wall 1 renamed', material: 'Baksteen' }, 'Wall 2': { name: 'Wall 2b' } }, ['Wall 4']),
    );
    return { file, ids: id };
  }

  async function activate(file: SourceFile): Promise<void> {
    const response = await test.request({ method: 'POST', url: `${file.url}/active`, headers: { 'content-type': 'application/json' }, payload: 'true' });
    expect(response.statusCode).toBe(200);
    await buildingSettled(file);
  }

  async function buildingSettled(file: SourceFile): Promise<BuildingResponse> {
    return eventually(
      async () => (await test.request({ method: 'GET', url: `${api}/buildings/${file.buildingId}` })).json<BuildingResponse>(),
      (building) => !building.isDirty && !building.hasDirtyElements,
    );
  }

  it('lists each field the model changed after the user’s edit with both values, keeps the user’s, and says what went', async () => {
    const { file, ids } = await editedThenChanged();
    const elements = await elementsOf(file);
    expect(elements.get(ids.wall1)).toMatchObject({ name: 'North wall', materialName: 'Unobtainium', volume: 2.4, mapping: null });
    // The model renamed a field the user had set back to its value: it follows the model.
    expect(elements.get(ids.wall2)?.name).toBe('Wall 2b');
    // Deleted in the app, still in the model: stays deleted. Made in the app, not in the model: stays.
    expect(elements.has(ids.wall3)).toBe(false);
    expect(elements.get('HAND-1')).toMatchObject({ name: 'Added by hand', materialName: 'Beton', volume: 1.5 });
    // Edited, then left out of the model: gone, and said.
    expect(elements.has(ids.wall4)).toBe(false);
    expect([...elements.keys()].sort()).toEqual([ids.wall1, ids.wall2, ids.floor, 'HAND-1'].sort());

    const changes = await modelChanges(file);
    expect(changes).toEqual({
      buildingFileId: file.fileId,
      changes: [
        { elementId: ids.wall1, elementName: 'North wall', field: 'name', mine: 'North wall', model: 'Wall 1 renamed', modelBefore: 'Wall 1' },
        { elementId: ids.wall1, elementName: 'North wall', field: 'materialName', mine: 'Unobtainium', model: 'Baksteen', modelBefore: 'Beton' },
      ],
      removedEdited: { count: 1, elements: [{ id: ids.wall4, name: 'Wall 4' }] },
    });
    expect(await modelChanges(file, '/api/v2.1')).toEqual(changes);
  });

  it('resolves in one step: keep mine clears the change, take the model’s sets its value and the figures follow', async () => {
    const { file, ids } = await editedThenChanged();
    await buildingSettled(file);
    const fileBefore = (await test.request({ method: 'GET', url: file.url })).json<BuildingFileResponse>();
    const validationBefore = (await test.request({ method: 'GET', url: `${api}/buildings/${file.buildingId}/validation` })).json<BuildingValidation>();

    const refused = await test.request({
      method: 'POST',
      url: `${file.url}/modelchanges`,
      payload: [
        { elementId: ids.wall1, field: 'name', keep: 'mine' },
        { elementId: 'NO-SUCH-ELEMENT', field: 'name', keep: 'mine' },
        { elementId: ids.floor, field: 'name', keep: 'model' },
        { elementId: ids.wall1, field: 'name', keep: 'model' },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: { path: string; message: string }[] }>().errors.map((error) => error.path)).toEqual(['1.elementId', '2.field', '3']);
    expect(refused.json<{ errors: { message: string }[] }>().errors[0]?.message).toContain('NO-SUCH-ELEMENT');
    const unknownField = await test.request({ method: 'POST', url: `${file.url}/modelchanges`, payload: [{ elementId: ids.wall1, field: 'colour', keep: 'mine' }] });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json<{ errors: { path: string }[] }>().errors.map((error) => error.path)).toContain('0.field');
    expect((await modelChanges(file)).changes).toHaveLength(2);

    const resolved = await test.request({
      method: 'POST',
      url: `${file.url}/modelchanges`,
      payload: [
        { elementId: ids.wall1, field: 'name', keep: 'mine' },
        { elementId: ids.wall1, field: 'materialName', keep: 'model' },
      ],
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toEqual({ buildingFileId: file.fileId, changes: [], removedEdited: { count: 1, elements: [{ id: ids.wall4, name: 'Wall 4' }] } });

    const wall1 = (await test.request({ method: 'GET', url: `${file.url}/elements/${ids.wall1}` })).json<BuildingFileElementResponse>();
    expect(wall1).toMatchObject({ name: 'North wall', materialName: 'Baksteen', volume: 2.4 });
    expect(wall1.mapping).not.toBeNull();
    const fileAfter = (await test.request({ method: 'GET', url: file.url })).json<BuildingFileResponse>();
    expect(fileAfter.status).toBe(3);
    expect(Date.parse(fileAfter.lastModifiedDate)).toBeGreaterThan(Date.parse(fileBefore.lastModifiedDate));
    expect(fileAfter.validation.percentageElementsMappedByNumber).toBeGreaterThan(fileBefore.validation.percentageElementsMappedByNumber);
    // The building is recalculated: its figures follow.
    await buildingSettled(file);
    const validationAfter = (await test.request({ method: 'GET', url: `${api}/buildings/${file.buildingId}/validation` })).json<BuildingValidation>();
    expect(validationAfter.percentageElementsMappedByNumber).toBeGreaterThan(validationBefore.percentageElementsMappedByNumber);

    // The same model again: the user's name stays, and with nothing left to resolve nothing is listed.
    await uploadVersion(
      file,
      'small.ifc',
      smallModel({ 'Wall 1': { name: 'Wall 1 renamed', material: 'Baksteen' }, 'Wall 2': { name: 'Wall 2b' } }, ['Wall 4']),
    );
    expect((await test.request({ method: 'GET', url: `${file.url}/elements/${ids.wall1}` })).json()).toMatchObject({ name: 'North wall', materialName: 'Baksteen' });
    expect(await modelChanges(file)).toEqual({ buildingFileId: file.fileId, changes: [], removedEdited: { count: 0, elements: [] } });
  });

  it('answers as element edits do: a read key reads but cannot resolve, a key of another building sees nothing', async () => {
    const { file, ids } = await editedThenChanged();
    const reader = await test.key('building', file.buildingId, 50);
    expect((await test.request({ method: 'GET', url: `${file.url}/modelchanges`, key: reader })).statusCode).toBe(200);
    const resolution = [{ elementId: ids.wall1, field: 'name', keep: 'mine' }];
    expect((await test.request({ method: 'POST', url: `${file.url}/modelchanges`, key: reader, payload: resolution })).statusCode).toBe(403);
    const other = await createPortfolioWithBuilding(test);
    const stranger = await test.key('building', other.buildingId, 90);
    expect((await test.request({ method: 'GET', url: `${file.url}/modelchanges`, key: stranger })).statusCode).toBe(404);
    expect((await test.request({ method: 'POST', url: `${file.url}/modelchanges`, key: stranger, payload: resolution })).statusCode).toBe(404);
    // Only a Mapped file's changes are resolved.
    expect((await test.request({ method: 'POST', url: `${file.url}/setimporting` })).statusCode).toBe(204);
    expect((await test.request({ method: 'POST', url: `${file.url}/modelchanges`, payload: resolution })).statusCode).toBe(409);
    expect((await modelChanges(file)).changes).toHaveLength(2);
  });
});
