import type { Kysely } from 'kysely';
import type {
  LocalizedText,
  Product,
  ProductChild,
  ProductChildCircularInformation,
  ProductChildCircularInformationRequest,
  ProductChildRequest,
  ProductCircularInformation,
  ProductCircularInformationRequest,
  ProductDimension,
  ProductDimensionRequest,
  ProductRequest,
} from '../../shared/api';
import { ElementDimensionType, ProductType } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { parseJsonColumn } from '../store/repositories/json';
import type { DatabaseSchema, ProductsTable } from '../store/tables';
import {
  findReadableCatalogueItem,
  readableCatalogueItem,
  writableCatalogueItem,
} from './catalogue-access';
import type { CatalogueColumns, CatalogueKind } from './catalogue-items';
import { materialCircularInformation } from './materials';
import { checkedEnum, invalidField, itemPath, localizedTextColumn } from './catalogue-fields';
import { scheduleRecount } from './catalogue-recount';
import { appendListRow, replaceListRows, type ListRow, type ListWriteCheck, type OwnedList } from './catalogue-lists';

/** The children of products, kept in the order the client gave. */
const productChildren: OwnedList<'product_children'> = { table: 'product_children', ownerColumn: 'productId' };

/** The wire shape of a stored product. */
function toProduct(row: ProductsTable): Product {
  return {
    name: parseJsonColumn<LocalizedText>(row.name, 'products.name'),
    type: row.type as ProductType,
    description: parseJsonColumn<LocalizedText>(row.description, 'products.description'),
    supplier: row.supplier,
    productCode: row.productCode,
    circular: parseJsonColumn<ProductCircularInformation>(row.circular, 'products.circular'),
    fixedDimensions: parseJsonColumn<ProductDimension[]>(row.fixedDimensions, 'products.fixedDimensions'),
    defaultDimensions: parseJsonColumn<ProductDimension[]>(row.defaultDimensions, 'products.defaultDimensions'),
    id: row.id,
  };
}

/** Every circular figure of a request, null where absent: the material figures, then the product's own. */
function circularInformation(request: ProductCircularInformationRequest): ProductCircularInformation {
  return {
    ...materialCircularInformation(request),
    technicalLifetime: request.technicalLifetime ?? null,
    functionalLifetime: request.functionalLifetime ?? null,
    productReusedPercentageFeedstock: request.productReusedPercentageFeedstock ?? null,
    productRecycledPercentageFeedstock: request.productRecycledPercentageFeedstock ?? null,
    productRapidRenewablesPercentageFeedstock: request.productRapidRenewablesPercentageFeedstock ?? null,
    productVirginPercentageFeedstock: request.productVirginPercentageFeedstock ?? null,
    productReusedPercentageEndOfLife: request.productReusedPercentageEndOfLife ?? null,
    productRecycledPercentageEndOfLife: request.productRecycledPercentageEndOfLife ?? null,
    productLandfillPercentageEndOfLife: request.productLandfillPercentageEndOfLife ?? null,
    productIncinerationPercentageEndOfLife: request.productIncinerationPercentageEndOfLife ?? null,
  };
}

/** A dimension list of a request (`field` names it in errors), its enums normalised; absent is empty. */
function dimensions(requests: readonly ProductDimensionRequest[] | null | undefined, field: string): ProductDimension[] {
  return (requests ?? []).map((request, index) => ({
    dimensionValue: request.dimensionValue,
    dimensionType: checkedEnum(ElementDimensionType, request.dimensionType, `${field}.${index}.dimensionType`),
  }));
}

/** The columns of a product request; a field left out is null (or empty), so a replace replaces everything. */
function productColumns(request: ProductRequest): CatalogueColumns<'products'> {
  return {
    name: localizedTextColumn(request.name),
    type: checkedEnum(ProductType, request.type, 'type'),
    description: localizedTextColumn(request.description),
    supplier: request.supplier ?? null,
    productCode: request.productCode ?? null,
    circular: JSON.stringify(circularInformation(request.circular ?? {})),
    fixedDimensions: JSON.stringify(dimensions(request.fixedDimensions, 'fixedDimensions')),
    defaultDimensions: JSON.stringify(dimensions(request.defaultDimensions, 'defaultDimensions')),
  };
}

/** Products as a catalogue: list, get, create and replace are `catalogue-items.ts` over this. */
export const productCatalogue: CatalogueKind<'products', Product, ProductRequest> = { table: 'products', toWire: toProduct, columns: productColumns };

// --- children ---------------------------------------------------------------------------------------------------------

