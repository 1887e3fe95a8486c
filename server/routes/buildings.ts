import { passportLanguageFromAcceptLanguage } from '../passports/i18n';
import type { OperationHandlers } from './operation';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { createBuilding, deleteBuilding, getBuildingRow, listBuildings, replaceBuilding, toBuildingResponse } from '../services/buildings';
import { buildingCircular, buildingFinancial, buildingValidation } from '../services/building-figures';
import { processBuilding, requestBuildingPassport } from '../services/building-jobs';
import { addBuildingImage } from '../services/building-images';
import { createSubjectToken, deleteSubjectToken, listRights, replaceRights, type RightsSubject } from '../services/rights';

/** A building in scope as the subject of rights and tokens. */
async function buildingSubject(ctx: ServerContext, principal: Principal, id: string): Promise<RightsSubject> {
  const building = await getBuildingRow(ctx, principal, id);
  return { kind: 'building', id: building.id, accountId: building.accountId };
}

/** Buildings: CRUD, figures, recalculation, passports, images, users and tokens. */
export const buildingHandlers: Pick<
  OperationHandlers,
  | 'listBuildings'
  | 'createBuilding'
  | 'getBuilding'
  | 'replaceBuilding'
  | 'deleteBuilding'
  | 'getBuildingCircular'
  | 'getBuildingFinancial'
  | 'getBuildingValidation'
  | 'listBuildingUsers'
  | 'replaceBuildingUsers'
  | 'processBuilding'
  | 'exportBuildingPassport'
  | 'exportBuildingExcelPassport'
  | 'addBuildingImage'
  | 'createBuildingToken'
  | 'deleteBuildingToken'
> = {
  listBuildings: async ({ ctx, principal }) => ({ status: 200, value: await listBuildings(ctx, principal) }),
  createBuilding: async ({ ctx, principal, body, version, prefix }) => {
    const building = await createBuilding(ctx, principal, body, version);
    return { status: 201, value: building, location: `${prefix}/buildings/${building.id}` };
  },
  getBuilding: async ({ ctx, principal, params }) => ({
    status: 200,
    value: toBuildingResponse(await getBuildingRow(ctx, principal, params.id)),
  }),
  replaceBuilding: async ({ ctx, principal, params, body, version }) => ({
    status: 200,
    value: await replaceBuilding(ctx, principal, params.id, body, version),
  }),
  deleteBuilding: async ({ ctx, principal, params }) => {
    await deleteBuilding(ctx, principal, params.id);
    return { status: 204, value: undefined };
  },
  getBuildingCircular: async ({ ctx, principal, params }) => ({ status: 200, value: await buildingCircular(ctx, principal, params.id) }),
  getBuildingFinancial: async ({ ctx, principal, params, query }) => ({
    status: 200,
    value: await buildingFinancial(ctx, principal, params.id, {
      // "Default used when empty" (spec §4): an empty value is no value.
      inflation: query.inflation === '' ? undefined : query.inflation,
      bdbIndex: query.bdbIndex === '' ? undefined : query.bdbIndex,
      discountRate: query.discountRate === '' ? undefined : query.discountRate,
    }),
  }),
  getBuildingValidation: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await buildingValidation(ctx, principal, params.id),
  }),
  listBuildingUsers: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listRights(ctx, await buildingSubject(ctx, principal, params.id)),
  }),
  replaceBuildingUsers: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceRights(ctx, principal, await buildingSubject(ctx, principal, params.id), body),
  }),
  processBuilding: async ({ ctx, principal, params, prefix }) => {
    await processBuilding(ctx, principal, params.id);
    return { status: 202, value: undefined, location: `${prefix}/buildings/${params.id}` };
  },
  exportBuildingPassport: async ({ ctx, principal, params, headers, prefix }) => {
    const fileId = await requestBuildingPassport(ctx, principal, params.id, 'pdf', passportLanguageFromAcceptLanguage(headers['accept-language']));
    return { status: 202, value: undefined, location: `${prefix}/buildings/${params.id}/files/${fileId}/status` };
  },
  exportBuildingExcelPassport: async ({ ctx, principal, params, headers, prefix }) => {
    const fileId = await requestBuildingPassport(ctx, principal, params.id, 'excel', passportLanguageFromAcceptLanguage(headers['accept-language']));
    return { status: 202, value: undefined, location: `${prefix}/buildings/${params.id}/files/${fileId}/status` };
  },
  addBuildingImage: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await addBuildingImage(ctx, principal, params.id, params.fileName, body),
  }),
  createBuildingToken: async ({ ctx, principal, params, body, prefix }) => {
    const token = await createSubjectToken(ctx, principal, await buildingSubject(ctx, principal, params.id), body);
    return { status: 201, value: token, location: `${prefix}/buildings/${params.id}/tokens/${token.id}` };
  },
  deleteBuildingToken: async ({ ctx, principal, params }) => {
    await deleteSubjectToken(ctx, await buildingSubject(ctx, principal, params.id), params.tokenId);
    return { status: 204, value: undefined };
  },
};
