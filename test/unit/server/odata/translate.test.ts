import fc from 'fast-check';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyElementQuery,
  parseElementQuery,
  type ElementQuery,
} from '../../../../server/odata/index';
import { postgresODataDialect, sqliteODataDialect } from '../../../../server/store/dialect';
import {
  compareRows,
  createElementsDatabase,
  evaluateFilter,
  generateRows,
  STRING_POOL,
  UUID_POOL,
  type ElementRow,
  type TestDatabase,
} from './odata-test-support';

const ROWS = generateRows(300);
let db: Kysely<TestDatabase>;

beforeAll(async () => {
  db = await createElementsDatabase(ROWS);
});

afterAll(async () => {
  await db.destroy();
});

async function sqlIds(query: ElementQuery, database: Kysely<TestDatabase> = db): Promise<string[]> {
  const { builder } = applyElementQuery(database.selectFrom('elements').select('id'), query, sqliteODataDialect);
  return (await builder.execute()).map((row) => row.id);
}

/** What OData says the response holds: the rows the filter is true for, in $orderby order, then paged. */
function expectedIds(query: ElementQuery, rows: readonly ElementRow[] = ROWS): string[] {
  const matching = rows.filter((row) => query.filter === undefined || evaluateFilter(query.filter, row) === true);
  const ordered = [...matching].sort((a, b) => compareRows(a, b, query.orderBy));
  const skip = query.skip ?? 0;
  return ordered.slice(skip, query.top === undefined ? undefined : skip + query.top).map((row) => row.id);
}

async function expectSameAsOData(raw: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const query = parseElementQuery(raw);
  const ids = await sqlIds(query);
  expect(ids).toEqual(expectedIds(query));
  return ids;
}

const namesOf = (ids: readonly string[]): (string | null)[] =>
  ids.map((id) => ROWS.find((row) => row.id === id)?.name ?? null);

describe('filters agree with OData semantics on SQLite', () => {
  it.each([
    "name eq 'Wall'",
    "name ne 'Wall'",
    'name eq null',
    'name ne null',
    'null eq name',
    "name gt 'Wall'",
    "name ge 'wall'",
    "name lt 'béton'",
    'name le null',
    'name ge null',
    'name gt null',
    'name eq materialName',
    'name ne materialName',
    'name ge materialName',
    'name lt materialName',
    'volume gt 1',
    'volume le -0',
    'volume eq 0.30000000000000004',
    'volume lt 1e-8',
    'volume ge 1.7976931348623157e308',
    'mapping/type eq 30',
    'mapping/type gt 2.5e1',
    'volume eq area',
    `buildingFileId eq ${UUID_POOL[0].toUpperCase()}`,
    `mapping/id eq '${UUID_POOL[1]}'`,
    `mapping/id ne ${UUID_POOL[1]}`,
    'mapping/id eq phaseMatch/id',
    "classificationMatch/code eq '21.24'",
    "startswith(classificationMatch/code,'21')",
    "contains(name,'all')",
    "not contains(name,'all')",
    "startswith(name,'W')",
    "endswith(name,'ll')",
    "endswith(name,'')",
    "startswith(name,'')",
    "contains(name,'')",
    'contains(materialName,name)',
    "not endswith(materialName, name)",
    "tolower(name) eq 'wall'",
    "toupper(name) eq 'BÉTON'",
    "tolower(name) eq tolower(materialName)",
    "contains(tolower(name),toupper('É'))",
    "contains(toupper(name),toupper('é'))",
    "tolower(name) eq null",
    "contains(name,null)",
    "not contains(name,null)",
    "tolower('ABC') eq 'abc'",
    "'a' lt 'b'",
    'null eq null',
    'null ne null',
    '1 eq 1',
    'true',
    'false',
    'not true',
    "not (name eq 'Wall')",
    "not (name ne 'Wall')",
    'not (volume gt 1)',
    'not (volume ge area)',
    'not (volume le null)',
    "not (name eq 'Wall' and volume gt 1)",
    "not (name eq 'Wall' or volume gt 1)",
    "not not contains(name,'a')",
    "name eq 'Wall' or name eq 'wall' and volume gt 1",
    "(name eq 'Wall' or name eq 'wall') and volume gt 1",
    "contains(name,'a') and not contains(name,'b') or volume eq null",
    "name eq 'x' and false",
    "name eq 'x' or true",
  ])('%s', async (filter) => {
    await expectSameAsOData({ $filter: filter });
  });

  it('treats ne as "not equal", so null values are included', async () => {
    const ids = await expectSameAsOData({ $filter: "name ne 'Wall'" });
    expect(namesOf(ids)).toContain(null);
    const negated = await expectSameAsOData({ $filter: "not (name eq 'Wall')" });
    expect(negated).toEqual(ids);
  });

  it('gives null for string functions of null, which neither they nor their negation match', async () => {
    const contains = await expectSameAsOData({ $filter: "contains(name,'a')" });
    const notContains = await expectSameAsOData({ $filter: "not contains(name,'a')" });
    const nullNames = await expectSameAsOData({ $filter: 'name eq null' });
    expect(nullNames.length).toBeGreaterThan(0);
    expect(contains.length + notContains.length + nullNames.length).toBe(ROWS.length);
  });

  it('compares strings case-sensitively and folds case beyond ASCII with tolower/toupper', async () => {
    expect(new Set(namesOf(await expectSameAsOData({ $filter: "name eq 'wall'" })))).toEqual(new Set(['wall']));
    const folded = new Set(namesOf(await expectSameAsOData({ $filter: "tolower(name) eq 'béton'" })));
    expect(folded).toEqual(new Set(['béton', 'BÉTON']));
    const upper = new Set(namesOf(await expectSameAsOData({ $filter: "toupper(name) eq 'STRASSE'" })));
    expect(upper).toEqual(new Set(['Straße', 'STRASSE']));
  });

  it('matches strings with U+0000 and astral characters exactly', async () => {
    expect(new Set(namesOf(await expectSameAsOData({ $filter: "endswith(name,'char')" })))).toEqual(new Set(['nul\0char']));
    expect(new Set(namesOf(await expectSameAsOData({ $filter: "startswith(name,'nul')" })))).toEqual(new Set(['nul\0char']));
    expect(new Set(namesOf(await expectSameAsOData({ $filter: "contains(name,'😀')" })))).toEqual(new Set(['😀', 'a😀b']));
    await expectSameAsOData({ $filter: "name gt '\uFFFF'" });
  });
});

