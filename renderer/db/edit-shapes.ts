/**
 * What the cache knows about each table the user edits: the aggregate its outbox entries belong to, how a change in
 * the API's request terms shows in a row, the full request a row stands for (what a create sends and a replace merges
 * into), and the row a server answer plus the remaining local changes make. What each entity's aggregate and request
 * fields are is in `entities.ts`.
 *
 * Changes are kept in request terms (`fields` of an outbox entry, flattened to paths): for most tables they are the
 * row's own fields; an element's request says `materialId`, `phaseLookup` and `classificationLookup` where its row
 * holds `mapping` and lookup lists.
 */
import type { TObject } from 'typebox';
import { ElementType, FinancialImportType, NL_SFB_CLASSIFICATION_METHOD_ID } from '../../shared/api/enums';
import {
  type BuildingFileElementRequest,
  BuildingFileElementResponse,
  type BuildingRequest,
  BuildingResponse,
  Material,
  MaterialCircularInformation,
  MaterialFinancialInformation,
  type MaterialRequest,
  type PortfolioRequest,
  Product,
  ProductCircularInformation,
  type ProductRequest,
  type PortfolioResponse,
} from '../../shared/api/schemas';
import type { CacheDb } from './cache-db';
import { ENTITIES, isListEntity, type EditedEntity, type EntityDescriptor, type OutboxEntity } from './entities';
import { withFields, type FlatFields } from './field-paths';
import { isRecord } from '../../shared/is-record';
import { elementsByIds } from './block-index';
import { elementKey, serverFieldsOf, splitElementKey, type CatalogueListRow, type ElementRow, type OutboxEntry } from './schema';

/** The aggregate of a row's outbox entries: entries of one aggregate are pushed in order, aggregates independently. */
export function aggregateOf(entity: OutboxEntity, key: string): string {
  const descriptor: EntityDescriptor = ENTITIES[entity];
  return `${descriptor.aggregate}:${descriptor.aggregateKey?.(key) ?? key}`;
}

// --- change types -----------------------------------------------------------------------------------------------------

/** A change of a resource: some of its fields, nested objects field by field, lists as a whole. */
export type Changes<T> = {
  [K in keyof T]?: NonNullable<T[K]> extends readonly unknown[]
    ? T[K]
    : NonNullable<T[K]> extends Record<string, unknown>
      ? Changes<NonNullable<T[K]>>
      : T[K];
};

/** A change of a portfolio. */
export type PortfolioChanges = Changes<Pick<PortfolioResponse, keyof PortfolioRequest & keyof PortfolioResponse>>;
/** A change of a building: any field of the building request, with the values the building answers. */
export type BuildingChanges = Changes<Pick<BuildingResponse, keyof BuildingRequest & keyof BuildingResponse>>;
/** A change of a material: any field of the material request (the id aside). */
export type MaterialChanges = Changes<Pick<Material, Exclude<keyof MaterialRequest & keyof Material, 'id'>>>;
/** A change of a product: any field of the product request (the id aside). */
export type ProductChanges = Changes<Pick<Product, Exclude<keyof ProductRequest & keyof Product, 'id'>>>;
/** A change of an element: any field of the element request but its id, in the request's terms. */
export type ElementChanges = Partial<Omit<BuildingFileElementRequest, 'id'>>;

// --- requests ---------------------------------------------------------------------------------------------------------

function pick(value: unknown, fields: readonly string[]): Record<string, unknown> {
  const source = isRecord(value) ? value : {};
  return Object.fromEntries(fields.map((name) => [name, source[name] ?? null]));
}

/**
 * An element's lookups as the one value the request carries. Several values are joined with a comma: phase matching
 * reads every word of it and classification the code it starts with, which is what the server does with the list.
 */
function joinLookups(values: readonly string[] | null): string | null {
  return values === null || values.length === 0 ? null : values.join(', ');
}

/** A lookup the request carries, as the list the server stores (empty for none). */
function lookupList(value: unknown): string[] {
  return typeof value === 'string' && value !== '' ? [value] : [];
}

