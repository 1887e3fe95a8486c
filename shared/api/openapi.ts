/**
 * The OpenAPI 3.1 document of the API, generated from the route table and the schemas. Pure and deterministic: the
 * committed `openapi.json` must equal its output byte for byte.
 *
 * The runtime schemas are self-contained (Fastify is simpler without shared `$ref`s); here every schema exported from
 * `./schemas`, and every enum schema exported from `./enums` as `<Name>Schema`, becomes a named component that the
 * operations reference. A schema is recognised by identity, and a Nullable/Maybe wrapper through the schema it wraps.
 */
import * as enums from './enums';
import { INT32_MAX, INT32_MIN, nullableSource } from './schema-kit';
import * as schemas from './schemas';
import {
  API_PREFIXES,
  JSON_REQUEST_CONTENT_TYPES,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_DESCRIPTIONS,
  routes,
  type ApiTag,
  type ErrorStatus,
  type HttpMethod,
  type RequestBody,
  type ResponseDefinition,
  type RouteDefinition,
} from './routes';

type JsonObject = { [key: string]: unknown };

const COMPONENT_PREFIX = '#/components/schemas/';

const tagDescriptions: Readonly<Record<ApiTag, string>> = {
  Accounts: 'The account of the key and the element databases it may use.',
  Building: 'Buildings, their figures and their users.',
  BuildingFile: 'Source and information files of a building, and their processing.',
  BuildingFileElement: 'The elements of a building file (OData enabled list).',
  Material: 'Materials, their prices and their matches.',
  Portfolio: 'Portfolios, their buildings, users and passports.',
  PortfolioFile: 'Documentation files and passports of a portfolio.',
  Product: 'Products, their children, prices and matches.',
  SystemSettings: 'System data not bound to any entity.',
  Token: 'API tokens of an account, portfolio or building (extension of this server).',
  Extension: "What this server adds: the OpenAPI document, signed downloads and building files' import reports.",
};

const methodOrder: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];

/** Names of the shared error answers under `components.responses`. */
const problemResponseNames: Readonly<Record<ErrorStatus, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'ContentTooLarge',
  415: 'UnsupportedMediaType',
};

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function componentNames(): Map<object, string> {
  const names = new Map<object, string>();
  for (const [name, schema] of Object.entries(schemas)) names.set(schema, name);
  for (const [name, value] of Object.entries(enums)) {
    if (name.endsWith('Schema') && isJsonObject(value)) names.set(value, name.slice(0, -'Schema'.length));
  }
  return names;
}

/** Converts runtime schemas to OpenAPI ones, collecting the components they reference. */
class SchemaConverter {
  private readonly names = componentNames();
  private readonly referenced = new Set<string>();

  /** The OpenAPI form of a schema used in an operation or inside another schema. */
  convert(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.convert(item));
    if (!isJsonObject(schema)) return schema;
    const name = this.names.get(schema);
    if (name !== undefined) return this.reference(name);
    const source = nullableSource(schema);
    const sourceName = source === undefined ? undefined : this.names.get(source);
    if (sourceName !== undefined) return { anyOf: [this.reference(sourceName), { type: 'null' }] };
    return this.convertBody(schema);
  }

  /** Every referenced component, converted, sorted by name; converting one may reference more. */
  components(): JsonObject {
    const converted = new Map<string, unknown>();
    const schemasByName = new Map([...this.names].map(([schema, name]) => [name, schema]));
    for (let pending = this.pending(converted); pending.length > 0; pending = this.pending(converted)) {
      for (const name of pending) converted.set(name, this.convertBody(schemasByName.get(name) as JsonObject));
    }
    return Object.fromEntries([...converted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private pending(converted: ReadonlyMap<string, unknown>): string[] {
    return [...this.referenced].filter((name) => !converted.has(name));
  }

  private reference(name: string): JsonObject {
    this.referenced.add(name);
    return { $ref: `${COMPONENT_PREFIX}${name}` };
  }

  private convertBody(schema: JsonObject): JsonObject {
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && isJsonObject(value)) {
        result[key] = Object.fromEntries(Object.entries(value).map(([property, child]) => [property, this.convert(child)]));
      } else if (key === 'items' || key === 'additionalProperties' || key === 'anyOf' || key === 'not') {
        result[key] = this.convert(value);
      } else {
        result[key] = value;
      }
    }
    return withNumberFormat(result);
  }
}

