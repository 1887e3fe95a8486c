import type { OperationHandlers } from './operation';
import { addFinancialValue, addMatch, listFinancialValues, listMatches, replaceFinancialValues, replaceMatches } from '../services/catalogue-lists';
import { createCatalogueItem, getCatalogueItem, listCatalogueItems, replaceCatalogueItem } from '../services/catalogue-items';
import { addChild, listChildren, productCatalogue, replaceChildren } from '../services/products';

/** Products: the catalogues of the platform, the caller's account and its available databases, with matches, children and prices. */
export const productHandlers: Pick<
  OperationHandlers,
  | 'listProducts'
  | 'createProduct'
  | 'getProduct'
  | 'replaceProduct'
  | 'listProductMatches'
  | 'addProductMatch'
  | 'replaceProductMatches'
  | 'listProductChildren'
  | 'addProductChild'
  | 'replaceProductChildren'
  | 'listProductFinancialValues'
  | 'addProductFinancialValue'
  | 'replaceProductFinancialValues'
> = {
  listProducts: async ({ ctx, principal, query }) => ({ status: 200, value: await listCatalogueItems(ctx, principal, productCatalogue, query.databaseId) }),
  createProduct: async ({ ctx, principal, body, prefix }) => {
    const product = await createCatalogueItem(ctx, principal, productCatalogue, body);
    return { status: 201, value: product, location: `${prefix}/products/${product.id}` };
  },
  getProduct: async ({ ctx, principal, params }) => ({ status: 200, value: await getCatalogueItem(ctx, principal, productCatalogue, params.id) }),
  replaceProduct: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceCatalogueItem(ctx, principal, productCatalogue, params.id, body),
  }),
  listProductMatches: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listMatches(ctx, principal, 'products', params.id),
  }),
  addProductMatch: async ({ ctx, principal, params, body }) => ({
    status: 201,
    value: await addMatch(ctx, principal, 'products', params.id, body),
  }),
  replaceProductMatches: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceMatches(ctx, principal, 'products', params.id, body),
  }),
  listProductChildren: async ({ ctx, principal, params }) => ({ status: 200, value: await listChildren(ctx, principal, params.id) }),
  addProductChild: async ({ ctx, principal, params, body }) => ({
    status: 201,
    value: await addChild(ctx, principal, params.id, body),
  }),
  replaceProductChildren: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceChildren(ctx, principal, params.id, body),
  }),
  listProductFinancialValues: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listFinancialValues(ctx, principal, 'products', params.id),
  }),
  addProductFinancialValue: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await addFinancialValue(ctx, principal, 'products', params.id, body),
  }),
  replaceProductFinancialValues: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceFinancialValues(ctx, principal, 'products', params.id, body),
  }),
};
