import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PREFIXES,
  fastifyRouteSchema,
  routes,
  routesV21,
  type RouteDefinition,
} from '../../../../shared/api/routes';
import { BuildingRequestV21, BuildingFileElementRequestV21 } from '../../../../shared/api/schemas';

/** Spec §4, endpoint by endpoint: method, path as the spec writes it, success statuses. */
const SPEC_ENDPOINTS: ReadonlyArray<readonly [string, string, readonly number[]]> = [
  // 4.1 Accounts
  ['GET', '/accounts/current', [200]],
  ['GET', '/accounts/availabledatabases', [200]],
  // 4.2 Buildings
  ['GET', '/buildings', [200]],
  ['POST', '/buildings', [201]],
  ['GET', '/buildings/{id}', [200]],
  ['PUT', '/buildings/{id}', [200]],
  ['DELETE', '/buildings/{id}', [204]],
  ['GET', '/buildings/{id}/circular', [200]],
  ['GET', '/buildings/{id}/financial', [200]],
  ['GET', '/buildings/{id}/validation', [200]],
  ['GET', '/buildings/{id}/users', [200]],
  ['PUT', '/buildings/{id}/users', [200]],
  ['POST', '/buildings/{id}/process', [202]],
  ['POST', '/buildings/{id}/exportpassport', [202]],
  ['POST', '/buildings/{id}/exportexcelpassport', [202]],
  ['POST', '/buildings/{id}/images/{fileName}', [200]],
  // 4.3 Building files
  ['GET', '/buildings/{buildingId}/files', [200]],
  ['POST', '/buildings/{buildingId}/files', [201]],
  ['GET', '/buildings/{buildingId}/files/{id}', [200]],
  ['DELETE', '/buildings/{buildingId}/files/{id}', [204]],
  ['GET', '/buildings/{buildingId}/files/{id}/status', [200]],
  ['GET', '/buildings/{buildingId}/files/{id}/download', [200]],
  ['POST', '/buildings/{buildingId}/files/{id}/active', [200]],
  ['POST', '/buildings/{buildingId}/files/{id}/setimporting', [204]],
  ['POST', '/buildings/{buildingId}/files/{id}/startrefinement', [202]],
  ['POST', '/buildings/{buildingId}/files/{id}/upload/{fileName}', [201, 202]],
  // 4.4 Building file elements
  ['GET', '/buildings/{buildingId}/files/{fileId}/elements', [200]],
  ['POST', '/buildings/{buildingId}/files/{fileId}/elements', [201]],
  ['GET', '/buildings/{buildingId}/files/{fileId}/elements/{id}', [200]],
  ['PUT', '/buildings/{buildingId}/files/{fileId}/elements/{id}', [200]],
  ['DELETE', '/buildings/{buildingId}/files/{fileId}/elements/{id}', [204]],
  // 4.5 Materials
  ['GET', '/materials', [200]],
  ['POST', '/materials', [201]],
  ['GET', '/materials/{id}', [200]],
  ['PUT', '/materials/{id}', [200]],
  ['GET', '/materials/{id}/financialvalues', [200]],
  ['POST', '/materials/{id}/financialvalues', [200]],
  ['PUT', '/materials/{id}/financialvalues', [200]],
  ['GET', '/materials/{id}/matches', [200]],
  ['POST', '/materials/{id}/matches', [200]],
  ['PUT', '/materials/{id}/matches', [200]],
  // 4.6 Portfolios
  ['GET', '/portfolios', [200]],
  ['POST', '/portfolios', [201]],
  ['GET', '/portfolios/{id}', [200]],
  ['PUT', '/portfolios/{id}', [200]],
  ['DELETE', '/portfolios/{id}', [204]],
  ['GET', '/portfolios/{id}/availabledatabases', [200]],
  ['POST', '/portfolios/{id}/passport', [202]],
  ['GET', '/portfolios/{id}/buildings', [200]],
  ['GET', '/portfolios/{id}/users', [200]],
  ['PUT', '/portfolios/{id}/users', [200]],
  ['POST', '/portfolios/{id}/logo/{fileName}', [200]],
  // 4.7 Portfolio files
  ['GET', '/portfolios/{portfolioId}/files', [200]],
  ['POST', '/portfolios/{portfolioId}/files', [201]],
  ['GET', '/portfolios/{portfolioId}/files/{id}', [200]],
  ['DELETE', '/portfolios/{portfolioId}/files/{id}', [204]],
  ['GET', '/portfolios/{portfolioId}/files/{id}/status', [200]],
  ['GET', '/portfolios/{portfolioId}/files/{id}/download', [200]],
  ['POST', '/portfolios/{portfolioId}/files/{id}/upload/{fileName}', [204]],
  // 4.8 Products
  ['GET', '/products', [200]],
  ['POST', '/products', [201]],
  ['GET', '/products/{id}', [200]],
  ['PUT', '/products/{id}', [200]],
  ['GET', '/products/{id}/matches', [200]],
  ['POST', '/products/{id}/matches', [201]],
  ['PUT', '/products/{id}/matches', [200]],
  ['GET', '/products/{id}/children', [200]],
  ['POST', '/products/{id}/children', [201]],
  ['PUT', '/products/{id}/children', [200]],
  ['GET', '/products/{id}/financialvalues', [200]],
  ['POST', '/products/{id}/financialvalues', [200]],
  ['PUT', '/products/{id}/financialvalues', [200]],
  // 4.9 System data
  ['GET', '/system/classificationmethods', [200]],
];

