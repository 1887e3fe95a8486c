/**
 * Property: whatever a client sends, the server never answers 5xx, and every 4xx is problem details (decisions §4).
 *
 * Every route of the v2.3 table gets random path parameters (real fixture ids, random uuids, malformed and encoded
 * texts), random keys, and by method: POST/PUT random JSON bodies (anything, raw JSON, bodies shaped after the route's
 * own schema with wrong-typed or extreme values, garbage text, wrong content types) or random bytes in random content
 * types for binary bodies; GET random query strings (near-valid OData for the elements list). DELETE routes only get
 * ids that are not the fixture's, so that the fixture every other route relies on survives.
 *
 * Reproduce a failure: fast-check prints `{ seed, path }`; run with FC_SEED=<seed> (and the test name with -t).
 * FC_NUM_RUNS raises the number of runs per route for a longer local search.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildingFileStatuses } from '../../../shared/api';
import { API_PREFIXES, routes, type RouteDefinition } from '../../../shared/api/routes';
import { ELEMENT_FIELDS } from '../../../server/odata/element-fields';
import { ADMIN_KEY, startTestServer, type TestServer } from './harness';

const api = API_PREFIXES['v2.3'];
const numRuns = Number(process.env['FC_NUM_RUNS'] ?? 30);
const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED']);

// --- the fixture ---------------------------------------------------------------------------------------------------------

/** Real resources, so that random requests reach the handlers and not only the 404 of an unknown id. */
interface Fixture {
  portfolioId: string;
  buildingId: string;
  /** A source file kept Importing, with elements. */
  importingFileId: string;
  /** A source file in Creating, the target of uploads. */
  creatingFileId: string;
  informationFileId: string;
  portfolioFileId: string;
  /** The account's own material and one of the platform's. */
  materialIds: string[];
  productIds: string[];
  tokenIds: string[];
  elementIds: string[];
  /** A signed download token of the portfolio file's content, and a tampered copy. */
  downloadTokens: string[];
  /** Keys besides the administrator's: a Read account key, a Write building key, a Read portfolio key. */
  otherKeys: string[];
}

let test: TestServer;
let fixture: Fixture;

/** A setup request with the administrator key that must succeed. */
async function setup<T>(options: InjectOptions, status = 201): Promise<T> {
  const response = await test.request(options);
  expect(response.statusCode, `setup ${options.method ?? ''} ${options.url?.toString() ?? ''}: ${response.body}`).toBe(status);
  return (response.body === '' ? undefined : response.json()) as T;
}

