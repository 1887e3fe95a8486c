/**
 * Refinement of a building file's elements (decisions §9): classification, brand layer, phase and mapping, written
 * back batch by batch: the run over a file's stored elements, and the same refinement for an import's elements. What
 * one element's columns are is `refine-element.ts`'s, what a run loads first `refine-context.ts`'s. See README.md beside
 * this file for the rules and decisions.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseSchema, ElementsTable, RefinedElementColumns } from '../store/tables';
import type { ReadableCatalogueItems } from './catalogue-match';
import { loadRefineContext, readableItems, type RefineContext } from './refine-context';
import { refineElement, type ImportedForRefinement } from './refine-element';

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