/** Our extensions (decisions §5 tokens, the OpenAPI document, signed downloads, import reports, model changes, file settings). */
const EXTENSION_ENDPOINTS: ReadonlyArray<readonly [string, string, readonly number[]]> = [
  ['POST', '/accounts/current/tokens', [201]],
  ['DELETE', '/accounts/current/tokens/{tokenId}', [204]],
  ['POST', '/portfolios/{id}/tokens', [201]],
  ['DELETE', '/portfolios/{id}/tokens/{tokenId}', [204]],
  ['POST', '/buildings/{id}/tokens', [201]],
  ['DELETE', '/buildings/{id}/tokens/{tokenId}', [204]],
  ['GET', '/openapi.json', [200]],
  ['GET', '/downloads/{token}', [200]],
  ['GET', '/buildings/{buildingId}/files/{fileId}/report', [200]],
  ['GET', '/buildings/{buildingId}/files/{fileId}/modelchanges', [200]],
  ['POST', '/buildings/{buildingId}/files/{fileId}/modelchanges', [200]],
  ['GET', '/buildings/{buildingId}/files/{fileId}/settings', [200]],
  ['PUT', '/buildings/{buildingId}/files/{fileId}/settings', [200]],
];

const routeList: RouteDefinition[] = Object.values(routes);

function shape(path: string): string {
  return path.replace(/\{[^}]+\}|:[A-Za-z]+/g, '*');
}

function successStatuses(route: RouteDefinition): number[] {
  return Object.keys(route.responses)
    .map(Number)
    .filter((status) => status < 300)
    .sort();
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] ?? '');
}

describe('the route table', () => {
  it.each([...SPEC_ENDPOINTS, ...EXTENSION_ENDPOINTS])('has %s %s answering %j', (method, path, statuses) => {
    const matching = routeList.filter((route) => route.method === method && shape(route.path) === shape(path));
    expect(matching).toHaveLength(1);
    expect(successStatuses(matching[0] as RouteDefinition)).toEqual([...statuses].sort());
  });

  it('has no route beyond the spec and our extensions', () => {
    expect(routeList).toHaveLength(SPEC_ENDPOINTS.length + EXTENSION_ENDPOINTS.length);
  });

  it('keys every route by its own, camelCase, verb-first operationId', () => {
    for (const [key, route] of Object.entries(routes)) {
      expect(route.operationId).toBe(key);
      expect(route.operationId).toMatch(/^(list|get|create|add|replace|delete|set|process|export|start|upload|download|resolve)[A-Z]/);
    }
    expect(new Set(routeList.map((route) => `${route.method} ${route.path}`)).size).toBe(routeList.length);
  });

  it('declares exactly the path parameters of each path, with uuids except for names and element ids', () => {
    for (const route of routeList) {
      const declared = Object.keys(route.params?.properties ?? {});
      expect(declared.sort(), route.operationId).toEqual(pathParams(route.path).sort());
      for (const [name, schema] of Object.entries(route.params?.properties ?? {})) {
        const isFreeText = ['elementId', 'fileName', 'token'].includes(name);
        expect((schema as { format?: string }).format, `${route.operationId} ${name}`).toBe(isFreeText ? undefined : 'uuid');
      }
    }
  });

  it('uses the same parameter names everywhere', () => {
    const names = new Set(routeList.flatMap((route) => pathParams(route.path)));
    expect([...names].sort()).toEqual(['buildingId', 'elementId', 'fileId', 'fileName', 'id', 'portfolioId', 'token', 'tokenId']);
  });

  it('asks for the API key everywhere except on the OpenAPI document and signed downloads', () => {
    expect(routeList.filter((route) => route.auth === 'none').map((route) => route.operationId)).toEqual([
      'getOpenApiDocument',
      'downloadBlob',
    ]);
  });

  it('takes file content on uploads, images and logos only, in their content types', () => {
    const binary = Object.fromEntries(
      routeList.flatMap((route) => (route.body?.kind === 'binary' ? [[route.operationId, route.body.contentTypes]] : [])),
    );
    expect(binary).toEqual({
      addBuildingImage: ['image/png', 'image/jpeg'],
      uploadBuildingFile: ['application/octet-stream'],
      setPortfolioLogo: ['image/png', 'image/jpeg'],
      uploadPortfolioFile: ['*/*'],
    });
  });

  it('answers errors as problem details only', () => {
    for (const route of routeList) {
      for (const [status, answer] of Object.entries(route.responses)) {
        expect(Number(status) >= 400, `${route.operationId} ${status}`).toBe(answer.kind === 'problem');
      }
    }
  });

  it('differs in v2.1 only in the building and element bodies (decisions §12)', () => {
    const changed = Object.keys(routesV21).filter(
      (key) => routesV21[key as keyof typeof routesV21] !== routes[key as keyof typeof routes],
    );
    expect(changed.sort()).toEqual(['createBuilding', 'createElement', 'replaceBuilding', 'replaceElement']);
    expect(routesV21.createElement.body.schema).toBe(BuildingFileElementRequestV21);
    expect(routesV21.createBuilding.body.schema).toBe(BuildingRequestV21);
    expect(API_PREFIXES).toEqual({ 'v2.3': '/api/v2.3', 'v2.1': '/api/v2.1' });
  });
});

