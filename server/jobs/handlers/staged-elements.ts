/**
 * Writing an import's elements into the staging table: each element refined as it is read, its row written with the
 * others of its batch in one INSERT. An import stages every element of a file, so the rows are built as flat parameter
 * lists and the INSERT of a full batch is compiled once, not built anew for each batch.
 */
import type { Insertable, Kysely } from 'kysely';
import type { ImportedElement } from '../../imports/imported-element';
import type { FileRefinement } from '../../refine/refine-file';
import { compiledQuery } from '../../store/compiled-query';
import type { DatabaseSchema, StagedElementsTable } from '../../store/tables';
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

const insertFullBatch = compiledQuery(insertRows);

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

/**
 * Stages a batch of elements of file `fileId` (at most STAGED_ROWS_PER_INSERT), each refined with `refinement`, and
 * adds what the file's figures read of each to `report`.
 */
export async function stageElementBatch(
  db: Kysely<DatabaseSchema>,
  fileId: string,
  elements: readonly ImportedElement[],
  refinement: FileRefinement,
  report: ReportElementColumns,
): Promise<void> {
  const values: StagedValue[] = [];
  // A spreadsheet may name items by id: those the building can read, in one read per batch.
  const readable = await refinement.readableItems(db, elements.map((element) => element.materialId ?? null));
  const phaseLookups = new LastJson();
  const classificationLookups = new LastJson();
  const classificationHints = new LastJson();
  const materialHints = new LastJson();
  for (const element of elements) {
    const lookups = {
      materialName: storedText(element.materialName),
      typeName: storedText(element.typeName),
      materialId: storedText(element.materialId ?? null),
      elementClass: storedText(element.elementClass),
      phaseLookup: phaseLookups.of(element.phaseLookup),
      classificationLookup: classificationLookups.of(element.classificationLookup),
      classificationHints: classificationHints.of(element.classificationHints),
      materialHints: materialHints.of(element.materialHints),
    };
    const derived = refinement.ofImported(lookups, readable);
    const id = storedText(element.id);
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
  }
  if (elements.length === STAGED_ROWS_PER_INSERT) await insertFullBatch(db, ...values);
  else await db.executeQuery(insertRows(db, ...values).compile());
}
