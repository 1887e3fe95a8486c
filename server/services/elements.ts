import type { BuildingFileElementRequest, BuildingFileElementRequestV21, BuildingFileElementResponse } from '../../shared/api';
import { BuildingFileStatuses, USER_FIELDS, type UserField } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseJsonColumn } from '../store/repositories/json';
import type { Selectable } from 'kysely';
import type { ElementsTable } from '../store/tables';
import { getBuildingFileRow, type BuildingFileRow } from './building-files';
import { quantitySourceOf } from '../imports/imported-element';
import { createdUserFields, replaceFields, userEditedFlag, userFieldsColumn } from './user-fields';

/** An element row as stored. */
export type ElementRow = Selectable<ElementsTable>;

/** What an element's row holds besides its wire fields: where its data came from, for the import report. */
type ImportSourceColumns =
  | 'classificationHints'
  | 'materialHints'
  | 'quantitySource'
  | 'geometryIssue'
  | 'classificationSource'
  | 'mappingSource'
  | 'partOf'
  | 'partKind'
  | 'partShareAssumed';

/** What an element's row holds of what a user set on it (decisions §3). */
type UserColumns = 'userEdited' | 'userFields' | 'userCreated';

/** The wire shape of an element. */
export function toElementResponse(row: Omit<ElementRow, ImportSourceColumns | UserColumns>): BuildingFileElementResponse {
  return {
    id: row.id,
    name: row.name,
    buildingFileId: row.buildingFileId,
    materialName: row.materialName,
    typeName: row.typeName,
    elementClass: row.elementClass,
    volume: row.volume,
    area: row.area,
    height: row.height,
    width: row.width,
    length: row.length,
    weight: row.weight,
    mapping:
      row.mappingType === null || row.mappingId === null
        ? null
        : { type: row.mappingType as NonNullable<BuildingFileElementResponse['mapping']>['type'], id: row.mappingId },
    phaseMatch: row.phaseMatchId === null ? null : { id: row.phaseMatchId, name: row.phaseMatchName ?? '' },
    brandLayerMatch: row.brandLayerMatchId === null ? null : { id: row.brandLayerMatchId, name: row.brandLayerMatchName ?? '' },
    classificationMatch:
      row.classificationMatchId === null
        ? null
        : { id: row.classificationMatchId, name: row.classificationMatchName ?? '', code: row.classificationMatchCode ?? '' },
    phaseLookup: parseJsonColumn<string[]>(row.phaseLookup, 'elements.phaseLookup'),
    classificationLookup: parseJsonColumn<string[]>(row.classificationLookup, 'elements.classificationLookup'),
    floor: row.floor,
  };
}

/** An element request tagged with the API version it came in on (decisions §12: v2.1 names two fields differently). */
export type VersionedElementRequest =
  | { version: 'v2.3'; request: BuildingFileElementRequest }
  | { version: 'v2.1'; request: BuildingFileElementRequestV21 };

/**
 * The stored columns of an element request, as an element a user created: every field is theirs (decisions §3). What
 * refinement derives is cleared until it runs again.
 */
export function elementColumns(buildingFileId: string, versioned: VersionedElementRequest): ElementRow {
  const { request } = versioned;
  const v23 = versioned.version === 'v2.3' ? versioned.request : undefined;
  const v21 = versioned.version === 'v2.1' ? versioned.request : undefined;
  const phase = v23?.phaseLookup ?? v21?.phase ?? null;
  const classification = v23?.classificationLookup ?? v21?.classification ?? null;
  return {
    buildingFileId,
    id: request.id,
    name: v23?.name ?? null,
    materialName: request.materialName ?? null,
    materialId: v23?.materialId ?? null,
    typeName: request.typeName ?? null,
    elementClass: request.elementClass ?? null,
    volume: request.volume ?? null,
    area: request.area ?? null,
    height: request.height ?? null,
    width: request.width ?? null,
    length: request.length ?? null,
    weight: request.weight ?? null,
    mappingType: null,
    mappingId: null,
    phaseMatchId: null,
    phaseMatchName: null,
    brandLayerMatchId: null,
    brandLayerMatchName: null,
    classificationMatchId: null,
    classificationMatchName: null,
    classificationMatchCode: null,
    phaseLookup: JSON.stringify(phase === null || phase === '' ? [] : [phase]),
    classificationLookup: JSON.stringify(classification === null || classification === '' ? [] : [classification]),
    floor: request.floor ?? null,
    userEdited: 1,
    userFields: userFieldsColumn(createdUserFields()),
    userCreated: 1,
    classificationHints: '[]',
    materialHints: '[]',
    quantitySource: quantitySourceOf(request.volume ?? null, request.weight ?? null),
    geometryIssue: null,
    classificationSource: null,
    mappingSource: null,
    partOf: null,
    partKind: null,
    partShareAssumed: null,
  };
}

/** The file, which must be Importing for element changes (decisions §3: else 409). */
async function importingFile(ctx: ServerContext, principal: Principal, buildingId: string, fileId: string): Promise<BuildingFileRow> {
  const file = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  if (file.status !== BuildingFileStatuses.Importing) {
    throw conflict(`Elements change only while the file is Importing (status 7); it is in status ${file.status}. Call setimporting first.`);
  }
  return file;
}

