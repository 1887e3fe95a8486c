/**
 * The user's changes to catalogue items: written to the cache and the outbox through the db layer, then the scheduler
 * is told so a sync follows. A new item starts in the account's own database with its first lists.
 */
import type { LocalizedText, MaterialFinancialValue, MaterialMatch, ProductChild, ProductFinancialValue, ProductMatch } from '../../shared/api/schemas';
import type { CacheDb } from '../db/cache-db';
import type { MaterialChanges, ProductChanges } from '../db/edit-shapes';
import {
  createMaterial as createMaterialRow,
  asOneEdit,
  createProduct as createProductRow,
  editMaterial as editMaterialRow,
  editMaterialFinancialValues as editMaterialValuesRow,
  editMaterialMatches as editMaterialMatchesRow,
  editProduct as editProductRow,
  editProductChildren as editProductChildrenRow,
  editProductFinancialValues as editProductValuesRow,
  editProductMatches as editProductMatchesRow,
  type NewProduct,
} from '../db/edits';
import type { CatalogueKind } from './catalogue-databases';

/** What the changes are written with and announced to. */
export interface CatalogueEditing {
  /** The active connection's cache; throws when none is open. */
  cache: () => CacheDb;
  /** Notes an item created here, to find it under the server's id later. */
  remember: (kind: CatalogueKind, id: string, name: LocalizedText | null | undefined) => void;
  /** Tells the scheduler, so a sync follows. */
  notifyEdit: () => void;
}

export function useCatalogueEdits({ cache, remember, notifyEdit }: CatalogueEditing) {
  /** Creates a material in the account's database with its first lists; answers its temporary id. */
  async function createMaterial(
    request: MaterialChanges,
    lists: { matches?: readonly MaterialMatch[]; financialValues?: readonly MaterialFinancialValue[] } = {},
  ): Promise<string> {
    const db = cache();
    const id = await asOneEdit(db, async () => {
      const created = await createMaterialRow(db, request);
      if (lists.matches !== undefined && lists.matches.length > 0) await editMaterialMatchesRow(db, created, lists.matches);
      if (lists.financialValues !== undefined && lists.financialValues.length > 0) await editMaterialValuesRow(db, created, lists.financialValues);
      return created;
    });
    remember('materials', id, request.name as LocalizedText | undefined);
    notifyEdit();
    return id;
  }

  /** Changes fields of a material. */
  async function editMaterial(id: string, changes: MaterialChanges): Promise<void> {
    await editMaterialRow(cache(), id, changes);
    notifyEdit();
  }

  /** Replaces a material's matches. */
  async function editMaterialMatches(id: string, matches: readonly MaterialMatch[]): Promise<void> {
    await editMaterialMatchesRow(cache(), id, matches);
    notifyEdit();
  }

  /** Replaces a material's financial values. */
  async function editMaterialFinancialValues(id: string, values: readonly MaterialFinancialValue[]): Promise<void> {
    await editMaterialValuesRow(cache(), id, values);
    notifyEdit();
  }

  /** Creates a product in the account's database with its first lists; answers its temporary id. */
  async function createProduct(
    request: NewProduct,
    lists: { matches?: readonly ProductMatch[]; children?: readonly ProductChild[]; financialValues?: readonly ProductFinancialValue[] } = {},
  ): Promise<string> {
    const db = cache();
    const id = await asOneEdit(db, async () => {
      const created = await createProductRow(db, request);
      if (lists.matches !== undefined && lists.matches.length > 0) await editProductMatchesRow(db, created, lists.matches);
      if (lists.children !== undefined && lists.children.length > 0) await editProductChildrenRow(db, created, lists.children);
      if (lists.financialValues !== undefined && lists.financialValues.length > 0) await editProductValuesRow(db, created, lists.financialValues);
      return created;
    });
    remember('products', id, request.name as LocalizedText | undefined);
    notifyEdit();
    return id;
  }

  /** Changes fields of a product. */
  async function editProduct(id: string, changes: ProductChanges): Promise<void> {
    await editProductRow(cache(), id, changes);
    notifyEdit();
  }

  /** Replaces a product's matches. */
  async function editProductMatches(id: string, matches: readonly ProductMatch[]): Promise<void> {
    await editProductMatchesRow(cache(), id, matches);
    notifyEdit();
  }

  /** Replaces a product's children. */
  async function editProductChildren(id: string, children: readonly ProductChild[]): Promise<void> {
    await editProductChildrenRow(cache(), id, children);
    notifyEdit();
  }

  /** Replaces a product's financial values. */
  async function editProductFinancialValues(id: string, values: readonly ProductFinancialValue[]): Promise<void> {
    await editProductValuesRow(cache(), id, values);
    notifyEdit();
  }

  return {
    createMaterial,
    editMaterial,
    editMaterialMatches,
    editMaterialFinancialValues,
    createProduct,
    editProduct,
    editProductMatches,
    editProductChildren,
    editProductFinancialValues,
  };
}
