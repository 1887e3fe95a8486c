import type { BuildingFileElementRequest, BuildingFileElementRequestV21, BuildingFileElementResponse } from '../../shared/api';
import { BuildingFileStatuses } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseJsonColumn } from '../store/repositories/json';
import type { Selectable } from 'kysely';
import type { ElementsTable } from '../store/tables';
import { getBuildingFileRow, type BuildingFileRow } from './building-files';
import { quantitySourceOf } from '../imports/imported-element';

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

/** The wire shape of an element. */
export function toElementResponse(row: Omit<ElementRow, ImportSourceColumns | 'userEdited'>): BuildingFileElementResponse {
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

/** The stored columns of an element request; what refinement derives is cleared until it runs again. */
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
    // Made through the API: a new version of the source keeps what the user set here.
    userEdited: 1,
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
  await touchFile(ctx, file);
  return toElementResponse(row);
}

/** Replaces an element entirely; the body's id must be the path's. */
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
    partOf: _partOf,
    partKind: _partKind,
    partShareAssumed: _partShareAssumed,
    ...columns
  } = elementColumns(fileId, versioned);
  const stored = await ctx.db
    .selectFrom('elements')
    .select(['volume', 'quantitySource'])
    .where('buildingFileId', '=', fileId)
    .where('id', '=', elementId)
    .executeTakeFirst();
  if (stored === undefined) throw notFound('Element', elementId);
  // A client replaces the whole element, sending back the volume it read: one computed from the geometry stays so.
  if (stored.quantitySource === 'geometry' && stored.volume === columns.volume) columns.quantitySource = 'geometry';
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

/** Deletes an element. */
export async function deleteElement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  elementId: string,
): Promise<void> {
  const file = await importingFile(ctx, principal, buildingId, fileId);
  const result = await ctx.db
    .deleteFrom('elements')
    .where('buildingFileId', '=', fileId)
    .where('id', '=', elementId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Element', elementId);
  await touchFile(ctx, file);
}
