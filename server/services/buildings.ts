import { randomUUID } from 'node:crypto';
import type { BuildingRequest, BuildingRequestV21, BuildingResponse } from '../../shared/api';
import { NL_SFB_CLASSIFICATION_METHOD_ID } from '../../shared/api';
import type { Principal } from '../auth/principal';
import { buildingOr404, portfolioInScope } from '../auth/scope';
import type { ServerContext } from '../context';
import { badRequest, forbidden } from '../errors';
import type { Kysely } from 'kysely';
import { findBuilding, type BuildingRow } from '../store/repositories/buildings';
import { buildingScopeFilter } from '../auth/scope-filter';
import type { BuildingsTable, DatabaseSchema } from '../store/tables';
import { parseJsonColumn } from '../store/repositories/json';
import { utcDateTimeOrNull } from './utc-date-time';
import type { ApiVersion } from '../../shared/api/routes';

/** The wire shape of a stored building (written out field by field: this runs on every building read). */
export function toBuildingResponse(row: BuildingRow): BuildingResponse {
  return {
    portfolioId: row.portfolioId,
    name: row.name,
    cadastralDesignation: row.cadastralDesignation,
    cadastralArea: row.cadastralArea,
    parcelnumber: row.parcelnumber,
    publicLawRestriction: row.publicLawRestriction,
    completionDate: row.completionDate,
    lastRenovationDate: row.lastRenovationDate,
    addressStreet: row.addressStreet,
    addressHousenumber: row.addressHousenumber,
    addressHousenumberAddition: row.addressHousenumberAddition,
    addressZipcode: row.addressZipcode,
    addressCity: row.addressCity,
    addressCountry: row.addressCountry,
    buildingUsage: row.buildingUsage,
    grossSurfaceArea: row.grossSurfaceArea,
    energyLabel: row.energyLabel,
    energyPerformanceCoefficient: row.energyPerformanceCoefficient,
    energyIndex: row.energyIndex,
    expectedLifespan: row.expectedLifespan,
    expectedLifespanStructure: row.expectedLifespanStructure,
    expectedLifespanSkin: row.expectedLifespanSkin,
    expectedLifespanServices: row.expectedLifespanServices,
    expectedLifespanSpacePlan: row.expectedLifespanSpacePlan,
    expectedLifespanStuff: row.expectedLifespanStuff,
    breeamLabel: row.breeamLabel,
    gprLabel: row.gprLabel,
    mpgLabel: row.mpgLabel,
    mpgLabelManual: row.mpgLabelManual,
    mpgLabelIndicative: row.mpgLabelIndicative,
    leedLabel: row.leedLabel,
    wellScoreBuilding: row.wellScoreBuilding,
    wellScoreInterior: row.wellScoreInterior,
    wellScoreCoreAndShell: row.wellScoreCoreAndShell,
    mostRecentBimInfo: row.mostRecentBimInfo,
    geoLatitude: row.geoLatitude,
    geoLongtitude: row.geoLongtitude,
    phaseType: row.phaseType,
    id: row.id,
    images: parseJsonColumn<string[]>(row.images, 'buildings.images'),
    isDirty: row.isDirty === 1,
    hasDirtyElements: row.hasDirtyElements === 1,
    classificationType: row.classificationType ?? NL_SFB_CLASSIFICATION_METHOD_ID,
  };
}

/** A building in the caller's scope, else 404. */
export async function getBuildingRow(ctx: ServerContext, principal: Principal, id: string): Promise<BuildingRow> {
  return buildingOr404(principal, id, await findBuilding(ctx.db, id));
}

/** Buildings the caller can see. */
export async function listBuildings(ctx: ServerContext, principal: Principal, portfolioId?: string): Promise<BuildingResponse[]> {
  return (await listBuildingRows(ctx.db, principal, portfolioId)).map(toBuildingResponse);
}

/**
 * Checks the portfolio a building goes into is in the caller's scope and the classification is accepted: NL-SfB on
 * v2.3, any classification method the server knows on v2.1 (decisions §12).
 */
