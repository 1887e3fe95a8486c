import type { OperationHandlers } from './operation';
import { addFinancialValue, addMatch, listFinancialValues, listMatches, replaceFinancialValues, replaceMatches } from '../services/catalogue-lists';
import { createCatalogueItem, getCatalogueItem, listCatalogueItems, replaceCatalogueItem } from '../services/catalogue-items';
import { materialCatalogue } from '../services/materials';

/** Materials: the catalogues of the platform, the caller's account and its available databases, with matches and prices. */
export const materialHandlers: Pick<
  OperationHandlers,
  | 'listMaterials'
  | 'createMaterial'
  | 'getMaterial'
  | 'replaceMaterial'
  | 'listMaterialFinancialValues'
  | 'addMaterialFinancialValue'
  | 'replaceMaterialFinancialValues'
  | 'listMaterialMatches'
  | 'addMaterialMatch'
  | 'replaceMaterialMatches'
> = {
  listMaterials: async ({ ctx, principal, query }) => ({ status: 200, value: await listCatalogueItems(ctx, principal, materialCatalogue, query.databaseId) }),
  createMaterial: async ({ ctx, principal, body, prefix }) => {
    const material = await createCatalogueItem(ctx, principal, materialCatalogue, body);
    return { status: 201, value: material, location: `${prefix}/materials/${material.id}` };
  },
  getMaterial: async ({ ctx, principal, params }) => ({ status: 200, value: await getCatalogueItem(ctx, principal, materialCatalogue, params.id) }),
  replaceMaterial: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceCatalogueItem(ctx, principal, materialCatalogue, params.id, body),
  }),
  listMaterialFinancialValues: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listFinancialValues(ctx, principal, 'materials', params.id),
  }),
  addMaterialFinancialValue: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await addFinancialValue(ctx, principal, 'materials', params.id, body),
  }),
  replaceMaterialFinancialValues: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceFinancialValues(ctx, principal, 'materials', params.id, body),
  }),
  listMaterialMatches: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listMatches(ctx, principal, 'materials', params.id),
  }),
  addMaterialMatch: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await addMatch(ctx, principal, 'materials', params.id, body),
  }),
  replaceMaterialMatches: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceMatches(ctx, principal, 'materials', params.id, body),
  }),
};
