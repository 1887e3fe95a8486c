/**
 * The route table: every endpoint of spec §4 plus our extensions, with the schemas of each part of the request and of
 * each response. The server registers its routes from it, the OpenAPI document is generated from it, and the client
 * takes its URL building and its types from it. The routes of each tag live in `routes/`, with the shape of a route
 * (`definition.ts`), the kit their definitions are built with (`kit.ts`, `parameters.ts`) and the types that flow from a
 * route (`derived-types.ts`, `fastify-schema.ts`); this file assembles the table and is the one entry to all of it.
 */
import { accountRoutes } from './routes/accounts';
import { buildingFileElementRoutes } from './routes/building-file-elements';
import { buildingFileRoutes } from './routes/building-files';
import { buildingRoutes } from './routes/buildings';
import type { RouteDefinition } from './routes/definition';
import { extensionRoutes } from './routes/extensions';
import { byOperationId, jsonBody } from './routes/kit';
import { materialRoutes } from './routes/materials';
import { portfolioFileRoutes } from './routes/portfolio-files';
import { portfolioRoutes } from './routes/portfolios';
import { productRoutes } from './routes/products';
import { systemSettingsRoutes } from './routes/system-settings';
import { tokenRoutes } from './routes/tokens';
import { BuildingFileElementRequestV21, BuildingRequestV21 } from './schemas';
import type { ApiVersion } from './versions';

// --- versions and content types ---------------------------------------------------------------------------------------

export { API_PREFIXES, API_VERSIONS, type ApiVersion } from './versions';

/** Content types a JSON request body may be sent with (spec §4). */
export const JSON_REQUEST_CONTENT_TYPES = [
  'application/json',
  'application/json-patch+json',
  'text/json',
  'application/*+json',
] as const;

/** Content type of every error answer (decisions §4). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Languages a passport can be generated in (`accept-language`); `en` when the header is absent. */
export const PASSPORT_LANGUAGES = ['nl', 'en', 'es', 'fr', 'it', 'de'] as const;
/** A passport language. */
export type PassportLanguage = (typeof PASSPORT_LANGUAGES)[number];

// --- the shape of a route and what flows from it -----------------------------------------------------------------------

export type {
  ApiTag,
  BinaryBody,
  BinaryResponse,
  EmptyResponse,
  ErrorStatus,
  HttpMethod,
  JsonBody,
  JsonResponse,
  ProblemResponse,
  RequestBody,
  ResponseDefinition,
  RouteAccess,
  RouteDefinition,
  RouteLevel,
  RouteScope,
  SuccessStatus,
} from './routes/definition';
export type {
  BinaryContent,
  RouteBody,
  RouteBodyContentType,
  RouteHeaders,
  RouteParams,
  RouteQuery,
  RouteSuccess,
  RouteSuccessStatus,
} from './routes/derived-types';
export { fastifyRouteSchema, type FastifyRouteSchema } from './routes/fastify-schema';
export { PROBLEM_DESCRIPTIONS } from './routes/kit';

// --- the table --------------------------------------------------------------------------------------------------------

/** In the order of the v2.3 documentation's tags, ours last: the OpenAPI document lists the paths in this order. */
const routeList = [
  ...accountRoutes,
  ...buildingRoutes,
  ...buildingFileRoutes,
  ...buildingFileElementRoutes,
  ...materialRoutes,
  ...portfolioRoutes,
  ...portfolioFileRoutes,
  ...productRoutes,
  ...systemSettingsRoutes,
  ...tokenRoutes,
  ...extensionRoutes,
] as const satisfies readonly RouteDefinition[];

/** Every route of v2.3, keyed by operationId. */
export const routes = byOperationId(routeList);

/**
 * The routes of v2.1: the same table (decisions §12) except that elements are sent with `phase` and `classification`,
 * and a building may take any classification method.
 */
export const routesV21 = {
  ...routes,
  createBuilding: { ...routes.createBuilding, body: jsonBody(BuildingRequestV21, 'The building.') },
  replaceBuilding: { ...routes.replaceBuilding, body: jsonBody(BuildingRequestV21, 'The building, replacing it entirely.') },
  createElement: { ...routes.createElement, body: jsonBody(BuildingFileElementRequestV21, 'The element to create.') },
  replaceElement: {
    ...routes.replaceElement,
    body: jsonBody(BuildingFileElementRequestV21, 'The element, replacing it entirely.'),
  },
} as const satisfies Readonly<Record<OperationId, RouteDefinition>>;

/** The route table of each version. */
export const routesByVersion = { 'v2.3': routes, 'v2.1': routesV21 } as const;

/** The v2.3 route table's type. */
export type Routes = typeof routes;
/** A route table of any version. */
export type RouteTable = (typeof routesByVersion)[ApiVersion];
/** The operationId of an endpoint. */
export type OperationId = keyof Routes;