async function checkedColumns(
  ctx: ServerContext,
  principal: Principal,
  request: BuildingRequest | BuildingRequestV21,
  version: ApiVersion,
  currentPortfolioId?: string,
): Promise<BuildingRequestColumns> {
  const portfolio = await ctx.db
    .selectFrom('portfolios')
    .select(['id', 'accountId'])
    .where('id', '=', request.portfolioId)
    .executeTakeFirst();
  // A building key sees no portfolio, but may keep its building where it is.
  const keepsPortfolio = currentPortfolioId !== undefined && request.portfolioId === currentPortfolioId;
  if (portfolio === undefined || (!keepsPortfolio && !portfolioInScope(principal, portfolio))) {
    throw badRequest(`portfolioId: no portfolio '${request.portfolioId}' is in this key's scope.`, [
      { path: 'portfolioId', message: 'unknown portfolio' },
    ]);
  }
  const classificationType = request.classificationType ?? NL_SFB_CLASSIFICATION_METHOD_ID;
  if (version === 'v2.3' && classificationType !== NL_SFB_CLASSIFICATION_METHOD_ID) {
    throw badRequest(`classificationType: the only supported value is ${NL_SFB_CLASSIFICATION_METHOD_ID}.`, [
      { path: 'classificationType', message: `must be ${NL_SFB_CLASSIFICATION_METHOD_ID}` },
    ]);
  }
  if (version === 'v2.1') {
    const method = await ctx.db
      .selectFrom('classification_methods')
      .select('id')
      .where('id', '=', classificationType)
      .executeTakeFirst();
    if (method === undefined) {
      throw badRequest(`classificationType: '${classificationType}' is not a classification method.`, [
        { path: 'classificationType', message: 'unknown classification method' },
      ]);
    }
  }
  return {
    portfolioId: portfolio.id,
    name: request.name,
    cadastralDesignation: request.cadastralDesignation ?? null,
    cadastralArea: request.cadastralArea ?? null,
    parcelnumber: request.parcelnumber ?? null,
    publicLawRestriction: request.publicLawRestriction ?? null,
    completionDate: utcDateTimeOrNull(request.completionDate, 'completionDate'),
    lastRenovationDate: utcDateTimeOrNull(request.lastRenovationDate, 'lastRenovationDate'),
    addressStreet: request.addressStreet ?? null,
    addressHousenumber: request.addressHousenumber ?? null,
    addressHousenumberAddition: request.addressHousenumberAddition ?? null,
    addressZipcode: request.addressZipcode ?? null,
    addressCity: request.addressCity ?? null,
    addressCountry: request.addressCountry ?? null,
    buildingUsage: request.buildingUsage ?? null,
    grossSurfaceArea: request.grossSurfaceArea ?? null,
    energyLabel: request.energyLabel ?? null,
    energyPerformanceCoefficient: request.energyPerformanceCoefficient ?? null,
    energyIndex: request.energyIndex ?? null,
    expectedLifespan: request.expectedLifespan ?? null,
    expectedLifespanStructure: request.expectedLifespanStructure ?? null,
    expectedLifespanSkin: request.expectedLifespanSkin ?? null,
    expectedLifespanServices: request.expectedLifespanServices ?? null,
    expectedLifespanSpacePlan: request.expectedLifespanSpacePlan ?? null,
    expectedLifespanStuff: request.expectedLifespanStuff ?? null,
    breeamLabel: request.breeamLabel ?? null,
    gprLabel: request.gprLabel ?? null,
    mpgLabel: request.mpgLabel ?? null,
    leedLabel: request.leedLabel ?? null,
    wellScoreBuilding: request.wellScoreBuilding ?? null,
    wellScoreInterior: request.wellScoreInterior ?? null,
    wellScoreCoreAndShell: request.wellScoreCoreAndShell ?? null,
    classificationType,
  };
}

/** Creates a building; account tokens anywhere in their account, portfolio tokens in their portfolio. */
export async function createBuilding(
  ctx: ServerContext,
  principal: Principal,
  request: BuildingRequest | BuildingRequestV21,
  version: ApiVersion,
): Promise<BuildingResponse> {
  if (principal.scopeKind === 'building') throw forbidden('A building key cannot create buildings.');
  const columns = await checkedColumns(ctx, principal, request, version);
  const id = randomUUID();
  await insertBuilding(ctx.db, id, principal.accountId, columns, ctx.now().toISOString());
  return toBuildingResponse((await findBuilding(ctx.db, id)) as BuildingRow);
}