beforeAll(async () => {
  test = await startTestServer();
  const portfolio = await setup<{ id: string }>({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'Fuzz' } });
  const building = await setup<{ id: string }>({
    method: 'POST',
    url: `${api}/buildings`,
    payload: { portfolioId: portfolio.id, name: 'Fuzz building' },
  });
  const files = `${api}/buildings/${building.id}/files`;
  const importing = await setup<{ id: string }>({ method: 'POST', url: files, payload: { type: 0, name: 'elements.ifc' } });
  const creating = await setup<{ id: string }>({ method: 'POST', url: files, payload: { type: 0, name: 'upload.ifc' } });
  const information = await setup<{ id: string }>({ method: 'POST', url: files, payload: { type: 1, name: 'notes.pdf' } });
  await setup({ method: 'POST', url: `${files}/${importing.id}/setimporting` }, 204);
  const elementIds = ['W-1', 'W 2', 'wall/3', 'ünïcødé-4', "O'Brien-5", '%2F-6'];
  for (const [index, id] of elementIds.entries()) {
    await setup({
      method: 'POST',
      url: `${files}/${importing.id}/elements`,
      payload: { id, name: `Element ${index}`, materialName: 'Beton', volume: index + 0.5, classificationLookup: '21.2', phaseLookup: 'new' },
    });
  }
  const portfolioFile = await setup<{ id: string }>({
    method: 'POST',
    url: `${api}/portfolios/${portfolio.id}/files`,
    payload: { name: 'report.pdf' },
  });
  // Content for the portfolio file, so that its download address is real: the signed token becomes a fixture value.
  await setup({
    method: 'POST',
    url: `${api}/portfolios/${portfolio.id}/files/${portfolioFile.id}/upload/report.pdf`,
    headers: { 'content-type': 'application/pdf' },
    payload: Buffer.from('%PDF-1.4 fuzz'),
  }, 204);
  const download = await setup<{ url: string }>({ method: 'GET', url: `${api}/portfolios/${portfolio.id}/files/${portfolioFile.id}/download` }, 200);
  const downloadToken = decodeURIComponent(download.url.split('/').pop() ?? '');
  const material = await setup<{ id: string }>({ method: 'POST', url: `${api}/materials`, payload: { name: { en: 'Fuzz timber' } } });
  const platformMaterials = await setup<{ id: string }[]>({ method: 'GET', url: `${api}/materials` }, 200);
  const product = await setup<{ id: string }>({ method: 'POST', url: `${api}/products`, payload: { name: { en: 'Fuzz panel' }, type: 20 } });
  const token = await setup<{ id: string }>({
    method: 'POST',
    url: `${api}/buildings/${building.id}/tokens`,
    payload: { name: 'Fuzz token', level: 50 },
  });
  fixture = {
    portfolioId: portfolio.id,
    buildingId: building.id,
    importingFileId: importing.id,
    creatingFileId: creating.id,
    informationFileId: information.id,
    portfolioFileId: portfolioFile.id,
    materialIds: [material.id, ...platformMaterials.slice(0, 1).map((item) => item.id)],
    productIds: [product.id],
    tokenIds: [token.id],
    elementIds,
    downloadTokens: [downloadToken, `${downloadToken.slice(0, -2)}xx`],
    otherKeys: [
      await test.key('account', null, 50),
      await test.key('building', building.id, 70),
      await test.key('portfolio', portfolio.id, 50),
    ],
  };
});

afterAll(async () => {
  await test?.close();
});

/**
 * Earlier requests may have moved the files on (startrefinement, upload, setimporting): put them back before every
 * run, so that element routes are exercised beyond their 409 and uploads beyond the first.
 */
async function restoreFixtureState(): Promise<void> {
  const db = test.server.context.db;
  await db.updateTable('building_files').set({ status: BuildingFileStatuses.Importing }).where('id', '=', fixture.importingFileId).execute();
  await db.updateTable('building_files').set({ status: BuildingFileStatuses.Creating }).where('id', '=', fixture.creatingFileId).execute();
}

// --- values ------------------------------------------------------------------------------------------------------------

/** Printable ASCII without space: what can go into a header value or a raw URL without the client library refusing it. */
const printable = fc.stringMatching(/^[\x21-\x7e]{0,40}$/);

/** An object nested `depth` levels deep, alternating objects and arrays. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

/** Values that break naive handling: extreme numbers, number-like strings, paths, long and unicode texts, deep nesting. */
const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 2 ** 63, -0, 5e-324, 0.1 + 0.2, 1.5),
  fc.constantFrom(
    'NaN', 'Infinity', '-Infinity', '1e999', '-0', '0x1F', '', ' ', '\u0000', 'null', 'true', '[]', '{}',
    '../../etc/passwd', 'a/b\\c', '..', '%2F', "' or 1=1 --", '2024-02-30T25:61:00Z', '9999-12-31T23:59:59Z',
    '0001-01-01T00:00:00Z', '00000000-0000-0000-0000-000000000000', 'Mapped', 'mApPeD', 'Administrator',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 1_000, max: 40_000 })).map(([text, times]) => text.repeat(times)),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.uuid(),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }),
  fc.integer({ min: 20, max: 3_000 }).map(nested),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'id', ''), fc.anything({ maxDepth: 1 })),
);