function elementRequestOf(values: unknown): Record<string, unknown> {
  const element = (isRecord(values) ? values : {}) as Partial<BuildingFileElementResponse>;
  const derived: Record<string, unknown> = {
    materialId: element.mapping?.id ?? null,
    phaseLookup: joinLookups(element.phaseLookup ?? null),
    classificationLookup: joinLookups(element.classificationLookup ?? null),
  };
  return Object.fromEntries(
    ENTITIES.elements.request.map((name) => [name, name in derived ? derived[name] : ((element as Record<string, unknown>)[name] ?? null)]),
  );
}

/**
 * The full request a row's server-shaped values stand for, as a record of fields (a list as `{ items }`): what the
 * three-way merge compares and a replace sends.
 */
export function requestOf(entity: EditedEntity, values: unknown): Record<string, unknown> {
  const fields = ENTITIES[entity].request;
  if (isListEntity(entity)) return { items: (Array.isArray(values) ? values : []).map((item: unknown) => pick(item, fields)) };
  return entity === 'elements' ? elementRequestOf(values) : pick(values, fields);
}

/** A request record as the body on the wire: a list's items, else the record itself. */
export function wireBody(entity: EditedEntity, request: Record<string, unknown>): unknown {
  return isListEntity(entity) ? request['items'] : request;
}

/**
 * The body of a replace: the server's current values with the fields to apply. An element whose name fields changed
 * without its `materialId` goes without one, so refinement matches the new names; otherwise it keeps its mapping,
 * which the response only shows as `mapping` (whether the user set it or a rule found it).
 */
export function replaceBody(entity: EditedEntity, server: unknown, apply: Readonly<FlatFields>): unknown {
  const request = withFields(requestOf(entity, server), apply);
  if (entity === 'elements' && !('materialId' in apply) && ('materialName' in apply || 'typeName' in apply)) {
    request['materialId'] = null;
  }
  return wireBody(entity, request);
}

// --- applying changes to rows ---------------------------------------------------------------------------------------

/** The mapping type of each catalogue id an element change names (a product's type, else a material). */
export type MappingTypes = ReadonlyMap<string, number>;

function applyToElement(values: Record<string, unknown>, fields: Readonly<FlatFields>, types: MappingTypes): Record<string, unknown> {
  const element = { ...values };
  for (const [name, value] of Object.entries(fields)) {
    switch (name) {
      case 'id':
        break;
      case 'materialId':
        element['mapping'] = typeof value === 'string' && value !== '' ? { type: types.get(value) ?? ElementType.Material, id: value } : null;
        break;
      case 'phaseLookup':
      case 'classificationLookup':
        element[name] = lookupList(value);
        break;
      default:
        element[name] = value ?? null;
    }
  }
  return element;
}

/**
 * A row's server-shaped values with a change applied (a list's values are its items). What refinement derives from an
 * element's fields (matches, a mapping by name) stays as it was until the file is refined and pulled again.
 */
export function applyFields(entity: EditedEntity, values: unknown, fields: Readonly<FlatFields>, types: MappingTypes = new Map()): unknown {
  if (isListEntity(entity)) return 'items' in fields ? fields['items'] : values;
  const record = isRecord(values) ? values : {};
  return entity === 'elements' ? applyToElement(record, fields, types) : withFields(record, fields);
}

/** The mapping types of the catalogue ids that element changes name, read from the cached products. */
export async function mappingTypesOf(db: CacheDb, changes: ReadonlyArray<Readonly<FlatFields> | null>): Promise<MappingTypes> {
  const ids = [...new Set(changes.map((fields) => fields?.['materialId']).filter((id): id is string => typeof id === 'string' && id !== ''))];
  // Only an element's changes name catalogue ids: an edit of another table reads no products (nor holds their table).
  if (ids.length === 0) return new Map();
  const products = await db.products.bulkGet(ids);
  return new Map(products.flatMap((product) => (product === undefined ? [] : [[product.id, product.type] as const])));
}

// --- new rows ---------------------------------------------------------------------------------------------------------

function nulls(schema: TObject): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schema.properties).map((name) => [name, null]));
}

/** A row of a response schema: every field null but those given (the schema's non-nullable fields must be given). */
function rowWith<T>(schema: TObject, values: Partial<T>): T {
  return { ...nulls(schema), ...values } as T;
}