describe('LIKE metacharacters in user strings', () => {
  const names = ['a%b', 'axb', 'a_b', 'aXb', 'a\\b', 'a\\%b', 'A%B', '%', '_', '\\', 'ab'];
  const rows = generateRows(names.length).map((row, index): ElementRow => ({ ...row, id: `m${index}`, name: names[index] ?? null }));
  let small: Kysely<TestDatabase>;
  beforeAll(async () => {
    small = await createElementsDatabase(rows);
  });
  afterAll(async () => {
    await small.destroy();
  });
  const matching = async (filter: string): Promise<string[]> => {
    const query = parseElementQuery({ $filter: filter });
    const ids = await sqlIds(query, small);
    expect(ids).toEqual(expectedIds(query, rows));
    return ids.map((id) => rows.find((row) => row.id === id)?.name ?? '').sort();
  };

  it.each([
    ["contains(name,'%')", ['%', 'A%B', 'a%b', 'a\\%b']],
    ["contains(name,'_')", ['_', 'a_b']],
    ["contains(name,'\\')", ['\\', 'a\\%b', 'a\\b']],
    ["startswith(name,'a_')", ['a_b']],
    ["startswith(name,'a%')", ['a%b']],
    ["endswith(name,'%b')", ['a%b', 'a\\%b']],
    ["endswith(name,'\\b')", ['a\\b']],
    ["contains(name,'\\%')", ['a\\%b']],
    ["name eq 'a_b'", ['a_b']],
    ["contains(name,'a%b')", ['a%b']],
  ])('%s matches literally', async (filter, expected) => {
    expect(await matching(filter)).toEqual([...expected].sort());
  });
});

describe('injection attempts are plain strings', () => {
  it.each([
    "name eq '''; DROP TABLE elements; --'",
    "contains(name,'; DROP TABLE elements; --')",
    "name eq '\" OR 1=1 --'",
    "name eq ''' OR ''1''=''1'",
  ])('%s', async (filter) => {
    await expectSameAsOData({ $filter: filter });
    const count = await db.selectFrom('elements').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(ROWS.length);
  });

  it('finds the row whose name is the attack text', async () => {
    const ids = await expectSameAsOData({ $filter: "name eq '''; DROP TABLE elements; --'" });
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(namesOf(ids))).toEqual(new Set(["'; DROP TABLE elements; --"]));
  });

  it('binds every literal as a parameter', () => {
    const query = parseElementQuery({ $filter: "name eq 'x''; --' and volume gt 5 and contains(name,'%')" });
    const compiled = applyElementQuery(db.selectFrom('elements').select('id'), query, sqliteODataDialect).builder.compile();
    expect(compiled.sql).not.toContain("x'");
    expect(compiled.sql).not.toContain('%');
    expect(compiled.parameters).toEqual(["x'; --", 5, '%']);
  });
});