/** The part of JSON Schema the route table uses (schema-kit.ts keeps it plain), as far as generation needs it. */
interface SchemaNode {
  type?: string | readonly string[];
  properties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  items?: SchemaNode;
  anyOf?: readonly SchemaNode[];
  enum?: readonly unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** The ids a uuid field may take: mostly the fixture's, so that bodies that validate reach real resources. */
function knownUuids(): string[] {
  return [
    fixture.portfolioId,
    fixture.buildingId,
    fixture.importingFileId,
    fixture.informationFileId,
    ...fixture.materialIds,
    ...fixture.productIds,
    ...fixture.tokenIds,
  ];
}

/** A value valid for one JSON Schema type (or near it), to get past validation into the handlers. */
function plausibleOfType(type: string, schema: SchemaNode, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...knownUuids()), fc.uuid());
      if (schema.format === 'date-time') {
        return fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
      }
      if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ maxLength: schema.maxLength ?? 20, minLength: Math.min(schema.minLength ?? 0, 20) });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000_000, -(2 ** 31)), max: Math.min(schema.maximum ?? 1_000_000, 2 ** 31 - 1) });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: Math.max(schema.minimum ?? -1e9, -1e9),
        max: Math.min(schema.maximum ?? 1e9, 1e9),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 4 || schema.items === undefined ? fc.constant([]) : fc.array(plausible(schema.items, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 4 || schema.properties === undefined) return fc.constant({});
      const shape = Object.fromEntries(Object.entries(schema.properties).map(([name, child]) => [name, plausible(child, depth + 1)]));
      return fc.record(shape, { requiredKeys: [...(schema.required ?? [])] });
    }
    default:
      return fc.constant(null);
  }
}

/** A value that satisfies (most of the time) a schema of the route table. */
function plausible(schema: SchemaNode, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) return fc.oneof(...schema.anyOf.map((branch) => plausible(branch, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => plausibleOfType(type, schema, depth)));
  if (typeof schema.type === 'string') return plausibleOfType(schema.type, schema, depth);
  return fc.anything({ maxDepth: 2 });
}

/** The top-level property names of a body schema (of its items for an array body). */
function propertyNames(schema: SchemaNode): string[] {
  const object = schema.type === 'array' ? schema.items : schema;
  return Object.keys(object?.properties ?? {});
}

/** A plausible object whose named properties are partly replaced by edge values. */
function mutatedObject(schema: SchemaNode): fc.Arbitrary<unknown> {
  const names = propertyNames(schema);
  const object = schema.type === 'array' && schema.items !== undefined ? schema.items : schema;
  if (names.length === 0) return edgeValue;
  return fc
    .tuple(plausible(object), fc.dictionary(fc.constantFrom(...names), edgeValue, { maxKeys: 3 }))
    .map(([base, replaced]) => ({ ...(typeof base === 'object' && base !== null ? base : {}), ...replaced }));
}

/** A request body as sent: the text (undefined: no body) and its content type (undefined: no header). */
interface Body {
  payload: string | Buffer | undefined;
  contentType: string | undefined;
}

const jsonContentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom('text/json', 'application/json-patch+json', 'application/merge-patch+json', 'application/json; charset=utf-8') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream', 'image/png') },
  { weight: 1, arbitrary: fc.option(printable, { nil: undefined }) },
);

