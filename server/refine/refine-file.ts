/**
 * Refinement of a building file's elements (decisions §9): classification, brand layer, phase and mapping, written
 * back batch by batch. See README.md beside this file for the rules and decisions.
 */
import type { Kysely, Selectable } from 'kysely';
import { BuildingLevel, ElementType, Phase } from '../../shared/api/enums';
import { parseJsonColumn } from '../store/repositories/json';
import { NL_SFB_METHOD_ID, PLATFORM_DATABASE_ACCOUNT_ID } from '../store/seed/system-data';
import type { DatabaseSchema, ElementsTable, RefinedElementColumns } from '../store/tables';
import {
  buildCatalogueRules,
  matchCatalogue,
  productCodeRule,
  type CatalogueMapping,
  type CatalogueRule,
  type CatalogueRules,
  type ReadableCatalogueItems,
} from './catalogue-match';
import type { ClassificationHint } from '../imports/imported-element';
import { classifyElement } from './classify-element';
import { brandLayerOf, classificationCodeId, nlSfbCodeIndex, type NlSfbCodes } from './nl-sfb';
import { phaseOf } from './phase';
import { setsField } from '../services/user-fields';

/** What a refinement run did, over all elements of the file. */
export interface RefineOutcome {
  /** Elements with a mapping afterwards. */
  mapped: number;
  /** Elements without one. */
  unmapped: number;
  /** Elements with a classification match afterwards. */
  classified: number;
}

/** An element as refinement reads it; handed over (`RefineOptions.refined`) with its derived columns as written. */
export type RefinedElement = Pick<Selectable<ElementsTable>, (typeof READ_COLUMNS)[number]>;

/** Tuning of a run; the defaults suit production. */
export interface RefineOptions {
  /** Elements read, refined and written per transaction. */
  batchSize?: number;
  /** Hears every element once its batch is committed, in id order: what the file's figures read, without reading it again. */
  refined?: (element: RefinedElement) => void;
}

const DEFAULT_BATCH_SIZE = 1000;

const REFINED_COLUMNS: readonly (keyof RefinedElementColumns)[] = [
  'mappingType',
  'mappingId',
  'phaseMatchId',
  'phaseMatchName',
  'brandLayerMatchId',
  'brandLayerMatchName',
  'classificationMatchId',
  'classificationMatchName',
  'classificationMatchCode',
  'classificationSource',
  'mappingSource',
];

/** The columns refinement reads: what it refines from, and the quantities the figures take from a refined element. */
const READ_COLUMNS = [
  'id',
  'volume',
  'area',
  'length',
  'weight',
  'quantitySource',
  'geometryIssue',
  'materialName',
  'typeName',
  'materialId',
  'phaseLookup',
  'classificationLookup',
  'classificationHints',
  'materialHints',
  'elementClass',
  'userFields',
  ...REFINED_COLUMNS,
] as const;

/** The classification columns of an element. */
type ClassificationColumns = Pick<
  RefinedElementColumns,
  'classificationMatchId' | 'classificationMatchName' | 'classificationMatchCode' | 'classificationSource' | 'brandLayerMatchId' | 'brandLayerMatchName'
>;
/** The phase columns of an element. */
type PhaseColumns = Pick<RefinedElementColumns, 'phaseMatchId' | 'phaseMatchName'>;

/** Results kept per distinct lookup text: models repeat a few hundred values over many thousand elements. */
const LOOKUP_MEMO_LIMIT = 100_000;

/** What one run needs besides the elements: loaded once, and the results of lookups already seen. */
interface RefineContext {
  codes: NlSfbCodes;
  rules: CatalogueRules;
  readableDatabases: string[];
  classificationByLookup: Map<string, ClassificationColumns>;
  phaseByLookup: Map<string, PhaseColumns>;
}

/** Elements per UPDATE … WHERE id IN (…): well under the bound-parameter limits of SQLite and PostgreSQL. */
const IDS_PER_UPDATE = 500;

/**
 * Refines every element of building file `fileId` in ascending id order, `batchSize` elements per transaction, and
 * reports `progress(processed, total)` once before the first batch and after each committed batch. Only elements whose
 * derived columns change are written. Running it again gives the same result, and so does a rerun after a run that
 * stopped between batches: each element's result depends only on the element and the catalogue, never on the run.
 */
