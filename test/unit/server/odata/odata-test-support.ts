import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { assertNever } from '../../../../shared/api/enums';
import { type ODataFilter, type ODataOrderItem, type ODataValue } from '../../../../server/odata/ast';
import { registerSqliteODataFunctions } from '../../../../server/store/dialect';
import type { ElementsTable } from '../../../../server/store/tables';

/** The columns of `elements` the OData tests read, as the server's migrations create them. */
type ODataColumn =
  | 'buildingFileId' | 'id' | 'name' | 'materialName' | 'materialId' | 'typeName' | 'elementClass' | 'volume' | 'area'
  | 'height' | 'width' | 'length' | 'weight' | 'mappingType' | 'mappingId' | 'phaseMatchId' | 'phaseMatchName'
  | 'brandLayerMatchId' | 'brandLayerMatchName' | 'classificationMatchId' | 'classificationMatchName'
  | 'classificationMatchCode' | 'floor';

/** A row of `elements` with those columns; the lookups may be null here, to try the filters on nulls too. */
export type ElementRow = Pick<ElementsTable, ODataColumn> & { phaseLookup: string | null; classificationLookup: string | null };

/** The one table these tests need. */
export interface TestDatabase {
  elements: ElementRow;
}

/** An in-memory SQLite database with the elements table, our SQL functions registered, and `rows` inserted. */
export async function createElementsDatabase(rows: readonly ElementRow[]): Promise<Kysely<TestDatabase>> {
  const connection = new Database(':memory:');
  registerSqliteODataFunctions(connection);
  const db = new Kysely<TestDatabase>({ dialect: new SqliteDialect({ database: connection }) });
  let table = db.schema.createTable('elements')
    .addColumn('buildingFileId', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull());
  for (const column of ['name', 'materialName', 'materialId', 'typeName', 'elementClass'] as const) table = table.addColumn(column, 'text');
  for (const column of ['volume', 'area', 'height', 'width', 'length', 'weight'] as const) table = table.addColumn(column, 'real');
  table = table.addColumn('mappingType', 'integer');
  for (const column of [
    'mappingId', 'phaseMatchId', 'phaseMatchName', 'brandLayerMatchId', 'brandLayerMatchName', 'classificationMatchId',
    'classificationMatchName', 'classificationMatchCode', 'phaseLookup', 'classificationLookup', 'floor',
  ] as const) {
    table = table.addColumn(column, 'text');
  }
  await table.addPrimaryKeyConstraint('elements_pk', ['buildingFileId', 'id']).execute();
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('elements').values(rows.slice(i, i + 100)).execute();
  return db;
}

/** Strings chosen to trip LIKE wildcards, escapes, quotes, case folding beyond ASCII, NUL and astral characters. */
export const STRING_POOL = [
  'Wall', 'wall', 'WALL', 'Wall 1', 'Beton', 'beton', 'béton', 'BÉTON', 'Straße', 'STRASSE', 'İstanbul', 'ǅ',
  'a%b', 'a_b', 'axb', 'a\\b', 'a\\%b', '%', '_', '\\', '100%', "O'Neil", "''", '', ' ', 'x y', '\t',
  '😀', 'a😀b', '\uFFFF', '\u{10FFFF}', 'nul\0char', "'; DROP TABLE elements; --", '21.24', '21', '21.2',
] as const;

/** Numbers with ties, signs, fractions and extremes. */
const NUMBER_POOL = [0, -0, 1, -1, 2.5, 10, 20, 30, 40, 50, 0.1, 0.30000000000000004, 1e-9, 1e9, -273.15, 1.7976931348623157e308] as const;

/** Lowercase uuids, as the server stores them. */
export const UUID_POOL = [
  '26a9ccae-ca9d-4cf0-9683-503321791978', '9804b68f-25b5-4224-a408-1eca54aaa5bc', 'b3f780d4-3a36-4dce-a8d0-e98557f73713',
  'e8cf6e3d-35e4-4c61-8d72-fa417b0e9328',
] as const;

