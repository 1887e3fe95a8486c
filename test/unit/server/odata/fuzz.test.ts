import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyElementQuery,
  ODataError,
  parseElementQuery,
  type ElementQuery,
} from '../../../../server/odata/index';
import { sqliteODataDialect } from '../../../../server/store/dialect';
import { MAX_OPTION_LENGTH } from '../../../../server/odata/bounds';
import { compareRows, createElementsDatabase, evaluateFilter, generateRows, type TestDatabase } from './odata-test-support';

const OPTIONS = ['$filter', '$orderby', '$select', '$top', '$skip'] as const;
const ROWS = generateRows(200, 7);
let db: Kysely<TestDatabase>;

beforeAll(async () => {
  db = await createElementsDatabase(ROWS);
});

afterAll(async () => {
  await db.destroy();
});

/** Parses; any throw other than an ODataError with a position inside the text fails the property. */
function parseOrODataError(raw: Record<string, unknown>): ElementQuery | undefined {
  try {
    return parseElementQuery(raw);
  } catch (error) {
    if (!(error instanceof ODataError)) throw error;
    const key = Object.keys(raw).find((k) => k === error.option || `$${k.replace(/^\$/, '').toLowerCase()}` === error.option);
    const value = key === undefined ? undefined : raw[key];
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    const length = Math.min(text.length, MAX_OPTION_LENGTH);
    expect(Number.isInteger(error.position)).toBe(true);
    expect(error.position).toBeGreaterThanOrEqual(0);
    expect(error.position).toBeLessThanOrEqual(length);
    expect(error.message).toBe(`${error.option}: ${error.detail} at position ${error.position}`);
    return undefined;
  }
}

/** Whatever parses must also run, and return what OData's semantics say. */
async function agreesWithOData(query: ElementQuery): Promise<void> {
  const { builder } = applyElementQuery(db.selectFrom('elements').select('id'), query, sqliteODataDialect);
  const ids = (await builder.execute()).map((row) => row.id);
  const expected = ROWS
    .filter((row) => query.filter === undefined || evaluateFilter(query.filter, row) === true)
    .sort((a, b) => compareRows(a, b, query.orderBy))
    .slice(query.skip ?? 0, query.top === undefined ? undefined : (query.skip ?? 0) + query.top)
    .map((row) => row.id);
  expect(ids).toEqual(expected);
}

describe('parsing never throws anything but ODataError', () => {
  it.each([
    ['any code point', fc.string({ unit: 'binary', maxLength: 60 })],
    ['ASCII with control characters', fc.string({ unit: 'binary-ascii', maxLength: 60 })],
    ['printable graphemes', fc.string({ unit: 'grapheme', maxLength: 60 })],
    ['lone surrogates and UTF-16 units', fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 30 })],
  ])('for %s in every option', (_, text) => {
    fc.assert(
      fc.property(fc.constantFrom(...OPTIONS), text, (option, value) => {
        parseOrODataError({ [option]: value });
      }),
      { numRuns: 3000 },
    );
  });

  it('for arbitrary query objects', () => {
    const key = fc.oneof(fc.constantFrom(...OPTIONS, 'filter', '$Expand', '@a', 'x', '__proto__', 'constructor'), fc.string());
    fc.assert(
      fc.property(fc.dictionary(key, fc.anything(), { maxKeys: 4 }), (raw) => {
        parseOrODataError(raw);
      }),
      { numRuns: 2000 },
    );
  });

  it('for inputs that nest or repeat far beyond the limits', () => {
    for (const text of [
      '('.repeat(8192),
      `${'('.repeat(4000)}true${')'.repeat(4000)}`,
      `${'not '.repeat(2000)}true`,
      `${'tolower('.repeat(1000)}name${')'.repeat(1000)} eq 'a'`,
      `${'contains('.repeat(900)}`,
      "'".repeat(8192),
      `name eq '${"''".repeat(4000)}'`,
      '9'.repeat(8192),
      `volume eq 0.${'0'.repeat(8000)}1`,
      Array.from({ length: 1600 }, () => 'true').join(' or '),
    ]) {
      parseOrODataError({ $filter: text });
      parseOrODataError({ $orderby: text, $select: text, $top: text });
    }
  });
});

