import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../../shared/api/openapi';
import { JSON_REQUEST_CONTENT_TYPES, routes } from '../../../../shared/api/routes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every `$ref` in the document, with where it was found. */
function references(value: unknown, at = '#'): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item, index) => references(item, `${at}/${index}`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]): Array<[string, string]> =>
    key === '$ref' && typeof child === 'string' ? [[at, child]] : references(child, `${at}/${key}`),
  );
}

function resolve(document: Json, pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), document);
}

const document = buildOpenApiDocument() as Json;
const paths = document['paths'] as Record<string, Record<string, Json>>;
const operations = Object.entries(paths).flatMap(([pathName, item]) =>
  Object.entries(item).map(([method, operation]) => ({ pathName, method, operation })),
);

describe('the OpenAPI document', () => {
  it('is committed as generated (npm run openapi)', () => {
    const committed = readFileSync(path.join(repoRoot, 'shared/api/openapi.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });

  it('is OpenAPI 3.1 with our title, version, server and API key scheme', () => {
    expect(document['openapi']).toBe('3.1.0');
    expect(document['info']).toMatchObject({ title: 'Circularity Desk — Building Circularity Data API', version: '2.3' });
    expect(document['servers']).toEqual([{ url: '/api/v2.3' }]);
    expect(document['security']).toEqual([{ ApiKey: [] }]);
    expect(resolve(document, '#/components/securitySchemes/ApiKey')).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('resolves every $ref, and references every component it defines', () => {
    const found = references(document);
    expect(found.length).toBeGreaterThan(100);
    for (const [at, pointer] of found) expect(resolve(document, pointer), `${pointer} at ${at}`).toBeDefined();
    const referenced = new Set(found.map(([, pointer]) => pointer));
    const components = document['components'] as Record<string, Json>;
    for (const kind of ['schemas', 'responses']) {
      for (const name of Object.keys(components[kind] ?? {})) {
        expect(referenced.has(`#/components/${kind}/${name}`), `${kind}/${name}`).toBe(true);
      }
    }
  });

  it('has one operation per route, each with tags, summary, operationId and responses', () => {
    expect(operations).toHaveLength(Object.keys(routes).length);
    const ids = operations.map(({ operation }) => operation['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.keys(routes).sort());
    for (const { pathName, method, operation } of operations) {
      const where = `${method} ${pathName}`;
      expect(operation['tags'], where).toHaveLength(1);
      expect(typeof operation['summary'], where).toBe('string');
      expect(Object.keys(operation['responses'] as Json).length, where).toBeGreaterThan(0);
      const declared = ((operation['parameters'] as Json[] | undefined) ?? [])
        .filter((parameter) => parameter['in'] === 'path')
        .map((parameter) => parameter['name']);
      const templated = [...pathName.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      expect(declared.sort(), where).toEqual(templated.sort());
    }
  });

  it('needs no key for the document itself and signed downloads only', () => {
    const open = operations.filter(({ operation }) => 'security' in operation);
    expect(open.map(({ operation }) => [operation['operationId'], operation['security']])).toEqual([
      ['getOpenApiDocument', []],
      ['downloadBlob', []],
    ]);
  });

  it('accepts every JSON content type of spec §4 for JSON bodies and answers errors as problem+json', () => {
    const create = paths['/buildings']?.['post'] as Json;
    const content = (create['requestBody'] as Json)['content'] as Json;
    expect(Object.keys(content)).toEqual([...JSON_REQUEST_CONTENT_TYPES]);
    expect(content['application/json']).toEqual({ schema: { $ref: '#/components/schemas/BuildingRequest' } });
    const upload = paths['/buildings/{buildingId}/files/{fileId}/upload/{fileName}']?.['post'] as Json;
    expect(Object.keys((upload['requestBody'] as Json)['content'] as Json)).toEqual(['application/octet-stream']);
    expect(resolve(document, '#/components/responses/NotFound')).toMatchObject({
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
  });

  it('names number widths and keeps nullable references', () => {
    const building = resolve(document, '#/components/schemas/BuildingResponse') as Json;
    const properties = building['properties'] as Record<string, Json>;
    expect(properties['cadastralArea']).toEqual({ type: ['integer', 'null'], format: 'int32' });
    expect(properties['grossSurfaceArea']).toEqual({ type: ['number', 'null'], format: 'double' });
    const element = resolve(document, '#/components/schemas/BuildingFileElementResponse') as Json;
    expect((element['properties'] as Json)['mapping']).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Mapping' }, { type: 'null' }],
    });
  });

  it('is the same on every build', () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(buildOpenApiDocument()));
  });
});