/** Bodies for a route with a JSON body. */
function jsonBodies(schema: SchemaNode): fc.Arbitrary<Body> {
  // Weighted towards bodies shaped after the schema: those get past validation and exercise the handlers.
  const text = fc.oneof(
    { weight: 4, arbitrary: plausible(schema).map((value) => JSON.stringify(value)) },
    { weight: 4, arbitrary: mutatedObject(schema).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.anything().map((value) => JSON.stringify(value) as string | undefined) },
    { weight: 1, arbitrary: fc.json() },
    // An array body where an object is expected and the other way round.
    { weight: 1, arbitrary: mutatedObject(schema).map((value) => JSON.stringify(schema.type === 'array' ? value : [value])) },
    { weight: 1, arbitrary: fc.constantFrom('{', '[', '{"a":', 'nul', '\uFEFF{}', '{"a":1}{"b":2}', '1e999999', '"\\ud800"', '') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
  return fc.record({ payload: text, contentType: jsonContentType });
}

/** Bodies for a route with a binary body: random bytes in the accepted or any other content type. */
function binaryBodies(contentTypes: readonly string[]): fc.Arbitrary<Body> {
  const accepted = contentTypes.filter((type) => type !== '*/*');
  return fc.record({
    payload: fc.oneof(fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)), fc.constant(undefined)),
    contentType: fc.oneof(
      { weight: 4, arbitrary: accepted.length > 0 ? fc.constantFrom(...accepted) : fc.constant('application/octet-stream') },
      { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/plain', 'image/gif', 'image/png; charset=binary', 'IMAGE/PNG') },
      { weight: 1, arbitrary: fc.option(printable, { nil: undefined }) },
    ),
  });
}

// --- path parameters ---------------------------------------------------------------------------------------------------

/** Fixture values a path parameter may take, by its name and the route it is in. */
function fixtureValues(route: RouteDefinition, name: string): string[] {
  const underPortfolio = route.path.startsWith('/portfolios');
  switch (name) {
    case 'id':
      if (route.path.startsWith('/buildings')) return [fixture.buildingId];
      if (underPortfolio) return [fixture.portfolioId];
      if (route.path.startsWith('/materials')) return fixture.materialIds;
      if (route.path.startsWith('/products')) return fixture.productIds;
      return [];
    case 'buildingId':
      return [fixture.buildingId];
    case 'portfolioId':
      return [fixture.portfolioId];
    case 'fileId':
      return underPortfolio ? [fixture.portfolioFileId] : [fixture.importingFileId, fixture.creatingFileId, fixture.informationFileId];
    case 'elementId':
      return fixture.elementIds;
    case 'tokenId':
      return fixture.tokenIds;
    case 'fileName':
      return ['model.ifc', 'logo.png', 'sheet.xlsx', 'data.csv'];
    case 'token':
      return fixture.downloadTokens;
    default:
      return [];
  }
}

/** Path segments as they go into the URL: malformed, traversing, encoded, too long, uppercase ids. */
const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2E%2F%2E%2E', 'a%2Fb', '%2F', '%5C', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', '~', '-1', '0', 'null', 'undefined'),
  fc.uuid().map((uuid) => uuid.toUpperCase()),
  fc.uuid().map((uuid) => `{${uuid}}`),
  fc.uuid().map((uuid) => uuid.replaceAll('-', '')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 990, max: 1_100 }).map((length) => 'x'.repeat(length)),
);

/** A value for one path parameter; `allowFixture` false for DELETE, so that the fixture survives. */
function pathSegment(route: RouteDefinition, name: string, allowFixture: boolean): fc.Arbitrary<string> {
  const known = allowFixture ? fixtureValues(route, name).map(encodeURIComponent) : [];
  return fc.oneof(
    ...(known.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileSegment },
  );
}

/** The route's path with every `:name` replaced by a generated segment. */
function pathArbitrary(route: RouteDefinition): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] ?? '');
  const allowFixture = route.method !== 'DELETE';
  return fc
    .tuple(...names.map((name) => pathSegment(route, name, allowFixture)))
    .map((segments) => names.reduce((path, name, index) => path.replace(`:${name}`, segments[index] ?? ''), route.path));
}

// --- query strings ---------------------------------------------------------------------------------------------------