/** OpenAPI names number widths with `format`; int32 bounds become `format: int32` instead of noise. */
function withNumberFormat(schema: JsonObject): JsonObject {
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if ('format' in schema) return schema;
  if (types.includes('number')) return { ...schema, format: 'double' };
  if (!types.includes('integer')) return schema;
  const { minimum, maximum } = schema;
  const isInt32 =
    'enum' in schema ||
    (typeof minimum === 'number' && typeof maximum === 'number' && minimum >= INT32_MIN && maximum <= INT32_MAX);
  if (!isInt32) return { ...schema, format: 'int64' };
  const result: JsonObject = { ...schema, format: 'int32' };
  if (minimum === INT32_MIN) delete result['minimum'];
  if (maximum === INT32_MAX) delete result['maximum'];
  return result;
}

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function parameters(route: RouteDefinition, converter: SchemaConverter): JsonObject[] {
  const located: Array<[string, RouteDefinition['params']]> = [
    ['path', route.params],
    ['query', route.querystring],
    ['header', route.headers],
  ];
  const result: JsonObject[] = [];
  for (const [location, object] of located) {
    if (object === undefined) continue;
    const required = new Set<string>(object.required);
    for (const [name, schema] of Object.entries(object.properties)) {
      const { description, ...rest } = converter.convert(schema) as JsonObject;
      result.push({
        name,
        in: location,
        ...(typeof description === 'string' ? { description } : {}),
        required: location === 'path' || required.has(name),
        schema: rest,
      });
    }
  }
  return result;
}

function requestBody(body: RequestBody, converter: SchemaConverter): JsonObject {
  if (body.kind === 'binary') {
    return {
      description: body.description,
      required: true,
      content: Object.fromEntries(
        body.contentTypes.map((contentType) => [contentType, { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
  }
  const schema = converter.convert(body.schema);
  return {
    description: body.description,
    required: true,
    content: Object.fromEntries(JSON_REQUEST_CONTENT_TYPES.map((contentType) => [contentType, { schema }])),
  };
}

function problemResponse(description: string, converter: SchemaConverter): JsonObject {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: converter.convert(schemas.Problem) } } };
}

function isErrorStatus(status: number): status is ErrorStatus {
  return status in problemResponseNames;
}

function response(status: number, definition: ResponseDefinition, converter: SchemaConverter): JsonObject {
  const locationHeader =
    'location' in definition && definition.location === true
      ? { headers: { Location: { description: 'The address named in the description.', schema: { type: 'string' } } } }
      : {};
  switch (definition.kind) {
    case 'json':
      return {
        description: definition.description,
        ...locationHeader,
        content: { 'application/json': { schema: converter.convert(definition.schema) } },
      };
    case 'empty':
      return { description: definition.description, ...locationHeader };
    case 'binary':
      return { description: definition.description, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };
    case 'problem':
      // The common wording is shared under components.responses; a route-specific wording stays inline.
      return isErrorStatus(status) && definition.description === PROBLEM_DESCRIPTIONS[status]
        ? { $ref: `#/components/responses/${problemResponseNames[status]}` }
        : problemResponse(definition.description, converter);
    default:
      return enums.assertNever(definition, 'response kind');
  }
}

/** The tags of operations this server adds to the API; they are marked `x-extension` so clients can tell. */
const EXTENSION_TAGS: ReadonlySet<ApiTag> = new Set<ApiTag>(['Token', 'Extension']);

function operation(route: RouteDefinition, converter: SchemaConverter): JsonObject {
  const routeParameters = parameters(route, converter);
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: route.operationId,
    ...(EXTENSION_TAGS.has(route.tag) ? { 'x-extension': true } : {}),
    ...(route.auth === 'none' ? { security: [] } : {}),
    ...(routeParameters.length > 0 ? { parameters: routeParameters } : {}),
    ...(route.body === undefined ? {} : { requestBody: requestBody(route.body, converter) }),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, definition]) => [status, response(Number(status), definition, converter)]),
    ),
  };
}

/** The OpenAPI 3.1 document of API v2.3. */
export function buildOpenApiDocument(): object {
  const converter = new SchemaConverter();
  const routeList: readonly RouteDefinition[] = Object.values(routes);
  const paths: Record<string, JsonObject> = {};
  for (const route of routeList) {
    const pathItem = (paths[openApiPath(route.path)] ??= {});
    pathItem[route.method.toLowerCase()] = operation(route, converter);
  }
  // Paths keep the table's order; within a path the methods go get, put, post, delete.
  const orderedPaths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        methodOrder.map((method) => method.toLowerCase()).filter((key) => key in item).map((key) => [key, item[key]]),
      ),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Circularity Desk — Building Circularity Data API',
      version: '2.3',
      description:
        'The Building Circularity Data API v2.3. Enums travel as integers; requests also accept their names, in any ' +
        'letter case. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: API_PREFIXES['v2.3'] }],
    security: [{ ApiKey: [] }],
    tags: (Object.keys(tagDescriptions) as ApiTag[]).map((name) => ({ name, description: tagDescriptions[name] })),
    paths: orderedPaths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      responses: Object.fromEntries(
        (Object.keys(problemResponseNames).map(Number) as ErrorStatus[]).map((status) => [
          problemResponseNames[status],
          problemResponse(PROBLEM_DESCRIPTIONS[status], converter),
        ]),
      ),
      schemas: converter.components(),
    },
  };
}