export async function refineFile(
  db: Kysely<DatabaseSchema>,
  fileId: string,
  progress: (processed: number, total: number) => Promise<void> | void,
  options: RefineOptions = {},
): Promise<RefineOutcome> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const refinement = await FileRefinement.load(db, fileId);
  const counted = await db
    .selectFrom('elements')
    .select((eb) => eb.fn.countAll<number | bigint>().as('count'))
    .where('buildingFileId', '=', fileId)
    .executeTakeFirstOrThrow();
  let total = Number(counted.count);
  await progress(0, total);

  const outcome: RefineOutcome = { mapped: 0, unmapped: 0, classified: 0 };
  let processed = 0;
  let lastId: string | null = null;
  for (;;) {
    const after = lastId;
    // Read, refine and write one batch in one transaction: a run that stops leaves whole batches behind.
    const batch = await db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('elements').select(READ_COLUMNS).where('buildingFileId', '=', fileId);
      if (after !== null) query = query.where('id', '>', after);
      return refinement.refineStored(trx, await query.orderBy('id').limit(batchSize).execute(), outcome);
    });
    if (options.refined !== undefined) batch.forEach(options.refined);
    const last = batch.at(-1);
    if (last === undefined) break;

    processed += batch.length;
    total = Math.max(total, processed);
    lastId = last.id;
    await progress(processed, total);
    if (batch.length < batchSize) break;
  }
  return outcome;
}

/**
 * An element as an import reads it, with its lookups and hints as the tables store them (JSON text) and the catalogue
 * item its source names by id (a spreadsheet's Material/Product id), if any.
 */
export type ImportedForRefinement = Pick<
  RefinedElement,
  'materialName' | 'typeName' | 'materialId' | 'phaseLookup' | 'classificationLookup' | 'classificationHints' | 'materialHints' | 'elementClass'
>;

/** What refinement reads of an element; without `userFields`, no user has edited it. */
type RefinableElement = ImportedForRefinement & Partial<Pick<RefinedElement, 'userFields'>>;

/**
 * The refinement of one file's elements with the codes and the catalogue as they were when it was loaded: what
 * `refineFile` does, for elements an import is about to store as well as for stored ones.
 */
export class FileRefinement {
  private constructor(
    private readonly fileId: string,
    private readonly context: RefineContext,
  ) {}

  /** Loads the codes, the match rules and the readable databases of the file's building; throws if the file does not exist. */
  static async load(db: Kysely<DatabaseSchema>, fileId: string): Promise<FileRefinement> {
    return new FileRefinement(fileId, await loadRefineContext(db, fileId));
  }

  /**
   * The catalogue items among `ids` that the file's building can read, for {@link ofImported}: one read for a batch of
   * imported elements, none when no element names an item.
   */
  readableItems(db: Kysely<DatabaseSchema>, ids: readonly (string | null)[]): Promise<ReadableCatalogueItems> {
    return readableItems(db, ids, this.context.readableDatabases);
  }

  /**
   * The derived columns of an element an import has read, before it is stored: what a run over the stored element
   * would write. No user has edited it; the item its `materialId` names maps it when `readable` holds that item.
   */
  ofImported(element: ImportedForRefinement, readable: ReadableCatalogueItems): RefinedElementColumns {
    return refineElement(element, this.context, readable);
  }

  /** Stored elements refined by id, in `trx`: each read, refined and written where its derived columns change. */
  async refineById(trx: Kysely<DatabaseSchema>, ids: readonly string[]): Promise<RefinedElement[]> {
    const refined: RefinedElement[] = [];
    for (let first = 0; first < ids.length; first += IDS_PER_UPDATE) {
      const elements = await trx
        .selectFrom('elements')
        .select(READ_COLUMNS)
        .where('buildingFileId', '=', this.fileId)
        .where('id', 'in', ids.slice(first, first + IDS_PER_UPDATE))
        .orderBy('id')
        .execute();
      refined.push(...(await this.refineStored(trx, elements, { mapped: 0, unmapped: 0, classified: 0 })));
    }
    return refined;
  }

  /** Refines elements read from the file in `trx`, writes those whose derived columns change, and counts them in `outcome`. */
  async refineStored(trx: Kysely<DatabaseSchema>, elements: readonly RefinedElement[], outcome: RefineOutcome): Promise<RefinedElement[]> {
    const readable = await readableItems(
      trx,
      elements.map((element) => element.materialId),
      this.context.readableDatabases,
    );
    // Elements whose derived columns change, grouped by their new values: one UPDATE per group.
    const changes = new Map<string, { columns: RefinedElementColumns; ids: string[] }>();
    const refined: RefinedElement[] = [];
    for (const element of elements) {
      const columns = refineElement(element, this.context, readable);
      refined.push({ ...element, ...columns });
      if (columns.mappingId === null) outcome.unmapped += 1;
      else outcome.mapped += 1;
      if (columns.classificationMatchId !== null) outcome.classified += 1;
      // Only what changes is written, so a rerun over refined elements costs reads only.
      if (REFINED_COLUMNS.every((column) => element[column] === columns[column])) continue;
      const key = JSON.stringify(REFINED_COLUMNS.map((column) => columns[column]));
      const group = changes.get(key);
      if (group === undefined) changes.set(key, { columns, ids: [element.id] });
      else group.ids.push(element.id);
    }
    for (const { columns, ids } of changes.values()) {
      for (let first = 0; first < ids.length; first += IDS_PER_UPDATE) {
        await trx
          .updateTable('elements')
          .set(columns)
          .where('buildingFileId', '=', this.fileId)
          .where('id', 'in', ids.slice(first, first + IDS_PER_UPDATE))
          .execute();
      }
    }
    return refined;
  }
}