const odataField = fc.constantFrom(...Object.keys(ELEMENT_FIELDS), 'Id', 'mapping', 'mapping/', 'mapping/type/x', 'unknown', '$it', '');
const odataLiteral = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ maxLength: 10 }).map((text) => `'${text.replaceAll("'", "''")}'`),
  fc.string({ maxLength: 10 }).map((text) => `'${text}'`),
  fc.uuid(),
  fc.constantFrom('null', 'true', 'false', "''", "'", '1e999', '-0', 'NaN', 'INF', '12345678901234567890', "guid'x'", '2024-01-01T00:00:00Z', '1.'),
);
const odataOperand = fc.oneof(odataField, odataLiteral);
const odataComparison = fc
  .tuple(odataOperand, fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le', 'EQ', 'has', 'in', 'add', '=', '=='), odataOperand)
  .map((parts) => parts.join(' '));
const odataCall = fc
  .tuple(fc.constantFrom('contains', 'startswith', 'endswith', 'tolower', 'toupper', 'length', 'substringof', 'any'), odataField, fc.option(odataLiteral))
  .map(([name, field, literal]) => (literal === null ? `${name}(${field})` : `${name}(${field},${literal})`));
const { filter: odataFilter } = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    odataComparison,
    odataCall,
    fc.tuple(tie('filter'), fc.constantFrom('and', 'or', 'AND', 'xor'), tie('filter')).map((parts) => parts.join(' ')),
    tie('filter').map((inner) => `not ${inner}`),
    tie('filter').map((inner) => `(${inner})`),
  ),
}));

/** Near-valid text: a valid-looking expression with a few characters inserted or the end cut off. */
function damaged(source: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: source },
    {
      weight: 1,
      arbitrary: fc.tuple(source, fc.nat(), fc.string({ maxLength: 2 })).map(([text, at, insert]) => {
        const position = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, position) + insert + text.slice(position);
      }),
    },
    { weight: 1, arbitrary: fc.tuple(source, fc.nat()).map(([text, at]) => text.slice(0, text.length === 0 ? 0 : at % text.length)) },
  );
}

/** Element fields by OData type, for expressions that type-check and so reach the SQL translation. */
const fieldsOfType = (type: string): string[] =>
  Object.entries(ELEMENT_FIELDS)
    .filter(([, field]) => field.type === type)
    .map(([path]) => path);
const stringLiteral = fc.string({ maxLength: 12, unit: 'grapheme' }).map((text) => `'${text.replaceAll("'", "''")}'`);
const numberLiteral = fc.oneof(fc.integer().map(String), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constantFrom('0', '-0', '1e300', '0.5'));
const comparator = fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le');
const typedComparison = fc.oneof(
  fc.tuple(fc.constantFrom(...fieldsOfType('string')), comparator, fc.oneof(stringLiteral, fc.constant('null'))).map((parts) => parts.join(' ')),
  fc.tuple(fc.constantFrom(...fieldsOfType('number')), comparator, fc.oneof(numberLiteral, fc.constant('null'))).map((parts) => parts.join(' ')),
  fc.tuple(fc.constantFrom(...fieldsOfType('uuid')), fc.constantFrom('eq', 'ne'), fc.oneof(fc.uuid(), fc.constant('null'))).map((parts) => parts.join(' ')),
  fc
    .tuple(fc.constantFrom('contains', 'startswith', 'endswith'), fc.constantFrom('', 'tolower', 'toupper'), fc.constantFrom(...fieldsOfType('string')), stringLiteral)
    .map(([name, conversion, field, literal]) => `${name}(${conversion === '' ? field : `${conversion}(${field})`},${literal})`),
);
const { filter: typedFilter } = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    typedComparison,
    fc.tuple(tie('filter'), fc.constantFrom('and', 'or'), tie('filter')).map((parts) => parts.join(' ')),
    tie('filter').map((inner) => `not (${inner})`),
    tie('filter').map((inner) => `(${inner})`),
  ),
}));

