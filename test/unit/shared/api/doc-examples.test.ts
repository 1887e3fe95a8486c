/**
 * Every request and response example of the platform's v2.3 documentation, validated against our schemas
 * (decisions §1): placeholders such as `"string (uuid)"` must meet a field of that type in our schema and are replaced by
 * a valid value of it; real values validate as they are; property names match both ways.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../../../shared/api/routes';
import { INT32_MAX, INT32_MIN } from '../../../../shared/api/schema-kit';
import { FIXTURES_DIRECTORY } from '../../../fixtures/files';

/** The examples, taken out of the documentation's text (test/fixtures/SOURCES.md says how). */
const EXAMPLES_FILE = path.join(FIXTURES_DIRECTORY, 'api-docs', 'v2.3-examples.json');

/** How many examples the documentation holds before its schema definitions. */
const EXPECTED = { request: 29, binaryRequest: 3, response: 61 };

interface DocExample {
  operation: string;
  method: string;
  path: string;
  kind: 'request' | 'response';
  status?: number;
  value: unknown;
  /** The example's line in the documentation's text rendering. */
  sourceLine: number;
}

function pathShape(routePath: string): string {
  return routePath.replace(/\{[^}]+\}|:[A-Za-z]+/g, '*');
}

function routeOf(example: DocExample): RouteDefinition {
  const shape = pathShape(example.path.replace(/^\/api\/v2\.3/, ''));
  const route = (Object.values(routes) as RouteDefinition[]).find(
    (candidate) => candidate.method === example.method && pathShape(candidate.path) === shape,
  );
  if (route === undefined) throw new Error(`No route for ${example.method} ${example.path}`);
  return route;
}

// --- walking a value and our schema together ---------------------------------------------------------------------------

type Schema = { [key: string]: unknown };

const PLACEHOLDERS = [
  'string',
  'string (uuid)',
  'string (date-time)',
  'integer (int32)',
  'integer (int64)',
  'number (double)',
  'boolean',
] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

const LANGUAGE_KEYS = new Set(['nl', 'en', 'de', 'it', 'fr', 'es']);

function isPlaceholder(value: unknown): value is Placeholder {
  return typeof value === 'string' && (PLACEHOLDERS as readonly string[]).includes(value);
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The alternatives of a schema: the branches of an `anyOf`, each on its own. */
function branches(schema: Schema): Schema[] {
  return Array.isArray(schema['anyOf']) ? schema['anyOf'].filter(isObject).flatMap(branches) : [schema];
}

function types(schema: Schema): unknown[] {
  return Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
}

function branchOfType(schema: Schema, type: string): Schema | undefined {
  return branches(schema).find((branch) => types(branch).includes(type));
}

function clamp(value: number, schema: Schema): number {
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Infinity;
  const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  return Math.min(Math.max(value, minimum), maximum);
}

function firstEnumValue(schema: Schema): unknown {
  return Array.isArray(schema['enum']) ? schema['enum'].find((value) => value !== null) : undefined;
}

/** Our schema's branch for a placeholder, or a description of why it does not fit. */
function fit(placeholder: Placeholder, schema: Schema): { branch: Schema } | { mismatch: string } {
  const wanted: Record<Placeholder, string> = {
    string: 'string',
    'string (uuid)': 'string',
    'string (date-time)': 'string',
    'integer (int32)': 'integer',
    'integer (int64)': 'integer',
    'number (double)': 'number',
    boolean: 'boolean',
  };
  const branch = branchOfType(schema, wanted[placeholder]);
  if (branch === undefined) return { mismatch: `is ${JSON.stringify(schema['type'] ?? schema['anyOf'])}` };
  const format = branch['format'];
  if (placeholder === 'string (uuid)' && format !== 'uuid') return { mismatch: 'is not format uuid' };
  if (placeholder === 'string (date-time)' && format !== 'date-time') return { mismatch: 'is not format date-time' };
  if (placeholder === 'string' && format !== undefined) return { mismatch: `has format ${String(format)}` };
  if (placeholder === 'integer (int32)') {
    const isInt32 =
      Array.isArray(branch['enum']) ||
      (typeof branch['minimum'] === 'number' &&
        typeof branch['maximum'] === 'number' &&
        branch['minimum'] >= INT32_MIN &&
        branch['maximum'] <= INT32_MAX);
    if (!isInt32) return { mismatch: 'is not bounded to int32' };
  }
  return { branch };
}

function sample(placeholder: Placeholder, branch: Schema): unknown {
  const enumValue = firstEnumValue(branch);
  if (enumValue !== undefined) return enumValue;
  switch (placeholder) {
    case 'string':
      return 'string';
    case 'string (uuid)':
      return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    case 'string (date-time)':
      return '2020-07-09T14:30:52.5521793Z';
    case 'integer (int32)':
    case 'integer (int64)':
      return clamp(1, branch);
    case 'number (double)':
      return clamp(0.5, branch);
    case 'boolean':
      return true;
  }
}

interface Walk {
  problems: string[];
  /** Whether our optional properties must appear in the example too (requests); required ones always must. */
  expectOptional: boolean;
}

/** The example with placeholders replaced; records type and name mismatches on the way. */
function substitute(value: unknown, schema: Schema, at: string, walk: Walk): unknown {
  if (isPlaceholder(value)) {
    const fitted = fit(value, schema);
    if ('mismatch' in fitted) {
      walk.problems.push(`${at}: documented as ${value}, ours ${fitted.mismatch}`);
      return value;
    }
    return sample(value, fitted.branch);
  }
  if (Array.isArray(value)) {
    const arraySchema = branchOfType(schema, 'array');
    if (arraySchema === undefined || !isObject(arraySchema['items'])) {
      walk.problems.push(`${at}: documented as an array, ours is not`);
      return value;
    }
    const items = arraySchema['items'];
    return value.map((item, index) => substitute(item, items, `${at}[${index}]`, walk));
  }
  if (isObject(value)) {
    const objectSchema = branchOfType(schema, 'object');
    if (objectSchema === undefined) {
      walk.problems.push(`${at}: documented as an object, ours is not`);
      return value;
    }
    const properties = isObject(objectSchema['properties']) ? objectSchema['properties'] : undefined;
    const additional = isObject(objectSchema['additionalProperties']) ? objectSchema['additionalProperties'] : undefined;
    if (properties !== undefined) checkNames(value, objectSchema, properties, at, walk);
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => {
        const childSchema = properties?.[key] ?? additional;
        return [key, isObject(childSchema) ? substitute(child, childSchema, `${at}.${key}`, walk) : child];
      }),
    );
  }
  return value;
}