describe('the route table in Fastify (default ajv, fast-json-stringify)', () => {
  const building = {
    portfolioId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    name: 'Town hall',
    images: [],
    ...Object.fromEntries(
      Object.keys(routes.getBuilding.responses[200].schema.properties)
        .filter((key) => !['portfolioId', 'name', 'images', 'isDirty', 'hasDirtyElements', 'classificationType', 'id'].includes(key))
        .map((key) => [key, null]),
    ),
    isDirty: false,
    hasDirtyElements: false,
    classificationType: 'fc6b8c6b-acb6-4c8a-a18b-fafee57964f1',
    id: '9804b68f-25b5-4224-a408-1eca54aaa5bc',
  };

  /** Every route of both versions registered with its schemas; getBuilding answers a fixed building, most others 204. */
  async function app() {
    const fastify = Fastify();
    // As the server's own handler does (decisions §4): validation failures become problem details.
    fastify.setErrorHandler(async (error: { statusCode?: number; message: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      return reply
        .code(status)
        .type('application/problem+json')
        .send({ type: 'about:blank', title: 'Error', status, detail: error.message, instance: request.url, errors: [], message: error.message });
    });
    for (const version of ['v2.3', 'v2.1'] as const) {
      const table: RouteDefinition[] = Object.values(version === 'v2.3' ? routes : routesV21);
      await fastify.register(
        async (scope) => {
          for (const route of table) {
            scope.route({
              method: route.method,
              url: route.path,
              schema: fastifyRouteSchema(route),
              handler: async (request, reply) => {
                if (route.operationId === 'getBuilding') return { ...building, internalColumn: 'never sent' };
                if (route.operationId === 'replaceBuildingUsers') {
                  return reply.send({ userId: building.portfolioId, name: null, level: 70, userType: 0, isInvite: false, body: request.body });
                }
                return reply.code(204).send();
              },
            });
          }
        },
        { prefix: API_PREFIXES[version] },
      );
    }
    await fastify.ready();
    return fastify;
  }

  let fastify: Awaited<ReturnType<typeof app>>;
  beforeAll(async () => {
    fastify = await app();
  });
  afterAll(async () => {
    await fastify.close();
  });

  it('compiles every schema and routes parameters of different names at one position', async () => {
    const answer = await fastify.inject({ method: 'GET', url: `/api/v2.3/buildings/${building.id}` });
    expect(answer.statusCode).toBe(200);
    // Unknown server-side fields never leak; nulls stay null.
    expect(answer.json()).toEqual(building);
    const files = await fastify.inject({ method: 'GET', url: `/api/v2.3/buildings/${building.id}/files/${building.portfolioId}` });
    expect(files.statusCode).toBe(204);
  });

  it('rejects an invalid uuid in the path and accepts enum names in any case', async () => {
    expect((await fastify.inject({ method: 'GET', url: '/api/v2.3/buildings/not-a-uuid' })).statusCode).toBe(400);
    const users = await fastify.inject({
      method: 'PUT',
      url: `/api/v2.3/buildings/${building.id}/users`,
      payload: [{ userId: building.portfolioId, level: 'write', unknown: 'ignored' }],
    });
    expect(users.statusCode).toBe(200);
    const badLevel = await fastify.inject({
      method: 'PUT',
      url: `/api/v2.3/buildings/${building.id}/users`,
      payload: [{ userId: building.portfolioId, level: 'owner' }],
    });
    expect(badLevel.statusCode).toBe(400);
    expect(badLevel.headers['content-type']).toContain('application/problem+json');
  });

  it('takes v2.1 element bodies under /api/v2.1 only', async () => {
    const url = (version: string) => `/api/${version}/buildings/${building.id}/files/${building.portfolioId}/elements`;
    const v21Element = { id: 'wall-1', phase: 'new', classification: '21.22' };
    expect((await fastify.inject({ method: 'POST', url: url('v2.1'), payload: v21Element })).statusCode).toBe(204);
    expect((await fastify.inject({ method: 'POST', url: url('v2.1'), payload: { phase: 'new' } })).statusCode).toBe(400);
    expect((await fastify.inject({ method: 'POST', url: url('v2.3'), payload: { id: 'wall-1', phaseLookup: 'new' } })).statusCode).toBe(204);
  });

  it('enforces the limits of spec §8', async () => {
    const create = (payload: object, url = '/api/v2.3/materials') => fastify.inject({ method: 'POST', url, payload });
    expect((await create({ circular: { recycledPercentageFeedstock: 1.2 } })).statusCode).toBe(400);
    expect((await create({ circular: { virginPercentageFeedstock: 1.2, recycledPercentageFeedstock: null } })).statusCode).toBe(204);
    expect((await create({ type: 20, circular: { technicalLifetime: 1001 } }, '/api/v2.3/products')).statusCode).toBe(400);
    expect((await create({ type: 'volumeproduct', circular: { productReusedPercentageEndOfLife: 0.5 } }, '/api/v2.3/products')).statusCode).toBe(204);
    expect((await create({ type: 20, circular: { productReusedPercentageFeedstock: -0.1 } }, '/api/v2.3/products')).statusCode).toBe(400);
  });

  it('accepts an empty financial rate and rejects a non-number', async () => {
    const url = `/api/v2.3/buildings/${building.id}/financial`;
    expect((await fastify.inject({ method: 'GET', url: `${url}?inflation=&bdbIndex=0.03` })).statusCode).toBe(204);
    expect((await fastify.inject({ method: 'GET', url: `${url}?inflation=high` })).statusCode).toBe(400);
  });
});

describe('access (decisions §5)', () => {
  const keyed = routeList.filter((route) => route.auth === 'apiKey');

  it('is declared on every keyed route: a level, and the scope its path names', () => {
    expect(keyed.length).toBeGreaterThan(70);
    for (const route of keyed) {
      expect(['read', 'write', 'administrator'], route.operationId).toContain(route.access?.level);
      expect(route.access?.scope.kind, route.operationId).toBeDefined();
    }
  });

  it('names only path parameters its route has, and every resource the path names', () => {
    for (const route of keyed) {
      const scope = route.access?.scope;
      if (scope === undefined) throw new Error(`${route.operationId} declares no scope`);
      const { kind: _kind, catalogue: _catalogue, ...named } = scope as Record<string, string>;
      const params = Object.keys(route.params?.properties ?? {});
      for (const name of Object.values(named)) expect(params, `${route.operationId} scopes by '${name}'`).toContain(name);
      // Resource ids of the path are all in scope; token ids are checked by the token services against the key.
      const resources = params.filter((name) => ['id', 'buildingId', 'portfolioId', 'fileId'].includes(name));
      expect(Object.values(named).sort(), `${route.operationId} leaves a resource of its path unscoped`).toEqual(resources.sort());
    }
  });

  it('asks Read for reads, at least Write for changes', () => {
    for (const route of keyed) {
      if (route.method !== 'GET') expect(route.access?.level, route.operationId).not.toBe('read');
      else if (!route.operationId.endsWith('Users')) expect(route.access?.level, route.operationId).toBe('read');
    }
  });
});