const filterText = fc.oneof(
  { weight: 6, arbitrary: typedFilter },
  { weight: 4, arbitrary: damaged(odataFilter) },
  { weight: 2, arbitrary: fc.string() },
  // Nesting far past the parser's limit must be refused, not overflow the stack.
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 5_000 }).map((depth) => `${'('.repeat(depth)}id eq 'a'${')'.repeat(depth)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 5_000 }).map((depth) => `${'not '.repeat(depth)}volume gt 1`) },
  { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 20_000 }).map((length) => `name eq '${'x'.repeat(length)}'`) },
);
/** A valid `$orderby`: scalar fields (collections cannot be ordered by), each with or without a direction. */
const typedOrderby = fc
  .array(fc.tuple(fc.constantFrom(...Object.keys(ELEMENT_FIELDS).filter((path) => !path.endsWith('Lookup'))), fc.constantFrom('', ' asc', ' desc')), {
    minLength: 1,
    maxLength: 3,
  })
  .map((items) => items.map(([field, direction]) => field + direction).join(','));
const orderbyText = fc.oneof(
  typedOrderby,
  damaged(
    fc
      .array(fc.tuple(odataField, fc.constantFrom('', ' asc', ' desc', ' DESC', ' up', '  asc')), { minLength: 1, maxLength: 4 })
      .map((items) => items.map(([field, direction]) => field + direction).join(',')),
  ),
  fc.string(),
);
const selectText = fc.oneof(
  damaged(fc.array(fc.oneof(odataField, fc.constantFrom('*', '', 'id,id', 'mapping/type')), { minLength: 1, maxLength: 5 }).map((fields) => fields.join(','))),
  fc.string(),
);
const pagingText = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 10 }).map(String) },
  { weight: 1, arbitrary: fc.nat().map(String) },
  { weight: 1, arbitrary: fc.constantFrom('-1', '1e3', '2147483647', '2147483648', '99999999999999999999', '0x10', ' 5', '5 ', '', 'abc', '1.5', 'NaN', '+3') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

/** Query parameters as name/value pairs; names may repeat. */
type QueryPairs = [string, string][];

/** Top-level wire fields of an element, as `$select` names them. */
const selectableFields = [...new Set(Object.keys(ELEMENT_FIELDS).map((path) => path.split('/')[0] ?? path))];

/** Options that are all valid, so that the query reaches the SQL translation and the streaming of rows. */
const validElementQuery: fc.Arbitrary<QueryPairs> = fc
  .record(
    {
      $filter: typedFilter,
      $orderby: typedOrderby,
      $select: fc.subarray(selectableFields, { minLength: 1 }).map((fields) => fields.join(',')),
      $top: fc.nat({ max: 20 }).map(String),
      $skip: fc.nat({ max: 8 }).map(String),
    },
    { requiredKeys: [] },
  )
  .map((options) => Object.entries(options));

/** Each option present or not, valid or damaged, plus unsupported and repeated OData options. */
const chaoticElementQuery: fc.Arbitrary<QueryPairs> = fc
  .record(
    {
      $filter: filterText,
      $orderby: orderbyText,
      $select: selectText,
      $top: pagingText,
      $skip: pagingText,
      extra: fc.array(fc.tuple(fc.constantFrom('$expand', '$count', 'filter', '$FILTER', '$top', '$search', 'top'), fc.string({ maxLength: 10 })), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...options }) => [...Object.entries(options), ...(extra ?? [])]);

const elementQuery = fc.oneof(validElementQuery, chaoticElementQuery);

/** Queries for a route: its own parameters with plausible or hostile values, and stray parameters. */
function queryArbitrary(route: RouteDefinition): fc.Arbitrary<QueryPairs> {
  if (route.operationId === 'listElements') return elementQuery;
  const own = propertyNames((route.querystring ?? {}) as SchemaNode);
  const name = fc.oneof(
    ...(own.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...own) }] : []),
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', '$filter', 'databaseId[]') },
  );
  const value = fc.oneof(fc.uuid(), fc.constantFrom(...knownUuids()), fc.double().map(String), fc.constantFrom('', 'NaN', '-1', '1e999', 'x'), fc.string({ maxLength: 20 }));
  return fc.array(fc.tuple(name, value), { maxLength: 4 });
}

/** The query string: mostly encoded, sometimes raw (stray `%`, `&`, `+`), as a careless client would send it. */
function queryString(pairs: QueryPairs, raw: boolean): string {
  if (pairs.length === 0) return '';
  const encode = raw ? (text: string): string => text.replaceAll('#', '%23').replaceAll(' ', '+') : encodeURIComponent;
  return `?${pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}`;
}

// --- requests ----------------------------------------------------------------------------------------------------------

/** One generated request. */
interface Attempt {
  path: string;
  query: string;
  body: Body | undefined;
  key: string | null;
  language: string | undefined;
}

function attemptArbitrary(route: RouteDefinition): fc.Arbitrary<Attempt> {
  const bodyArbitrary: fc.Arbitrary<Body | undefined> =
    route.body === undefined
      ? fc.constant(undefined)
      : route.body.kind === 'json'
        ? jsonBodies(route.body.schema as SchemaNode)
        : binaryBodies(route.body.contentTypes);
  const query =
    route.method === 'GET'
      ? fc.tuple(queryArbitrary(route), fc.nat({ max: 3 })).map(([pairs, dice]) => queryString(pairs, dice === 0))
      : fc.constant('');
  return fc.record({
    path: pathArbitrary(route),
    query,
    body: bodyArbitrary,
    // Mostly the administrator, who passes every check and so reaches the handlers; the others exercise 403/404.
    key: fc.oneof(
      { weight: 8, arbitrary: fc.constant<string | null>(ADMIN_KEY) },
      { weight: 2, arbitrary: fc.constantFrom<string | null>(...fixture.otherKeys, null) },
    ),
    language: route.headers === undefined ? fc.constant(undefined) : fc.option(fc.oneof(fc.constantFrom('nl', 'en', 'xx', '*', 'en-US,en;q=0.9'), printable), { nil: undefined }),
  });
}

function describeAttempt(route: RouteDefinition, attempt: Attempt, response: LightMyRequestResponse): string {
  const body = attempt.body?.payload;
  const shownBody = body === undefined ? '(none)' : Buffer.isBuffer(body) ? `${body.length} bytes` : body.slice(0, 300);
  return `${route.method} ${api}${attempt.path.slice(0, 300)}${attempt.query.slice(0, 300)} [${attempt.body?.contentType ?? 'no content type'}] ${shownBody} → ${response.statusCode} ${response.body.slice(0, 500)}`;
}

/** The property every answer must have. */
function checkResponse(route: RouteDefinition, attempt: Attempt, response: LightMyRequestResponse): void {
  const what = describeAttempt(route, attempt, response);
  expect(response.statusCode, what).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(response.headers['content-type'], what).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(response.body) as { status?: unknown; title?: unknown; detail?: unknown };
    expect(problem.status, what).toBe(response.statusCode);
    expect(typeof problem.title, what).toBe('string');
    expect(typeof problem.detail, what).toBe('string');
  } else if (String(response.headers['content-type'] ?? '').startsWith('application/json') && response.body !== '') {
    // A streamed answer that fails half-way is a 200 with a broken body: the JSON must be complete.
    expect(() => JSON.parse(response.body) as unknown, what).not.toThrow();
  }
}

async function send(route: RouteDefinition, attempt: Attempt): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (attempt.body?.contentType !== undefined) headers['content-type'] = attempt.body.contentType;
  if (attempt.language !== undefined) headers['accept-language'] = attempt.language;
  return test.request({
    method: route.method,
    url: `${api}${attempt.path}${attempt.query}`,
    headers,
    key: attempt.key,
    ...(attempt.body?.payload === undefined ? {} : { payload: attempt.body.payload }),
  });
}

// --- the properties ----------------------------------------------------------------------------------------------------

const allRoutes: readonly RouteDefinition[] = Object.values(routes);

describe('no request makes the server answer 5xx', () => {
  it.each(allRoutes.map((route) => ({ name: `${route.method} ${route.path}`, route })))(
    '$name',
    async ({ route }) => {
      await fc.assert(
        fc.asyncProperty(attemptArbitrary(route), async (attempt) => {
          await restoreFixtureState();
          checkResponse(route, attempt, await send(route, attempt));
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      );
    },
    60_000,
  );
});
