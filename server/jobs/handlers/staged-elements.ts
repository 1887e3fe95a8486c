/**
 * Writing an import's elements into the staging table: each element refined as it is read, its row written with the
 * others of its batch, in one transaction per batch. An import stages every element of a file, so the rows are built
 * as flat parameter lists and each INSERT is compiled once per size (a few sizes only), not built anew for each batch.
 *
 * A row binds 34 values, and binding and storing them is most of what staging costs. The later parts of a split
 * element (server/imports/ifc/element-parts.ts) differ from the part before them only in what they have of their own,
 * so such a part is staged as a copy of the row of the first part of its run, binding its own 11 values.
 */
import { sql, type CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { ImportedElement } from '../../imports/imported-element';
import type { FileRefinement } from '../../refine/refine-file';
import { compiledStatement } from '../../store/compiled-query';
import type { DatabaseSchema, RefinedElementColumns, StagedElementsTable } from '../../store/tables';
import { reportElementOf } from './calc-inputs';
import type { ReportElementColumns } from './report-element-columns';

/** Rows per INSERT: 500 rows of 34 columns stay well under SQLite's and PostgreSQL's bound-parameter limits. */
export const STAGED_ROWS_PER_INSERT = 500;

/** The columns of a staged row, in the order its values are bound: every column `elements` takes from it. */
export const STAGED_COLUMNS = [
  'buildingFileId', 'id', 'name', 'materialName', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width', 'length',
  'weight', 'phaseLookup', 'classificationLookup', 'floor', 'classificationHints', 'materialHints', 'quantitySource',
  'geometryIssue', 'mappingType', 'mappingId', 'mappingSource', 'phaseMatchId', 'phaseMatchName', 'brandLayerMatchId',
  'brandLayerMatchName', 'classificationMatchId', 'classificationMatchName', 'classificationMatchCode', 'classificationSource',
  'materialId',
  'partOf', 'partKind', 'partShareAssumed',
] as const satisfies readonly (keyof StagedElementsTable)[];

type StagedColumn = (typeof STAGED_COLUMNS)[number];

/**
 * What a part has of its own (../../imports/part-batches.ts, `PartOwn`) and what refinement derives from it (its
 * mapping, by its material), with the SQL type of each: PostgreSQL types the columns of a VALUES list by them.
 */
const PART_OWN_COLUMNS = {
  id: 'text',
  materialName: 'text',
  volume: 'double precision',
  width: 'double precision',
  weight: 'double precision',
  quantitySource: 'text',
  mappingType: 'integer',
  mappingId: 'text',
  mappingSource: 'text',
} as const satisfies Partial<Record<StagedColumn, string>>;

type PartOwnColumn = keyof typeof PART_OWN_COLUMNS;
const PART_OWN = Object.keys(PART_OWN_COLUMNS) as PartOwnColumn[];
/** The columns a part's row takes from the row it copies. */
const PART_SHARED = STAGED_COLUMNS.filter((column): column is Exclude<StagedColumn, PartOwnColumn> => !(column in PART_OWN_COLUMNS));
/** The values of a copied part: its own, then the id and `partOf` of the row it copies. */
const COPY_TYPES = [...Object.values(PART_OWN_COLUMNS), 'text', 'text'] as const;

/** Statement sizes, largest first: a batch is written in chunks of these, so each kind of INSERT is compiled a few times only. */
const CHUNK_SIZES = [STAGED_ROWS_PER_INSERT, 256, 128, 64, 32, 16, 8, 4, 2, 1];

type StagedValue = string | number | null;

/** The rows of a flat value list, STAGED_COLUMNS.length values each. */
function rowsOf(values: readonly StagedValue[]): Insertable<StagedElementsTable>[] {
  const width = STAGED_COLUMNS.length;
  const rows: Insertable<StagedElementsTable>[] = [];
  for (let start = 0; start < values.length; start += width) {
    const row: Record<string, StagedValue> = {};
    STAGED_COLUMNS.forEach((column, index) => {
      row[column] = values[start + index] ?? null;
    });
    rows.push(row as unknown as Insertable<StagedElementsTable>);
  }
  return rows;
}

function insertRows(db: Kysely<DatabaseSchema>, ...values: StagedValue[]) {
  // Importers already drop duplicate ids; the conflict clause keeps a rerun of a half-written batch harmless.
  return db
    .insertInto('staged_elements')
    .values(rowsOf(values))
    .onConflict((oc) => oc.columns(['buildingFileId', 'id']).doNothing());
}

/** The VALUES list of copied parts: column n of a row is COPY_TYPES[n - 1]. */
type CopyValues = Record<`column${number}`, StagedValue>;

/**
 * Parts as copies of staged rows: `values` holds COPY_TYPES.length values per part, then the file's id. A part is
 * written only where its file has a row of the id it copies that is a part of the same element.
 */
function insertPartCopies(db: Kysely<DatabaseSchema>, ...values: StagedValue[]) {
  const width = COPY_TYPES.length;
  const rows = [];
  for (let start = 0; start + width <= values.length; start += width) {
    rows.push(sql`(${sql.join(COPY_TYPES.map((type, index) => sql`cast(${values[start + index] ?? null} as ${sql.raw(type)})`))})`);
  }
  const copied = sql<CopyValues>`(values ${sql.join(rows)})`.as('copied');
  const column = (position: number) => sql.ref<string>(`copied.column${position}`);
  return db
    .insertInto('staged_elements')
    .columns([...PART_OWN, ...PART_SHARED])
    .expression(
      db
        .selectFrom(copied)
        // Each part looks its row up by id: SQLite's CROSS JOIN keeps that order (a plan of its own choosing may read
        // every staged row of the file against an index of the list, for every statement).
        .crossJoin('staged_elements as source')
        .select([
          ...PART_OWN.map((own, index) => column(index + 1).as(own)),
          ...PART_SHARED.map((shared) => sql.ref(`source.${shared}`).as(shared)),
        ])
        .where((eb) =>
          eb.and([
            eb('source.id', '=', column(PART_OWN.length + 1)),
            eb('source.partOf', '=', column(PART_OWN.length + 2)),
            sql<boolean>`${sql.ref('source.buildingFileId')} = ${values.at(-1) ?? null}`,
          ]),
        ),
    )
    .onConflict((oc) => oc.columns(['buildingFileId', 'id']).doNothing());
}

/** An INSERT of `size` rows of one kind, compiled once per database. */
interface ChunkStatement {
  size: number;
  compile: (db: Kysely<DatabaseSchema>, ...values: StagedValue[]) => CompiledQuery<unknown>;
}

const insertRowsBySize: ChunkStatement[] = CHUNK_SIZES.map((size) => ({ size, compile: compiledStatement(insertRows) }));
const insertCopiesBySize: ChunkStatement[] = CHUNK_SIZES.map((size) => ({ size, compile: compiledStatement(insertPartCopies) }));

/**
 * Writes flat rows of `width` values in `trx`, a transaction of `db`, in chunks of CHUNK_SIZES, with `after` appended to
 * each chunk's values; answers the rows written.
 */
async function writeInChunks(
  db: Kysely<DatabaseSchema>,
  trx: Kysely<DatabaseSchema>,
  statements: readonly ChunkStatement[],
  values: readonly StagedValue[],
  width: number,
  after: readonly StagedValue[],
): Promise<number> {
  let written = 0;
  let start = 0;
  for (const { size, compile } of statements) {
    while (values.length - start >= size * width) {
      const result = await trx.executeQuery(compile(db, ...values.slice(start, start + size * width), ...after));
      written += Number(result.numAffectedRows ?? 0);
      start += size * width;
    }
  }
  return written;
}

/** A stored text without U+0000: a source file may encode it (IFC `\X2\0000\X0\`, a spreadsheet cell), and PostgreSQL cannot store it. */
function storedText<Text extends string | null>(value: Text): Text {
  return (value !== null && value.includes('\0') ? value.replaceAll('\0', '') : value) as Text;
}

/**
 * The JSON text of a lookup array, kept for the last array seen: the parts of a split element share their element's
 * arrays (server/imports/ifc/element-parts.ts), so a part's texts are its previous sibling's.
 */
class LastJson {
  private last: readonly unknown[] | undefined;
  private text = '';

  of(value: readonly unknown[]): string {
    if (value !== this.last) {
      this.last = value;
      this.text = JSON.stringify(value);
    }
    return this.text;
  }
}

/** The texts of an element that refinement reads and the row stores. */
interface StagedLookups {
  materialName: string | null;
  typeName: string | null;
  materialId: string | null;
  elementClass: string | null;
  phaseLookup: string;
  classificationLookup: string;
  classificationHints: string;
  materialHints: string;
}

/** The lookup arrays of a batch as JSON texts. */
class LookupTexts {
  readonly phaseLookup = new LastJson();
  readonly classificationLookup = new LastJson();
  readonly classificationHints = new LastJson();
  readonly materialHints = new LastJson();

  of(element: ImportedElement): StagedLookups {
    return {
      materialName: storedText(element.materialName),
      typeName: storedText(element.typeName),
      materialId: storedText(element.materialId ?? null),
      elementClass: storedText(element.elementClass),
      phaseLookup: this.phaseLookup.of(element.phaseLookup),
      classificationLookup: this.classificationLookup.of(element.classificationLookup),
      classificationHints: this.classificationHints.of(element.classificationHints),
      materialHints: this.materialHints.of(element.materialHints),
    };
  }
}

/** A row staged whole that the next parts of its element may copy. */
interface CopySource {
  element: ImportedElement;
  id: string;
  partOf: string;
  lookups: StagedLookups;
}

/**
 * Whether `part`'s row is `source`'s but for what a part has of its own: a part of the same element, with every other
 * field equal (refinement derives the same from them).
 */
function copiesRow(part: ImportedElement, source: CopySource, texts: LookupTexts): boolean {
  const { element } = source;
  return (
    part.part !== null &&
    element.part !== null &&
    part.part.of === element.part.of &&
    part.part.kind === element.part.kind &&
    part.part.shareAssumed === element.part.shareAssumed &&
    part.name === element.name &&
    part.typeName === element.typeName &&
    part.elementClass === element.elementClass &&
    part.area === element.area &&
    part.height === element.height &&
    part.length === element.length &&
    part.floor === element.floor &&
    part.geometryIssue === element.geometryIssue &&
    (part.materialId ?? null) === (element.materialId ?? null) &&
    texts.phaseLookup.of(part.phaseLookup) === source.lookups.phaseLookup &&
    texts.classificationLookup.of(part.classificationLookup) === source.lookups.classificationLookup &&
    texts.classificationHints.of(part.classificationHints) === source.lookups.classificationHints &&
    texts.materialHints.of(part.materialHints) === source.lookups.materialHints
  );
}

/** Appends the values of an element's whole row, in STAGED_COLUMNS order. */
function pushRow(values: StagedValue[], fileId: string, id: string, element: ImportedElement, lookups: StagedLookups, derived: RefinedElementColumns): void {
  const { part } = element;
  values.push(
    fileId, id, storedText(element.name), lookups.materialName, lookups.typeName, lookups.elementClass, element.volume,
    element.area, element.height, element.width, element.length, element.weight, lookups.phaseLookup,
    lookups.classificationLookup, storedText(element.floor), lookups.classificationHints, lookups.materialHints,
    element.quantitySource, element.geometryIssue, derived.mappingType, derived.mappingId, derived.mappingSource,
    derived.phaseMatchId, derived.phaseMatchName, derived.brandLayerMatchId, derived.brandLayerMatchName,
    derived.classificationMatchId, derived.classificationMatchName, derived.classificationMatchCode, derived.classificationSource,
    lookups.materialId,
    part === null ? null : storedText(part.of), part?.kind ?? null, part === null ? null : part.shareAssumed ? 1 : 0,
  );
}

/**
 * Stages a batch of elements of file `fileId` (at most STAGED_ROWS_PER_INSERT), each refined with `refinement`, and
 * adds what the file's figures read of each to `report`. The rows are those of the elements one by one, in order.
 */
export async function stageElementBatch(
  db: Kysely<DatabaseSchema>,
  fileId: string,
  elements: readonly ImportedElement[],
  refinement: FileRefinement,
  report: ReportElementColumns,
): Promise<void> {
  // A spreadsheet may name items by id: those the building can read, in one read per batch.
  const readable = await refinement.readableItems(db, elements.map((element) => element.materialId ?? null));
  const ids = elements.map((element) => storedText(element.id));
  // Copies are written after the whole rows: with an id twice in the batch that would change which row is kept.
  const copying = new Set(ids).size === ids.length;
  const texts = new LookupTexts();
  const whole: StagedValue[] = [];
  const copies: StagedValue[] = [];
  /** The elements staged as copies, by position in the batch. */
  const copied: number[] = [];
  let source: CopySource | undefined;
  elements.forEach((element, index) => {
    const id = ids[index] ?? '';
    let lookups: StagedLookups;
    let derived: RefinedElementColumns;
    if (copying && source !== undefined && copiesRow(element, source, texts)) {
      lookups = { ...source.lookups, materialName: storedText(element.materialName) };
      derived = refinement.ofImported(lookups, readable);
      copies.push(
        id, lookups.materialName, element.volume, element.width, element.weight, element.quantitySource, derived.mappingType,
        derived.mappingId, derived.mappingSource, source.id, source.partOf,
      );
      copied.push(index);
    } else {
      lookups = texts.of(element);
      derived = refinement.ofImported(lookups, readable);
      pushRow(whole, fileId, id, element, lookups, derived);
      source = element.part === null ? undefined : { element, id, partOf: storedText(element.part.of), lookups };
    }
    report.add(
      reportElementOf({
        id,
        volume: element.volume,
        area: element.area,
        length: element.length,
        weight: element.weight,
        materialName: lookups.materialName,
        materialId: lookups.materialId,
        classificationMatchId: derived.classificationMatchId,
        brandLayerMatchId: derived.brandLayerMatchId,
        mappingType: derived.mappingType,
        mappingId: derived.mappingId,
        elementClass: lookups.elementClass,
        typeName: lookups.typeName,
        mappingSource: derived.mappingSource,
        quantitySource: element.quantitySource,
        geometryIssue: element.geometryIssue,
        classificationSource: derived.classificationSource,
      }),
    );
  });
  await db.transaction().execute(async (trx) => {
    await writeInChunks(db, trx, insertRowsBySize, whole, STAGED_COLUMNS.length, []);
    if (copied.length === 0) return;
    const written = await writeInChunks(db, trx, insertCopiesBySize, copies, COPY_TYPES.length, [fileId]);
    if (written === copied.length) return;
    // A part whose first sibling's row lost its id to an earlier row, or whose own id was taken: the parts of the
    // batch as whole rows, which writes exactly those the copies did not and keeps the first row of each id.
    const rows: StagedValue[] = [];
    for (const index of copied) {
      const element = elements[index] as ImportedElement;
      const lookups = texts.of(element);
      pushRow(rows, fileId, ids[index] ?? '', element, lookups, refinement.ofImported(lookups, readable));
    }
    await writeInChunks(db, trx, insertRowsBySize, rows, STAGED_COLUMNS.length, []);
  });
}