/** A new portfolio's row before its fields are applied. */
export function emptyPortfolio(id: string): PortfolioResponse {
  return { name: '', logo: null, id };
}

/** A new building's row before its fields are applied: what the server answers for a building with only a name. */
export function emptyBuilding(id: string, portfolioId: string): BuildingResponse {
  return rowWith<BuildingResponse>(BuildingResponse, {
    portfolioId,
    name: '',
    images: [],
    isDirty: false,
    hasDirtyElements: false,
    classificationType: NL_SFB_CLASSIFICATION_METHOD_ID,
    id,
  });
}

/** A new material's row before its fields are applied. */
export function emptyMaterial(id: string): Material {
  return rowWith<Material>(Material, {
    name: {},
    description: {},
    circular: rowWith<Material['circular']>(MaterialCircularInformation, {}),
    financial: rowWith<Material['financial']>(MaterialFinancialInformation, { importType: FinancialImportType.None }),
    id,
  });
}

/** A new product's row before its fields are applied. */
export function emptyProduct(id: string, type: Product['type']): Product {
  return rowWith<Product>(Product, {
    name: {},
    description: {},
    type,
    circular: rowWith<Product['circular']>(ProductCircularInformation, {}),
    fixedDimensions: [],
    defaultDimensions: [],
    id,
  });
}

/** A new element's row before its fields are applied. */
export function emptyElement(fileId: string, id: string): BuildingFileElementResponse {
  return rowWith<BuildingFileElementResponse>(BuildingFileElementResponse, { id, buildingFileId: fileId, phaseLookup: [], classificationLookup: [] });
}

// --- rows in tables ---------------------------------------------------------------------------------------------------

/** A row of an edited table, as stored. */
export type StoredRow = Record<string, unknown> & { base?: unknown };

/** The row of an outbox key. */
export async function getRow(db: CacheDb, entity: EditedEntity, key: string): Promise<StoredRow | undefined> {
  return (await getRows(db, entity, [key]))[0];
}

/** The rows of outbox keys, in that order; a file's elements are read a block at a time, not one by one. */
export async function getRows(db: CacheDb, entity: EditedEntity, keys: readonly string[]): Promise<(StoredRow | undefined)[]> {
  if (entity !== 'elements') return db.table<StoredRow, string>(entity).bulkGet([...keys]);
  const byFile = new Map<string, string[]>();
  for (const key of keys) {
    const { fileId, elementId } = splitElementKey(key);
    const ids = byFile.get(fileId) ?? [];
    ids.push(elementId);
    byFile.set(fileId, ids);
  }
  const found = new Map<string, StoredRow | undefined>();
  for (const [fileId, ids] of byFile) {
    const rows = await elementsByIds(db, fileId, ids);
    ids.forEach((id, index) => found.set(elementKey(fileId, id), rows[index] as StoredRow | undefined));
  }
  return keys.map((key) => found.get(key));
}

/** Removes the row of an outbox key; an element leaves a tombstone, which hides its server row in the blocks. */
export async function deleteRow(db: CacheDb, entity: EditedEntity, key: string): Promise<void> {
  if (entity !== 'elements') {
    await db.table<StoredRow, string>(entity).delete(key);
    return;
  }
  const { fileId, elementId } = splitElementKey(key);
  await db.elements.put({ buildingFileId: fileId, id: elementId, removed: true } as ElementRow);
}

/** A row's server-shaped values: the row without the cache's fields (a list: its items). */
export function valuesOf(entity: EditedEntity, row: StoredRow): unknown {
  return isListEntity(entity) ? (row as unknown as CatalogueListRow<unknown>).items : serverFieldsOf(row);
}

/** The row that holds `values` for an outbox key, with `base` when local changes are on top of the server's values. */
export function rowOf(entity: EditedEntity, key: string, values: unknown, base: unknown, at: string): StoredRow {
  const withBase = base === undefined ? {} : { base };
  if (isListEntity(entity)) return { ownerId: key, items: values, fetchedAt: at, ...withBase };
  return { ...(values as Record<string, unknown>), ...withBase };
}

/** A row's outbox entries in order. */
export async function entriesOfRow(db: CacheDb, entity: OutboxEntity, key: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[entity+key]').equals([entity, key]).sortBy('seq');
}