describe('ordering and paging', () => {
  it.each([
    {},
    { $orderby: 'name' },
    { $orderby: 'name desc' },
    { $orderby: 'volume desc,name' },
    { $orderby: 'mapping/type asc,classificationMatch/code desc' },
    { $orderby: 'id desc' },
    { $orderby: 'floor,id' },
    { $orderby: 'buildingFileId' },
  ])('%o is total and matches OData ordering (nulls first ascending)', async (raw) => {
    const ids = await expectSameAsOData(raw);
    expect(ids).toHaveLength(ROWS.length);
    expect(new Set(ids).size).toBe(ROWS.length);
  });

  it('appends id ascending unless id is already ordered', () => {
    expect(parseElementQuery({ $orderby: 'name desc' }).orderBy.map((item) => `${item.path} ${item.direction}`))
      .toEqual(['name desc', 'id asc']);
    expect(parseElementQuery({ $orderby: 'id desc,name' }).orderBy.map((item) => `${item.path} ${item.direction}`))
      .toEqual(['id desc', 'name asc']);
    expect(parseElementQuery({}).orderBy.map((item) => `${item.path} ${item.direction}`)).toEqual(['id asc']);
  });

  it('pages are disjoint and together are the whole ordered list, for any page size and ordering', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom('name', 'volume desc', 'mapping/type,name desc', 'floor desc,materialName'),
        async (pageSize, orderby) => {
          const whole = await sqlIds(parseElementQuery({ $orderby: orderby }));
          const pages: string[] = [];
          for (let skip = 0; skip < ROWS.length; skip += pageSize) {
            pages.push(...await sqlIds(parseElementQuery({ $orderby: orderby, $top: String(pageSize), $skip: String(skip) })));
          }
          expect(pages).toEqual(whole);
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it.each([
    { $top: '0' },
    { $top: '5' },
    { $skip: '295' },
    { $skip: '1000' },
    { $top: '10', $skip: '3', $filter: "contains(name,'a')", $orderby: 'weight desc' },
  ])('%o', async (raw) => {
    await expectSameAsOData(raw);
  });
});

describe('generated filters agree with OData semantics', () => {
  const STRING_FIELDS = ['id', 'name', 'materialName', 'typeName', 'elementClass', 'floor', 'phaseMatch/name',
    'brandLayerMatch/name', 'classificationMatch/name', 'classificationMatch/code'];
  const NUMBER_FIELDS = ['volume', 'area', 'height', 'width', 'length', 'weight', 'mapping/type'];
  const UUID_FIELDS = ['buildingFileId', 'mapping/id', 'phaseMatch/id', 'brandLayerMatch/id', 'classificationMatch/id'];

  const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;
  const keyword = (word: string): fc.Arbitrary<string> => fc.constantFrom(word, word.toUpperCase(), `${word[0]?.toUpperCase()}${word.slice(1)}`);
  const space = fc.constantFrom(' ', ' ', '  ', '\t');
  const literalSources = STRING_POOL.filter((text) => !text.includes('\0'));
  const substring = fc.constantFrom(...literalSources).chain((text) => {
    const codePoints = [...text];
    return fc.tuple(fc.nat({ max: codePoints.length }), fc.nat({ max: codePoints.length }))
      .map(([a, b]) => codePoints.slice(Math.min(a, b), Math.max(a, b)).join(''));
  });
  const stringLiteral = fc.oneof(substring, fc.string({ unit: 'grapheme', maxLength: 3 })).map(quote);
  const stringValue = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...STRING_FIELDS),
      stringLiteral,
      fc.constant('null'),
      fc.tuple(keyword('tolower'), tie('value')).map(([f, v]) => `${f}(${v})`),
      fc.tuple(keyword('toupper'), tie('value')).map(([f, v]) => `${f}(${v})`),
    ),
  })).value;
  const numberValue = fc.oneof(
    fc.constantFrom(...NUMBER_FIELDS),
    fc.constantFrom('0', '-0', '1', '-1', '2.5', '10', '+20', '3.0e1', '1E-9', '0.1', '-273.15', 'null'),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  );
  const uuidValue = fc.oneof(
    fc.constantFrom(...UUID_FIELDS),
    fc.constantFrom(...UUID_POOL, 'null'),
    fc.constantFrom(...UUID_POOL).map((uuid) => quote(uuid.toUpperCase())),
  );
  const operator = fc.oneof(...['eq', 'ne', 'gt', 'ge', 'lt', 'le'].map(keyword));
  const comparison = fc.oneof(
    fc.tuple(stringValue, operator, stringValue, space),
    fc.tuple(numberValue, operator, numberValue, space),
    fc.tuple(uuidValue, operator, uuidValue, space),
  ).map(([left, op, right, gap]) => `${left}${gap}${op}${gap}${right}`);
  const predicate = fc.tuple(fc.oneof(...['contains', 'startswith', 'endswith'].map(keyword)), stringValue, stringValue, space)
    .map(([f, text, search, gap]) => `${f}(${text},${gap === '\t' ? ' ' : ''}${search})`);
  const filters = fc.letrec<{ filter: string; unary: string }>((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      comparison,
      tie('unary'),
      fc.tuple(tie('filter'), keyword('and'), tie('filter')).map(([a, k, b]) => `${a} ${k} ${b}`),
      fc.tuple(tie('filter'), keyword('or'), tie('filter')).map(([a, k, b]) => `${a} ${k} ${b}`),
    ),
    // `not` binds tighter than comparisons, so its operand is a call, a literal, a group or another `not`.
    unary: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      predicate,
      fc.constantFrom('true', 'false', 'TRUE'),
      fc.tuple(tie('filter'), fc.boolean()).map(([f, padded]) => (padded ? `( ${f} )` : `(${f})`)),
      fc.tuple(keyword('not'), tie('unary')).map(([k, u]) => `${k} ${u}`),
    ),
  })).filter;

  it('SQL returns exactly the rows a JavaScript evaluation of the same AST accepts', async () => {
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        await expectSameAsOData({ $filter: filter });
      }),
      { numRuns: 600 },
    );
  }, 60_000);
});

