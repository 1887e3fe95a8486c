/**
 * The rows of the element databases: materials and products with their match rules, prices and children, and the
 * classification methods and their codes.
 */

/** A material of an element database. Multilingual texts and the circular/financial blocks are JSON. */
export interface MaterialsTable {
  id: string;
  accountId: string;
  name: string;
  elementFamily: string | null;
  description: string;
  supplier: string | null;
  specificWeight: number | null;
  lifeTime: number | null;
  circular: string;
  financial: string;
  createdAt: string;
  updatedAt: string;
}

/** A match rule of a material or product, kept in the order the client gave. */
export interface CatalogueMatchesTable {
  position: number;
  value: string;
  matchType: number;
}

/** A dated price of a material or product. */
export interface CatalogueFinancialValuesTable {
  position: number;
  value: number;
  valueDate: string | null;
  currency: string | null;
  unit: number;
}

/** A product of an element database. */
export interface ProductsTable {
  id: string;
  accountId: string;
  name: string;
  type: number;
  description: string;
  supplier: string | null;
  productCode: string | null;
  circular: string;
  fixedDimensions: string;
  defaultDimensions: string;
  createdAt: string;
  updatedAt: string;
}

/** A child (material or product) contained in a product. */
export interface ProductChildrenTable {
  productId: string;
  position: number;
  childId: string;
  value: number;
  circular: string;
}

/** A classification method (system data). */
export interface ClassificationMethodsTable {
  id: string;
  name: string;
  classificationTypeId: string;
  classificationLevelTypeId: string;
}

/** A code of a classification method, with its parent code for the fallback walk. */
export interface ClassificationCodesTable {
  methodId: string;
  code: string;
  parentCode: string | null;
  name: string;
}