/** The derived columns of one element. */
function refineElement(element: RefinableElement, context: RefineContext, readable: ReadableCatalogueItems): RefinedElementColumns {
  // Without a readable materialId and a matching rule the element is unmapped, whatever an earlier run found.
  const mapping = matchCatalogue(
    {
      materialName: element.materialName,
      typeName: element.typeName,
      materialId: element.materialId,
      materialHints: lookupValues(element.materialHints, 'materialHints'),
    },
    context.rules,
    readable,
  );
  // Named, not spread: this runs for every element an import reads.
  const phase = phaseColumns(element.phaseLookup, context);
  const classification = classificationColumns(element, context);
  return {
    mappingType: mapping?.type ?? null,
    mappingId: mapping?.id ?? null,
    mappingSource: mapping?.source ?? null,
    phaseMatchId: phase.phaseMatchId,
    phaseMatchName: phase.phaseMatchName,
    brandLayerMatchId: classification.brandLayerMatchId,
    brandLayerMatchName: classification.brandLayerMatchName,
    classificationMatchId: classification.classificationMatchId,
    classificationMatchName: classification.classificationMatchName,
    classificationMatchCode: classification.classificationMatchCode,
    classificationSource: classification.classificationSource,
  };
}

/** Classification and brand layer of an element, from its lookups, the importer's hints and its class. */
function classificationColumns(element: RefinableElement, context: RefineContext): ClassificationColumns {
  // The lookups are the user's word where a user set them (decisions §3).
  const lookupsByUser = setsField(element.userFields ?? null, 'classificationLookup');
  // Models repeat a few hundred combinations over many thousand elements.
  const key = `${lookupsByUser ? 1 : 0}\u0000${element.elementClass ?? ''}\u0000${element.classificationLookup}\u0000${element.classificationHints}`;
  const known = context.classificationByLookup.get(key);
  if (known !== undefined) return known;
  const classification = classifyElement(
    {
      lookups: lookupValues(element.classificationLookup, 'classificationLookup'),
      hints: hintsOf(element.classificationHints),
      lookupsByUser,
      elementClass: element.elementClass,
    },
    context.codes,
  );
  const layer = BuildingLevel[brandLayerOf(classification?.code.code ?? null)];
  const columns: ClassificationColumns = {
    brandLayerMatchId: layer.id,
    brandLayerMatchName: layer.label,
    classificationMatchId: classification === null ? null : classificationCodeId(NL_SFB_METHOD_ID, classification.code.code),
    classificationMatchName: classification?.code.name ?? null,
    classificationMatchCode: classification?.code.code ?? null,
    classificationSource: classification?.source ?? null,
  };
  remember(context.classificationByLookup, key, columns);
  return columns;
}

const HINT_SOURCES: ReadonlySet<unknown> = new Set<ClassificationHint['source']>(['model', 'layer', 'inferred']);

/** The importer's hints of a `classificationHints` column; anything malformed in it is left out. */
function hintsOf(column: string): ClassificationHint[] {
  const value = parseJsonColumn<unknown>(column, 'elements.classificationHints');
  if (!Array.isArray(value)) return [];
  return value.filter(
    (hint): hint is ClassificationHint =>
      typeof hint === 'object' && hint !== null && HINT_SOURCES.has((hint as ClassificationHint).source) && typeof (hint as ClassificationHint).code === 'string',
  );
}

/** Phase of a `phaseLookup` column. */
function phaseColumns(lookup: string, context: RefineContext): PhaseColumns {
  const known = context.phaseByLookup.get(lookup);
  if (known !== undefined) return known;
  const phase = Phase[phaseOf(lookupValues(lookup, 'phaseLookup'))];
  const columns: PhaseColumns = { phaseMatchId: phase.id, phaseMatchName: phase.name };
  remember(context.phaseByLookup, lookup, columns);
  return columns;
}

function remember<Value>(memo: Map<string, Value>, key: string, value: Value): void {
  if (memo.size >= LOOKUP_MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}

/** The strings of a lookup column (a JSON array of strings); anything else in it is ignored. */
function lookupValues(column: string, name: string): string[] {
  const value = parseJsonColumn<unknown>(column, `elements.${name}`);
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Codes, rules and databases of a run. */
async function loadRefineContext(db: Kysely<DatabaseSchema>, fileId: string): Promise<RefineContext> {
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
async function readableItems(
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
