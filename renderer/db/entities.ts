/**
 * The editable entities: the tables whose rows the user edits and whose changes go through the outbox. Each one is
 * described here once, and the outbox, the edit shapes, the push and the pull read this table: adding an entity is a
 * line here (with its Dexie table in `cache-db.ts` and its row type in `schema.ts`) and whatever new behaviour it has.
 */
import type { TObject } from 'typebox';
import type { OperationId } from '../../shared/api/routes';
import {
  BuildingFileElementRequest,
  BuildingRequest,
  MaterialFinancialValueRequest,
  MaterialMatchRequest,
  MaterialRequest,
  PortfolioRequest,
  ProductChildRequest,
  ProductFinancialValueRequest,
  ProductMatchRequest,
  ProductRequest,
} from '../../shared/api/schemas';
import { ELEMENT_TABLES } from './element-blocks';
import { splitElementKey } from './schema';

/** The request fields of a schema, without those the path or the server decides. */
function fieldsOf(schema: TObject, except: readonly string[] = []): readonly string[] {
  return Object.keys(schema.properties).filter((name) => !except.includes(name));
}

/** Path params of a row named by its key alone. */
function idParams(key: string): { id: string } {
  return { id: key };
}

/** How a create whose id the server gives is made without a duplicate (see `../sync/push-create.ts`). */
interface ServerIdCreate {
  /** The collection listed before a create is sent, to find one an earlier attempt made. */
  list: OperationId;
  /** The fields a create is recognised by in that list. */
  identity: readonly string[];
  /** Made in the key's own database, which the list shows only when asked by its id. */
  ownDatabase: boolean;
}

/** The operations the push sends for an entity's entries. */
interface PushOperations {
  /** Reads the server's row (a list: all its items), what an update is merged with. */
  get: OperationId;
  /** Replaces the row entirely. */
  replace: OperationId;
  /** null: the API has no create of one (a catalogue list exists with its item). */
  create: OperationId | null;
  /** null: the API cannot delete one. */
  remove: OperationId | null;
  /** The path params of the row's requests, from its outbox key (an element's name its file's building too). */
  params: (key: string, buildingId: string) => Record<string, string>;
  /** The path params of a create, when its collection has any. */
  createParams?: (key: string, buildingId: string) => Record<string, string>;
  /** null: the client gives the id (an element) or there is no create. */
  serverId: ServerIdCreate | null;
}

/** What the outbox, the edits, the push and the pull know of an entity. */
export interface EntityDescriptor {
  /** Entries of one aggregate (`<prefix>:<key>`) are pushed in order, aggregates independently. */
  aggregate: 'portfolio' | 'building' | 'file' | 'material' | 'product';
  /** The key the aggregate is named by, when it is not the row's own: a file's elements go as one batch. */
  aggregateKey?: (key: string) => string;
  /** The fields of the request a row stands for (a list: of each item); null when edits never change the table. */
  request: readonly string[] | null;
  /** A catalogue sub-resource list (one row per item, replaced whole) and the table of its item; else null. */
  listOwner: 'materials' | 'products' | null;
  /** The tables an edit of the entity reads and writes besides the outbox's. */
  tables: readonly string[];
  /** null: the push sends none of its entries on their own (a file's go with its batch). */
  push: PushOperations | null;
}

