/**
 * What a refinement run loads from the database before it looks at an element: the NL-SfB codes, the building's
 * readable databases and the match rules of those it prefers, and, per batch, the catalogue items elements name by id.
 * Loaded once per run (or per import), so that refining an element (`refine-element.ts`) reads nothing.
 */
import type { Kysely } from 'kysely';
import { ElementType } from '../../shared/api/enums';
import { parseJsonColumn } from '../store/repositories/json';
import { NL_SFB_METHOD_ID, PLATFORM_DATABASE_ACCOUNT_ID } from '../store/seed/system-data';
import type { DatabaseSchema, RefinedElementColumns } from '../store/tables';
import {
  buildCatalogueRules,
  productCodeRule,
  type CatalogueMapping,
  type CatalogueRule,
  type CatalogueRules,
  type ReadableCatalogueItems,
} from './catalogue-match';
import { nlSfbCodeIndex, type NlSfbCodes } from './nl-sfb';

/** The classification columns of an element. */
export type ClassificationColumns = Pick<
  RefinedElementColumns,
  'classificationMatchId' | 'classificationMatchName' | 'classificationMatchCode' | 'classificationSource' | 'brandLayerMatchId' | 'brandLayerMatchName'
>;
/** The phase columns of an element. */
export type PhaseColumns = Pick<RefinedElementColumns, 'phaseMatchId' | 'phaseMatchName'>;

/** What one run needs besides the elements: loaded once, and the results of lookups already seen. */
export interface RefineContext {
  codes: NlSfbCodes;
  rules: CatalogueRules;
  readableDatabases: string[];
  classificationByLookup: Map<string, ClassificationColumns>;
  phaseByLookup: Map<string, PhaseColumns>;
}

/** Codes, rules and databases of a run. */
export async function loadRefineContext(db: Kysely<DatabaseSchema>, fileId: string): Promise<RefineContext> {
  const file = await db
    .selectFrom('building_files')
    .innerJoin('buildings', 'buildings.id', 'building_files.buildingId')
    .select(['building_files.preferredAccountIds', 'buildings.accountId'])
    .where('building_files.id', '=', fileId)
    .executeTakeFirst();
  if (file === undefined) throw new Error(`Building file '${fileId}' does not exist`);

  const available = await db
    .selectFrom('account_databases')
    .select('databaseAccountId')
    .where('accountId', '=', file.accountId)
    .orderBy('position')
    .execute();
  const readableDatabases = [
    ...new Set([file.accountId, ...available.map((row) => row.databaseAccountId), PLATFORM_DATABASE_ACCOUNT_ID]),
  ];
  const readableSet = new Set(readableDatabases);
  const preferred = parseJsonColumn<unknown>(file.preferredAccountIds, 'building_files.preferredAccountIds');
  const preferredIds = Array.isArray(preferred) ? preferred.filter((id): id is string => typeof id === 'string') : [];
  // The preferred databases the account can still read, in the file's order, then the platform's (once).
  const candidateDatabases = [
    ...new Set([...preferredIds.filter((id) => readableSet.has(id)), PLATFORM_DATABASE_ACCOUNT_ID]),
  ];

  const codeRows = await db
    .selectFrom('classification_codes')
    .select(['code', 'name'])
    .where('methodId', '=', NL_SFB_METHOD_ID)
    .execute();
  return {
    codes: nlSfbCodeIndex(codeRows),
    rules: buildCatalogueRules(candidateDatabases, await loadRules(db, candidateDatabases)),
    readableDatabases,
    classificationByLookup: new Map(),
    phaseByLookup: new Map(),
  };
}

/** Every match rule of the candidate databases, and their products' codes as Ean rules. */
async function loadRules(db: Kysely<DatabaseSchema>, databases: string[]): Promise<CatalogueRule[]> {
  const materialRules = await db
    .selectFrom('material_matches')
    .innerJoin('materials', 'materials.id', 'material_matches.materialId')
    .select(['materials.accountId', 'materials.id', 'material_matches.value', 'material_matches.matchType'])
    .where('materials.accountId', 'in', databases)
    .execute();
  const productRules = await db
    .selectFrom('product_matches')
    .innerJoin('products', 'products.id', 'product_matches.productId')
    .select(['products.accountId', 'products.id', 'products.type', 'product_matches.value', 'product_matches.matchType'])
    .where('products.accountId', 'in', databases)
    .execute();
  const productCodes = await db
    .selectFrom('products')
    .select(['accountId', 'id', 'type', 'productCode'])
    .where('accountId', 'in', databases)
    .where('productCode', 'is not', null)
    .execute();
  return [
    ...materialRules.map((row) => ({
      databaseId: row.accountId,
      type: ElementType.Material,
      id: row.id,
      matchType: row.matchType,
      value: row.value,
    })),
    ...productRules.map((row) => ({
      databaseId: row.accountId,
      type: row.type as ElementType,
      id: row.id,
      matchType: row.matchType,
      value: row.value,
    })),
    ...productCodes.flatMap((row) => {
      const rule = productCodeRule({ databaseId: row.accountId, type: row.type as ElementType, id: row.id, productCode: row.productCode });
      return rule === null ? [] : [rule];
    }),
  ];
}

/** The materials and products among `ids` that live in a readable database, by lower-case id. */
export async function readableItems(
  db: Kysely<DatabaseSchema>,
  ids: readonly (string | null)[],
  readableDatabases: string[],
): Promise<ReadableCatalogueItems> {
  // Ids as given and in lower case: a client may write a uuid in upper case, the catalogue stores it as created.
  const wanted = [
    ...new Set(ids.flatMap((id) => (id === null || id.trim() === '' ? [] : [id.trim(), id.trim().toLowerCase()]))),
  ];
  const items = new Map<string, CatalogueMapping>();
  if (wanted.length === 0) return items;
  const products = await db
    .selectFrom('products')
    .select(['id', 'type'])
    .where('id', 'in', wanted)
    .where('accountId', 'in', readableDatabases)
    .execute();
  for (const product of products) items.set(product.id.toLowerCase(), { type: product.type as ElementType, id: product.id });
  const materials = await db
    .selectFrom('materials')
    .select('id')
    .where('id', 'in', wanted)
    .where('accountId', 'in', readableDatabases)
    .execute();
  for (const material of materials) items.set(material.id.toLowerCase(), { type: ElementType.Material, id: material.id });
  return items;
}