/** Every field of a child relation's circular block; an absent inherit flag is false, an absent figure null. */
function childCircularInformation(request: ProductChildCircularInformationRequest): ProductChildCircularInformation {
  return {
    inheritFeedstockPercentages: request.inheritFeedstockPercentages ?? false,
    recycledPercentageFeedstock: request.recycledPercentageFeedstock ?? null,
    rapidRenewablesPercentageFeedstock: request.rapidRenewablesPercentageFeedstock ?? null,
    inheritEndOfLifePercentages: request.inheritEndOfLifePercentages ?? false,
    recycledPercentageEndOfLife: request.recycledPercentageEndOfLife ?? null,
    landfillPercentageEndOfLife: request.landfillPercentageEndOfLife ?? null,
    inheritEfficiencyPercentages: request.inheritEfficiencyPercentages ?? false,
    efficiencyPercentageRecyclingFeedstock: request.efficiencyPercentageRecyclingFeedstock ?? null,
    efficiencyPercentageRecyclingEndOfLife: request.efficiencyPercentageRecyclingEndOfLife ?? null,
  };
}

/** The stored columns of a child relation. */
function childColumns(request: ProductChildRequest): ListRow<'product_children'> {
  return {
    childId: request.childId,
    // The column is NOT NULL: a relation without an amount contributes nothing to the parent, which 0 says.
    value: request.value ?? 0,
    circular: JSON.stringify(childCircularInformation(request.circular ?? {})),
  };
}

/** The wire shape of a stored child relation. */
function toChild(row: ListRow<'product_children'>): ProductChild {
  return {
    value: row.value,
    childId: row.childId,
    circular: parseJsonColumn<ProductChildCircularInformation>(row.circular, 'product_children.circular'),
  };
}

/** Whether product `rootId` is `soughtId` or holds it among its descendants (breadth first, each product once). */
async function productContains(db: Kysely<DatabaseSchema>, rootId: string, soughtId: string): Promise<boolean> {
  const seen = new Set([rootId]);
  let generation = [rootId];
  while (generation.length > 0) {
    if (generation.includes(soughtId)) return true;
    const rows = await db.selectFrom('product_children').select('childId').where('productId', 'in', generation).execute();
    generation = [...new Set(rows.map((row) => row.childId))].filter((childId) => !seen.has(childId));
    for (const childId of generation) seen.add(childId);
  }
  return false;
}

/**
 * Checks that each child is a material or product the caller may read and that no product child holds the parent,
 * which would make the product contain itself; 400 naming the `childId` otherwise.
 */
function childrenCheck(
  principal: Principal,
  productId: string,
  children: readonly ProductChildRequest[],
  bodyIsList: boolean,
): ListWriteCheck {
  return async (transactionCtx) => {
    for (const [index, child] of children.entries()) {
      const path = itemPath(bodyIsList ? index : undefined, 'childId');
      if ((await findReadableCatalogueItem(transactionCtx, principal, 'materials', child.childId)) !== undefined) continue;
      if ((await findReadableCatalogueItem(transactionCtx, principal, 'products', child.childId)) === undefined) {
        throw invalidField(path, `no material or product '${child.childId}' is in a database this key may read`);
      }
      if (await productContains(transactionCtx.db, child.childId, productId)) {
        throw invalidField(path, `product '${child.childId}' is or contains product '${productId}': a product cannot contain itself`);
      }
    }
  };
}

/** The children of a readable product, in their order. */
export async function listChildren(ctx: ServerContext, principal: Principal, id: string): Promise<ProductChild[]> {
  await readableCatalogueItem(ctx, principal, 'products', id);
  const rows = await ctx.db
    .selectFrom('product_children')
    .select(['childId', 'value', 'circular'])
    .where('productId', '=', id)
    .orderBy('position')
    .execute();
  return rows.map(toChild);
}

/** Appends a child to a product of the caller's database; the files that reach it are counted again. */
export async function addChild(ctx: ServerContext, principal: Principal, id: string, request: ProductChildRequest): Promise<ProductChild> {
  await writableCatalogueItem(ctx, principal, 'products', id);
  const row = childColumns(request);
  await appendListRow(ctx, productChildren, id, row, childrenCheck(principal, id, [request], false));
  await scheduleRecount(ctx.db, id, ctx.now());
  return toChild(row);
}

/** Replaces all children of a product of the caller's database; the files that reach it are counted again. */
export async function replaceChildren(
  ctx: ServerContext,
  principal: Principal,
  id: string,
  requests: readonly ProductChildRequest[],
): Promise<ProductChild[]> {
  await writableCatalogueItem(ctx, principal, 'products', id);
  const rows = requests.map(childColumns);
  await replaceListRows(ctx, productChildren, id, rows, childrenCheck(principal, id, requests, true));
  await scheduleRecount(ctx.db, id, ctx.now());
  return rows.map(toChild);
}