export const ENTITIES = {
  portfolios: {
    aggregate: 'portfolio',
    request: fieldsOf(PortfolioRequest),
    listOwner: null,
    tables: ['portfolios'],
    push: {
      get: 'getPortfolio',
      replace: 'replacePortfolio',
      create: 'createPortfolio',
      remove: 'deletePortfolio',
      params: idParams,
      serverId: { list: 'listPortfolios', identity: ['name'], ownDatabase: false },
    },
  },
  buildings: {
    aggregate: 'building',
    request: fieldsOf(BuildingRequest),
    listOwner: null,
    tables: ['buildings'],
    push: {
      get: 'getBuilding',
      replace: 'replaceBuilding',
      create: 'createBuilding',
      remove: 'deleteBuilding',
      params: idParams,
      serverId: { list: 'listBuildings', identity: ['name', 'portfolioId'], ownDatabase: false },
    },
  },
  files: { aggregate: 'file', request: null, listOwner: null, tables: ['files'], push: null },
  elements: {
    aggregate: 'file',
    aggregateKey: (key: string) => splitElementKey(key).fileId,
    request: fieldsOf(BuildingFileElementRequest),
    listOwner: null,
    // An element's server row is in its file's blocks; a change naming a catalogue id reads the products for its type.
    tables: [...ELEMENT_TABLES, 'products'],
    push: {
      get: 'getElement',
      replace: 'replaceElement',
      create: 'createElement',
      remove: 'deleteElement',
      params: (key: string, buildingId: string) => ({ buildingId, ...splitElementKey(key) }),
      createParams: (key: string, buildingId: string) => ({ buildingId, fileId: splitElementKey(key).fileId }),
      serverId: null,
    },
  },
  materials: {
    aggregate: 'material',
    request: fieldsOf(MaterialRequest, ['id']),
    listOwner: null,
    tables: ['materials'],
    push: {
      get: 'getMaterial',
      replace: 'replaceMaterial',
      create: 'createMaterial',
      remove: null,
      params: idParams,
      serverId: { list: 'listMaterials', identity: ['name'], ownDatabase: true },
    },
  },
  // An item's lists share its aggregate, so they wait for its create.
  materialMatches: {
    aggregate: 'material',
    request: fieldsOf(MaterialMatchRequest),
    listOwner: 'materials',
    tables: ['materialMatches', 'materials'],
    push: { get: 'listMaterialMatches', replace: 'replaceMaterialMatches', create: null, remove: null, params: idParams, serverId: null },
  },
  materialFinancialValues: {
    aggregate: 'material',
    request: fieldsOf(MaterialFinancialValueRequest),
    listOwner: 'materials',
    tables: ['materialFinancialValues', 'materials'],
    push: { get: 'listMaterialFinancialValues', replace: 'replaceMaterialFinancialValues', create: null, remove: null, params: idParams, serverId: null },
  },
  products: {
    aggregate: 'product',
    request: fieldsOf(ProductRequest, ['id']),
    listOwner: null,
    tables: ['products'],
    push: {
      get: 'getProduct',
      replace: 'replaceProduct',
      create: 'createProduct',
      remove: null,
      params: idParams,
      serverId: { list: 'listProducts', identity: ['name', 'type'], ownDatabase: true },
    },
  },
  productMatches: {
    aggregate: 'product',
    request: fieldsOf(ProductMatchRequest),
    listOwner: 'products',
    tables: ['productMatches', 'products'],
    push: { get: 'listProductMatches', replace: 'replaceProductMatches', create: null, remove: null, params: idParams, serverId: null },
  },
  productChildren: {
    aggregate: 'product',
    request: fieldsOf(ProductChildRequest),
    listOwner: 'products',
    tables: ['productChildren', 'products'],
    push: { get: 'listProductChildren', replace: 'replaceProductChildren', create: null, remove: null, params: idParams, serverId: null },
  },
  productFinancialValues: {
    aggregate: 'product',
    request: fieldsOf(ProductFinancialValueRequest),
    listOwner: 'products',
    tables: ['productFinancialValues', 'products'],
    push: { get: 'listProductFinancialValues', replace: 'replaceProductFinancialValues', create: null, remove: null, params: idParams, serverId: null },
  },
} as const satisfies Readonly<Record<string, EntityDescriptor>>;

type Entities = typeof ENTITIES;

/** A table whose rows the user edits, and so the entity of outbox entries. */
export type OutboxEntity = keyof Entities;

/** The tables the edit functions change (files are changed by uploads, not edits). */
export type EditedEntity = { [E in OutboxEntity]: Entities[E]['push'] extends null ? never : E }[OutboxEntity];

/** The catalogue sub-resource lists: one row per item, replaced as a whole. */
export type CatalogueListTable = { [E in OutboxEntity]: Entities[E]['listOwner'] extends null ? never : E }[OutboxEntity];

/** A catalogue table, the owner of sub-resource lists. */
export type CatalogueOwner = NonNullable<Entities[CatalogueListTable]['listOwner']>;

/** The resources whose ids the server gives. */
export type CreatedEntity = { [E in OutboxEntity]: Entities[E]['push'] extends { serverId: ServerIdCreate } ? E : never }[OutboxEntity];

/** Every editable entity, in the order of the table. */
export const OUTBOX_ENTITIES = Object.keys(ENTITIES) as OutboxEntity[];

/** Whether a table is an editable entity's. */
export function isOutboxEntity(table: string): table is OutboxEntity {
  return Object.hasOwn(ENTITIES, table);
}

/** Whether a table holds catalogue sub-resource lists. */
export function isListEntity(entity: OutboxEntity): entity is CatalogueListTable {
  return ENTITIES[entity].listOwner !== null;
}

/** Whether the server gives the id of a created row. */
export function isCreatedEntity(entity: EditedEntity): entity is CreatedEntity {
  return ENTITIES[entity].push.serverId !== null;
}

/** The catalogue sub-resource lists. */
export const LIST_ENTITIES = OUTBOX_ENTITIES.filter(isListEntity);

/** The sub-resource lists of a table's items (none for a table that is no catalogue). */
export function listsOwnedBy(table: string): readonly CatalogueListTable[] {
  return LIST_ENTITIES.filter((list) => ENTITIES[list].listOwner === table);
}

/** The sub-resource lists of each catalogue table. */
export const CATALOGUE_DETAILS: Readonly<Record<CatalogueOwner, readonly CatalogueListTable[]>> = {
  materials: listsOwnedBy('materials'),
  products: listsOwnedBy('products'),
};

/** The tables an edit of an entity reads and writes besides the outbox's. */
export function tablesOf(entity: OutboxEntity): readonly string[] {
  return ENTITIES[entity].tables;
}

/** Every table an edit of any entity may read or write besides the outbox's. */
export const ENTITY_TABLES: readonly string[] = [...new Set(OUTBOX_ENTITIES.flatMap(tablesOf))];