/** A small deterministic PRNG (mulberry32), so the data set is the same on every run. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` rows of one building file with values from the pools, about a fifth of them null. */
export function generateRows(count: number, seed = 20240601): ElementRow[] {
  const random = randomSource(seed);
  const pick = <T>(pool: readonly T[]): T => pool[Math.floor(random() * pool.length)] as T;
  const maybe = <T>(pool: readonly T[]): T | null => (random() < 0.2 ? null : pick(pool));
  const buildingFileId = '0f3c5a52-3c1f-4e0b-9a43-5d2f8e6b7c10';
  return Array.from({ length: count }, (_, index): ElementRow => ({
    buildingFileId,
    // Ids share prefixes and mix case and non-ASCII so ordering by id is more than numeric.
    id: `${pick(['E', 'e', 'é', 'W-', 'w_', '😀'])}${(index * 7919) % 1000}`,
    name: maybe(STRING_POOL),
    materialName: maybe(STRING_POOL),
    materialId: maybe(UUID_POOL),
    typeName: maybe(STRING_POOL),
    elementClass: maybe(['IfcWall', 'IfcSlab', 'IfcBeam', 'IFCWALL', 'IfcWallStandardCase']),
    volume: maybe(NUMBER_POOL),
    area: maybe(NUMBER_POOL),
    height: maybe(NUMBER_POOL),
    width: maybe(NUMBER_POOL),
    length: maybe(NUMBER_POOL),
    weight: maybe(NUMBER_POOL),
    mappingType: maybe([10, 20, 30, 40, 50]),
    mappingId: maybe(UUID_POOL),
    phaseMatchId: maybe(UUID_POOL),
    phaseMatchName: maybe(['New', 'Existing', 'Demolition']),
    brandLayerMatchId: maybe(UUID_POOL),
    brandLayerMatchName: maybe(['Structure', 'Skin', 'Services']),
    classificationMatchId: maybe(UUID_POOL),
    classificationMatchName: maybe(STRING_POOL),
    classificationMatchCode: maybe(['21', '21.2', '21.24', '22', '3']),
    phaseLookup: JSON.stringify([pick(['new', 'sloop'])]),
    classificationLookup: JSON.stringify([]),
    floor: maybe(['00', '01', '-1', 'Roof', 'roof']),
  }));
}

/** Compares like SQLite's BINARY collation: by code point (UTF-16 unit order differs above U+FFFF). */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

type Scalar = string | number | null;

function columnValue(row: ElementRow, column: string): Scalar {
  const value: unknown = (row as unknown as Record<string, unknown>)[column];
  if (value === undefined) throw new Error(`no column ${column}`);
  if (value !== null && typeof value !== 'string' && typeof value !== 'number') throw new Error(`bad value in ${column}`);
  return value;
}

function compareScalars(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareCodePoints(String(a), String(b));
}

function evaluateValue(value: ODataValue, row: ElementRow): Scalar {
  switch (value.kind) {
    case 'field': return columnValue(row, value.column);
    case 'string':
    case 'number':
      return value.value;
    case 'null': return null;
    case 'case': {
      const argument = evaluateValue(value.argument, row);
      if (argument === null) return null;
      return value.function === 'tolower' ? String(argument).toLowerCase() : String(argument).toUpperCase();
    }
    default: return assertNever(value);
  }
}

/**
 * OData's meaning of a $filter for one row, written straight from URL Conventions 5.1.1 (three-valued and/or/not,
 * two-valued comparisons, null-propagating functions) — independent of how the translator gets there.
 */
export function evaluateFilter(filter: ODataFilter, row: ElementRow): boolean | null {
  switch (filter.kind) {
    case 'boolean': return filter.value;
    case 'compare': {
      const a = evaluateValue(filter.left, row);
      const b = evaluateValue(filter.right, row);
      const bothNull = a === null && b === null;
      const order = a === null || b === null ? undefined : compareScalars(a, b);
      switch (filter.operator) {
        case 'eq': return bothNull || order === 0;
        case 'ne': return !(bothNull || order === 0);
        case 'gt': return order !== undefined && order > 0;
        case 'lt': return order !== undefined && order < 0;
        case 'ge': return bothNull || (order !== undefined && order >= 0);
        case 'le': return bothNull || (order !== undefined && order <= 0);
        default: return assertNever(filter.operator);
      }
    }
    case 'stringPredicate': {
      const text = evaluateValue(filter.text, row);
      const search = evaluateValue(filter.search, row);
      if (text === null || search === null) return null;
      const [t, s] = [String(text), String(search)];
      switch (filter.function) {
        case 'contains': return t.includes(s);
        case 'startswith': return t.startsWith(s);
        case 'endswith': return t.endsWith(s);
        default: return assertNever(filter.function);
      }
    }
    case 'and': {
      const values = filter.operands.map((o) => evaluateFilter(o, row));
      return values.includes(false) ? false : values.includes(null) ? null : true;
    }
    case 'or': {
      const values = filter.operands.map((o) => evaluateFilter(o, row));
      return values.includes(true) ? true : values.includes(null) ? null : false;
    }
    case 'not': {
      const value = evaluateFilter(filter.operand, row);
      return value === null ? null : !value;
    }
    default: return assertNever(filter);
  }
}

/** OData ordering of rows: nulls first ascending and last descending, strings by code point. */
export function compareRows(a: ElementRow, b: ElementRow, orderBy: readonly ODataOrderItem[]): number {
  for (const item of orderBy) {
    const x = columnValue(a, item.column);
    const y = columnValue(b, item.column);
    const ascending = x === y ? 0 : x === null ? -1 : y === null ? 1 : compareScalars(x, y);
    if (ascending !== 0) return item.direction === 'asc' ? ascending : -ascending;
  }
  return 0;
}