function checkNames(value: Schema, objectSchema: Schema, properties: Schema, at: string, walk: Walk): void {
  const required = new Set(Array.isArray(objectSchema['required']) ? objectSchema['required'] : []);
  const ours = Object.keys(properties);
  const isLanguageMap = ours.every((key) => LANGUAGE_KEYS.has(key));
  for (const key of Object.keys(value)) {
    if (!(key in properties)) walk.problems.push(`${at}.${key}: documented, unknown to us`);
  }
  for (const key of ours) {
    // A language map lists only the languages that have a text, in their examples as in ours.
    const mustAppear = required.has(key) || (walk.expectOptional && !isLanguageMap);
    if (mustAppear && !(key in value)) walk.problems.push(`${at}.${key}: ours, missing from the documentation`);
  }
}

// --- the test ------------------------------------------------------------------------------------------------------------

const examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as DocExample[];

describe('the v2.3 documentation examples', () => {
  it(`are all found (${EXPECTED.request} request, ${EXPECTED.response} response)`, () => {
    expect(examples.filter((example) => example.kind === 'request')).toHaveLength(EXPECTED.request);
    expect(examples.filter((example) => example.kind === 'response')).toHaveLength(EXPECTED.response);
  });

  it('send binary request bodies only to routes that take file content', () => {
    const binary = examples.filter((example) => example.value === 'string (binary)');
    expect(binary).toHaveLength(EXPECTED.binaryRequest);
    for (const example of binary) expect(routeOf(example).body?.kind, example.operation).toBe('binary');
  });

  const jsonExamples = examples.filter((example) => example.value !== 'string (binary)');

  it.each(jsonExamples.map((example) => [`${example.operation} ${example.kind} ${example.status ?? ''}`.trim(), example] as const))(
    '%s validates against our schema',
    (_name, example) => {
      const route = routeOf(example);
      let schema: unknown;
      if (example.kind === 'request') {
        expect(route.body?.kind, 'declared body').toBe('json');
        schema = route.body?.kind === 'json' ? route.body.schema : undefined;
      } else {
        const answer = route.responses[example.status ?? 0];
        expect(answer?.kind, `declared ${example.status} answer`).toBe('json');
        schema = answer?.kind === 'json' ? answer.schema : undefined;
      }
      if (!isObject(schema)) throw new Error('no schema');
      const walk: Walk = { problems: [], expectOptional: example.kind === 'request' };
      const value = substitute(example.value, schema, example.kind === 'request' ? 'body' : 'response', walk);
      expect(walk.problems.join('\n'), `line ${example.sourceLine}`).toBe('');
      const validator = Compile(schema);
      const errors = validator.Check(value) ? [] : validator.Errors(value).map((error) => `${error.instancePath} ${error.message}`);
      expect(errors.join('\n'), `line ${example.sourceLine}: ${JSON.stringify(value)}`).toBe('');
    },
  );

  it(`validate ${EXPECTED.request - EXPECTED.binaryRequest + EXPECTED.response} JSON examples in all`, () => {
    expect(jsonExamples).toHaveLength(EXPECTED.request - EXPECTED.binaryRequest + EXPECTED.response);
  });
});