/** Records that a file's elements changed: the file is dirty, its stamp moves, its building has dirty elements. */
async function touchFile(ctx: ServerContext, file: BuildingFileRow): Promise<void> {
  const now = ctx.now().toISOString();
  await ctx.db.updateTable('building_files').set({ isDirty: 1, lastModifiedDate: now }).where('id', '=', file.id).execute();
  await ctx.db.updateTable('buildings').set({ hasDirtyElements: 1, updatedAt: now }).where('id', '=', file.buildingId).execute();
}

/** One element of a file in scope, else 404. */
export async function getElement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  elementId: string,
): Promise<BuildingFileElementResponse> {
  await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const row = await ctx.db
    .selectFrom('elements')
    .selectAll()
    .where('buildingFileId', '=', fileId)
    .where('id', '=', elementId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Element', elementId);
  return toElementResponse(row);
}

/** Creates an element; its id must be new within the file (409 otherwise). */
export async function createElement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  versioned: VersionedElementRequest,
): Promise<BuildingFileElementResponse> {
  const file = await importingFile(ctx, principal, buildingId, fileId);
  const row = elementColumns(fileId, versioned);
  const { request } = versioned;
  const inserted = await ctx.db
    .insertInto('elements')
    .values(row)
    .onConflict((oc) => oc.columns(['buildingFileId', 'id']).doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 0n) throw conflict(`An element with id '${request.id}' already exists in this file.`);
  // A model element the user deleted and makes again is theirs now: a new version no longer deletes it.
  await ctx.db.deleteFrom('deleted_elements').where('buildingFileId', '=', fileId).where('id', '=', request.id).execute();
  await touchFile(ctx, file);
  return toElementResponse(row);
}

/** The element fields each API version's request carries: v2.1's has no name and no materialId (decisions §12). */
const CARRIED_FIELDS: Readonly<Record<VersionedElementRequest['version'], ReadonlySet<UserField>>> = {
  'v2.3': new Set(USER_FIELDS),
  'v2.1': new Set(USER_FIELDS.filter((field) => field !== 'name' && field !== 'materialId')),
};

/**
 * Replaces an element entirely; the body's id must be the path's. Each field whose value the body changes becomes the
 * user's, which a new version of the source keeps (decisions §3); a field the request's version cannot carry is left.
 */
export async function replaceElement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  elementId: string,
  versioned: VersionedElementRequest,
): Promise<BuildingFileElementResponse> {
  const file = await importingFile(ctx, principal, buildingId, fileId);
  const { request } = versioned;
  if (request.id !== elementId) {
    throw conflict(`The body's id '${request.id}' differs from the element id '${elementId}' in the path.`);
  }
  // What the importer found (classification and material hints, a geometry problem, what it is a part of) stays with the element.
  const {
    buildingFileId: _file,
    id: _id,
    classificationHints: _classificationHints,
    materialHints: _materialHints,
    geometryIssue: _issue,
    userCreated: _created,
    partOf: _partOf,
    partKind: _partKind,
    partShareAssumed: _partShareAssumed,
    ...requested
  } = elementColumns(fileId, versioned);
  const stored = await ctx.db
    .selectFrom('elements')
    .select([...USER_FIELDS, 'mappingId', 'userFields', 'userCreated', 'quantitySource'])
    .where('buildingFileId', '=', fileId)
    .where('id', '=', elementId)
    .executeTakeFirst();
  if (stored === undefined) throw notFound('Element', elementId);
  const { columns: fields, userFields } = replaceFields(stored, requested, CARRIED_FIELDS[versioned.version]);
  const columns = {
    ...requested,
    ...fields,
    // A client replaces the whole element, sending back the volume it read: one computed from the geometry stays so.
    quantitySource: stored.quantitySource === 'geometry' && stored.volume === fields.volume ? 'geometry' : quantitySourceOf(fields.volume, fields.weight),
    userFields: userFieldsColumn(userFields),
    userEdited: userEditedFlag(userFields, stored.userCreated === 1),
  } satisfies Partial<ElementRow>;
  const result = await ctx.db
    .updateTable('elements')
    .set(columns)
    .where('buildingFileId', '=', fileId)
    .where('id', '=', elementId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound('Element', elementId);
  await touchFile(ctx, file);
  return toElementResponse({ buildingFileId: fileId, id: elementId, ...columns });
}

/** Deletes an element; a model element stays deleted on each new version of the source (decisions §3). */
export async function deleteElement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  elementId: string,
): Promise<void> {
  const file = await importingFile(ctx, principal, buildingId, fileId);
  await ctx.db.transaction().execute(async (trx) => {
    const element = await trx
      .selectFrom('elements')
      .select('userCreated')
      .where('buildingFileId', '=', fileId)
      .where('id', '=', elementId)
      .executeTakeFirst();
    if (element === undefined) throw notFound('Element', elementId);
    await trx.deleteFrom('elements').where('buildingFileId', '=', fileId).where('id', '=', elementId).execute();
    if (element.userCreated === 0) {
      await trx
        .insertInto('deleted_elements')
        .values({ buildingFileId: fileId, id: elementId })
        .onConflict((oc) => oc.columns(['buildingFileId', 'id']).doNothing())
        .execute();
    }
  });
  await touchFile(ctx, file);
}