describe('near-valid filters: rejected with ODataError or answered correctly', () => {
  const TOKENS = [
    'name', 'volume', 'mapping/type', 'mapping/id', 'classificationMatch/code', 'buildingFileId', 'phaseLookup', 'mapping',
    'Name', 'foo', 'eq', 'EQ', 'ne', 'gt', 'ge', 'lt', 'le', 'and', 'or', 'not', 'OR', 'add', 'in', 'has', 'asc',
    "'Wall'", "'a''b'", "'%'", "'_'", "'\\'", "'", "''", '1', '-2.5', '1e3', '1e', '42.', '.5', 'null', 'NULL', 'true',
    'false', '26a9ccae-ca9d-4cf0-9683-503321791978', '26a9ccae-ca9d', '(', ')', ',', '/', 'contains(', 'startswith(',
    'endswith(', 'tolower(', 'toupper(', 'substring(', 'any(', '$it', '@a', '[', '{', '.', '-', '"', ':', '*',
  ];
  const separator = fc.constantFrom('', ' ', ' ', ' ', '\t', '  ');
  const soup = fc.array(fc.tuple(fc.constantFrom(...TOKENS), separator), { minLength: 1, maxLength: 12 })
    .map((parts) => parts.map(([token, gap]) => token + gap).join(''));

  const VALID = [
    "name eq 'Wall' and volume gt 1",
    "not contains(tolower(name),'all') or mapping/type eq 30",
    "(startswith(name,'W') or endswith(materialName,'on')) and not (weight le null)",
    'buildingFileId eq 0f3c5a52-3c1f-4e0b-9a43-5d2f8e6b7c10 and mapping/id ne null',
    "classificationMatch/code ge '21' and toupper(floor) eq 'ROOF'",
  ];
  const mutation = fc.tuple(
    fc.constantFrom(...VALID),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'duplicate'), fc.constantFrom(...TOKENS, ' ', "'", '(', ')')), {
      minLength: 1,
      maxLength: 3,
    }),
  ).map(([text, edits]) => edits.reduce((current, [at, edit, token]) => {
    const position = at % (current.length + 1);
    switch (edit) {
      case 'delete': return current.slice(0, position) + current.slice(position + 1);
      case 'insert': return current.slice(0, position) + token + current.slice(position);
      case 'duplicate': return current.slice(0, position) + current.slice(position, position + 3) + current.slice(position);
      default: return current;
    }
  }, text));

  it('token soup', async () => {
    await fc.assert(
      fc.asyncProperty(soup, async (filter) => {
        const query = parseOrODataError({ $filter: filter });
        if (query !== undefined) await agreesWithOData(query);
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  // Clauses shaped like real filters, with each part sometimes wrong, so that many parse and reach the translator.
  const operand = fc.constantFrom(
    'name', 'materialName', 'volume', 'mapping/type', 'mapping/id', 'floor', "'Wall'", "'a''b'", "'%_\\'", '1', '-2.5e1',
    'null', '26a9ccae-ca9d-4cf0-9683-503321791978', "tolower(name)", "toupper('x')", 'phaseLookup', 'Name', "'unterminated",
  );
  const comparison = fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le', 'Eq', 'add', 'in', 'eq eq');
  const clause = fc.oneof(
    fc.tuple(operand, separator, comparison, separator, operand).map((parts) => parts.join('')),
    fc.tuple(fc.constantFrom('contains', 'startswith', 'endswith', 'indexof'), operand, fc.constantFrom(',', ', ', ' ,', ''), operand)
      .map(([f, a, comma, b]) => `${f}(${a}${comma}${b})`),
    fc.constantFrom('true', 'false', '()'),
  );
  const shaped = fc.array(
    fc.tuple(fc.constantFrom('', '', 'not ', 'not (', '('), clause, fc.constantFrom('', '', ')'), fc.constantFrom(' and ', ' or ', ' OR ', ' and', ' nand ')),
    { minLength: 1, maxLength: 4 },
  ).map((clauses) => clauses.map(([prefix, body, suffix, connective]) => prefix + body + suffix + connective).join('').replace(/ \w+ ?$/, ''));

  it.each([
    ['filter-shaped clauses', shaped],
    ['edited valid filters', mutation],
  ])('%s', async (_, filters) => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        const query = parseOrODataError({ $filter: filter });
        if (query === undefined) return;
        accepted++;
        await agreesWithOData(query);
      }),
      { numRuns: 3000 },
    );
    // The generators must reach the translator too, not only the error paths.
    expect(accepted).toBeGreaterThan(50);
  }, 60_000);
});