describe('long input', () => {
  it('runs an 8 KiB chain of comparisons on SQLite', async () => {
    const term = "name eq 'x'";
    const filter = Array.from({ length: Math.floor(8192 / (term.length + 4)) }, () => term).join(' or ');
    expect(filter.length).toBeLessThanOrEqual(8192);
    await expectSameAsOData({ $filter: filter });
  });

  it('runs 100 levels of nesting on SQLite', async () => {
    await expectSameAsOData({ $filter: `${'not ('.repeat(50)}name ne 'Wall'${')'.repeat(50)}` });
  });
});

describe('PostgreSQL dialect', () => {
  const postgres = new Kysely<TestDatabase>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (database) => new PostgresIntrospector(database),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const compile = (raw: Record<string, string>): { sql: string; parameters: readonly unknown[] } => {
    const query = parseElementQuery(raw);
    return applyElementQuery(postgres.selectFrom('elements').select('id'), query, postgresODataDialect).builder.compile();
  };

  it('uses strpos, starts_with and right with typed parameters', () => {
    const compiled = compile({
      $filter: "contains(name,'%') and startswith(typeName,'a_') and endswith(tolower(floor),'\\') and volume gt 1",
    });
    expect(compiled.sql).toBe(
      'select "id" from "elements" where (strpos("name", cast($1 as text)) > 0'
      + ' and starts_with("typeName", cast($2 as text))'
      + ' and right((lower("floor" collate "default") collate "C"), char_length(cast($3 as text))) = cast($4 as text)'
      + ' and "volume" > cast($5 as double precision)) order by "id" asc',
    );
    expect(compiled.parameters).toEqual(['%', 'a_', '\\', '\\', 1]);
  });

  it('orders nulls as OData does and pages with limit/offset', () => {
    const compiled = compile({ $filter: "name ne 'x'", $orderby: 'volume desc', $skip: '20' });
    expect(compiled.sql).toBe(
      'select "id" from "elements" where ("name" <> cast($1 as text) or "name" is null)'
      + ' order by "volume" desc nulls last, "id" asc limit $2 offset $3',
    );
    expect(compiled.parameters).toEqual(['x', Number.MAX_SAFE_INTEGER, 20]);
  });
});