/** Replaces every request field of a building (absent ones become null). */
export async function replaceBuilding(
  ctx: ServerContext,
  principal: Principal,
  id: string,
  request: BuildingRequest | BuildingRequestV21,
  version: ApiVersion,
): Promise<BuildingResponse> {
  const existing = await getBuildingRow(ctx, principal, id);
  const columns = await checkedColumns(ctx, principal, request, version, existing.portfolioId);
  await updateBuildingColumns(ctx.db, id, columns, ctx.now().toISOString());
  return toBuildingResponse((await findBuilding(ctx.db, id)) as BuildingRow);
}

/** Deletes a building and all its data: files, elements, figures, rights, tokens, jobs and blobs. */
export async function deleteBuilding(ctx: ServerContext, principal: Principal, id: string): Promise<void> {
  await getBuildingRow(ctx, principal, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('jobs')
      .where('subjectId', 'in', trx.selectFrom('building_files').select('id').where('buildingId', '=', id))
      .execute();
    await deleteBuildingRow(trx, id);
  });
  // Blobs go after the rows: a crash in between leaves unreferenced files, never rows pointing at missing files.
  await ctx.blobs.deletePrefix(`buildings/${id}`);
}

// --- the queries only this service runs --------------------------------------------------------------------------------

/** The columns a BuildingRequest sets (entire replacement: all of them, null when absent). */
type BuildingRequestColumns = Omit<
  BuildingRow,
  | 'id'
  | 'accountId'
  | 'images'
  | 'mpgLabelManual'
  | 'mpgLabelIndicative'
  | 'isDirty'
  | 'hasDirtyElements'
  | 'mostRecentBimInfo'
  | 'geoLatitude'
  | 'geoLongtitude'
  | 'phaseType'
  | 'createdAt'
  | 'updatedAt'
>;

/** Buildings in the caller's scope, optionally of one portfolio, in creation order. */
function listBuildingRows(db: Kysely<DatabaseSchema>, principal: Principal, portfolioId?: string): Promise<BuildingRow[]> {
  let query = db.selectFrom('buildings').selectAll().where(buildingScopeFilter(principal));
  if (portfolioId !== undefined) query = query.where('portfolioId', '=', portfolioId);
  return query.orderBy('createdAt').orderBy('id').execute();
}

/** The columns of a new building that no request sets: no images, labels or location yet, nothing dirty. */
export function newBuildingState(now: string): Omit<BuildingsTable, keyof BuildingRequestColumns | 'id' | 'accountId'> {
  return {
    images: '[]',
    mpgLabelManual: null,
    mpgLabelIndicative: null,
    isDirty: 0,
    hasDirtyElements: 0,
    mostRecentBimInfo: null,
    geoLatitude: null,
    geoLongtitude: null,
    phaseType: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Inserts a building. */
async function insertBuilding(
  db: Kysely<DatabaseSchema>,
  id: string,
  accountId: string,
  columns: BuildingRequestColumns,
  now: string,
): Promise<void> {
  await db
    .insertInto('buildings')
    .values({
      ...columns,
      id,
      accountId,
      ...newBuildingState(now),
    })
    .execute();
}

/** Replaces the request fields of a building. */
async function updateBuildingColumns(
  db: Kysely<DatabaseSchema>,
  id: string,
  columns: BuildingRequestColumns,
  now: string,
): Promise<void> {
  await db
    .updateTable('buildings')
    .set({ ...columns, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes a building with its rights and tokens; files, elements and figures go by foreign-key cascade. */
async function deleteBuildingRow(db: Kysely<DatabaseSchema>, id: string): Promise<void> {
  await db.deleteFrom('user_rights').where('scopeKind', '=', 'building').where('scopeId', '=', id).execute();
  await db.deleteFrom('tokens').where('scopeKind', '=', 'building').where('scopeId', '=', id).execute();
  await db.deleteFrom('jobs').where('subjectId', '=', id).execute();
  await db.deleteFrom('buildings').where('id', '=', id).execute();
}
