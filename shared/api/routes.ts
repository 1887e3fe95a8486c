/**
 * The route table: every endpoint of spec §4 plus our extensions, with the schemas of each part of the request and of
 * each response. The server registers its routes from it, the OpenAPI document is generated from it, and the client
 * takes its URL building and its types from it.
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Int32, Uuid } from './schema-kit';
import {
  AccountResponse,
  BuildingCircularInformation,
  BuildingFileElementRequest,
  BuildingFileElementRequestV21,
  BuildingFileElementResponse,
  BuildingFileImportReport,
  BuildingFileRequest,
  BuildingFileResponse,
  BuildingFileSettings,
  BuildingFileStatusResponse,
  BuildingFinancialInformation,
  BuildingRequest,
  BuildingRequestV21,
  BuildingResponse,
  BuildingValidation,
  ClassificationMethod,
  CreatePassportRequest,
  FileDownloadResponse,
  Material,
  MaterialFinancialValue,
  MaterialFinancialValueRequest,
  MaterialMatch,
  MaterialMatchRequest,
  MaterialRequest,
  PortfolioFileRequest,
  PortfolioFileResponse,
  PortfolioFileStatusResponse,
  PortfolioRequest,
  PortfolioResponse,
  Problem,
  Product,
  ProductChild,
  ProductChildRequest,
  ProductFinancialValue,
  ProductFinancialValueRequest,
  ProductMatch,
  ProductMatchRequest,
  ProductRequest,
  TokenRequest,
  TokenResponse,
  UserRightRequest,
  UserRightResponse,
} from './schemas';
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

// --- the shape of a route ---------------------------------------------------------------------------------------------

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Operation groups: the v2.3 documentation's tags plus ours. */
export type ApiTag =
  | 'Accounts'
  | 'Building'
  | 'BuildingFile'
  | 'BuildingFileElement'
  | 'Material'
  | 'Portfolio'
  | 'PortfolioFile'
  | 'Product'
  | 'SystemSettings'
  | 'Token'
  | 'Extension';

/** A JSON request body. */
export interface JsonBody<S extends TSchema = TSchema> {
  readonly kind: 'json';
  readonly schema: S;
  readonly description: string;
}

/** A raw request body (file content) in one of the given content types; the wildcard type accepts any. */
export interface BinaryBody<ContentType extends string = string> {
  readonly kind: 'binary';
  readonly contentTypes: readonly ContentType[];
  readonly description: string;
}

/** A request body. */
export type RequestBody = JsonBody | BinaryBody;

/** A JSON answer; `location` says the answer carries a Location header. */
export interface JsonResponse<S extends TSchema = TSchema> {
  readonly kind: 'json';
  readonly schema: S;
  readonly description: string;
  readonly location?: boolean;
}

/** An answer without a body. */
export interface EmptyResponse {
  readonly kind: 'empty';
  readonly description: string;
  readonly location?: boolean;
}

/** An answer whose body is file content. */
export interface BinaryResponse {
  readonly kind: 'binary';
  readonly description: string;
}

/** An error answer: problem details. */
export interface ProblemResponse {
  readonly kind: 'problem';
  readonly description: string;
}

/** One answer of a route. */
export type ResponseDefinition = JsonResponse | EmptyResponse | BinaryResponse | ProblemResponse;

/** Statuses of successful answers. */
export type SuccessStatus = 200 | 201 | 202 | 204;
/** Statuses of error answers a route may declare. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415;

/** The permission level a route needs (decisions §5): Read for reads, Write for changes, Administrator for rights and tokens. */
export type RouteLevel = 'read' | 'write' | 'administrator';

/**
 * The resource a route's path names, by the path parameters that name it; the server answers 404 for one outside the
 * key's scope before it answers 403 for a level too low. `account`: the path names no scoped resource (the key's own
 * account, its lists, its tokens).
 */
export type RouteScope =
  | { readonly kind: 'account' }
  | { readonly kind: 'building'; readonly building: string }
  | { readonly kind: 'building-file'; readonly building: string; readonly file: string }
  | { readonly kind: 'portfolio'; readonly portfolio: string }
  | { readonly kind: 'portfolio-file'; readonly portfolio: string; readonly file: string }
  | { readonly kind: 'catalogue-item'; readonly catalogue: 'materials' | 'products'; readonly item: string };

/** Who may call a keyed route: declared on each, so a new route cannot go without a level and a scope. */
export interface RouteAccess {
  readonly level: RouteLevel;
  readonly scope: RouteScope;
}

/** One endpoint. `path` is Fastify style (`/buildings/:id`), relative to the version prefix. */
export type RouteDefinition = RouteBase &
  (
    | { readonly auth: 'apiKey'; readonly access: RouteAccess }
    /** No API key (signed downloads, the OpenAPI document). */
    | { readonly auth: 'none'; readonly access?: undefined }
  );

/** What every route has. */
interface RouteBase {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly tag: ApiTag;
  readonly summary: string;
  readonly params?: TObject;
  readonly querystring?: TObject;
  readonly headers?: TObject;
  readonly body?: RequestBody;
  readonly responses: { readonly [status: number]: ResponseDefinition };
}

// --- builders ---------------------------------------------------------------------------------------------------------

function jsonBody<S extends TSchema>(schema: S, description: string): JsonBody<S> {
  return { kind: 'json', schema, description };
}

function binaryBody<const ContentType extends string>(
  contentTypes: readonly ContentType[],
  description: string,
): BinaryBody<ContentType> {
  return { kind: 'binary', contentTypes, description };
}

function json<S extends TSchema>(schema: S, description: string, headers: { location?: boolean } = {}): JsonResponse<S> {
  return { kind: 'json', schema, description, ...headers };
}

function empty(description: string, headers: { location?: boolean } = {}): EmptyResponse {
  return { kind: 'empty', description, ...headers };
}

/** The usual wording of each error answer. */
export const PROBLEM_DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'The path, query, headers or body are invalid; `errors` names each field.',
  401: 'The API key is missing, unknown or expired.',
  403: "The key's permission level is too low for this operation.",
  404: "Not found, or outside the key's scope.",
  409: 'The resource is not in a state that allows this operation.',
  413: 'The body is larger than the server accepts.',
  415: 'The body has a content type this operation does not accept.',
};

/** The error answers of a route, all problem details. */
function problems<const S extends ErrorStatus>(...statuses: S[]): { readonly [K in S]: ProblemResponse } {
  return Object.fromEntries(
    statuses.map((status) => [status, { kind: 'problem', description: PROBLEM_DESCRIPTIONS[status] }]),
  ) as { [K in S]: ProblemResponse };
}

/** Errors every keyed route can answer with. */
const keyErrors = [401, 403] as const;
/** Errors of a keyed route that reads one resource by its path. */
const resourceErrors = [400, 401, 403, 404] as const;
/** Errors of a keyed route that takes a body for a resource in its path. */
const resourceBodyErrors = [400, 401, 403, 404, 413, 415] as const;

/** Keys a route table by operationId, keeping each route's own type; a repeated operationId is a bug caught at load. */
function byOperationId<const L extends readonly RouteDefinition[]>(list: L): { readonly [R in L[number] as R['operationId']]: R } {
  const table: Record<string, RouteDefinition> = {};
  for (const route of list) {
    if (route.operationId in table) throw new Error(`Duplicate operationId ${route.operationId}`);
    table[route.operationId] = route;
  }
  return table as { readonly [R in L[number] as R['operationId']]: R };
}

// --- path, query and header schemas -----------------------------------------------------------------------------------

const IdParams = Type.Object({ id: Uuid() });
const IdFileNameParams = Type.Object({ id: Uuid(), fileName: Type.String({ minLength: 1 }) });
const BuildingIdParams = Type.Object({ buildingId: Uuid() });
const BuildingFileParams = Type.Object({ buildingId: Uuid(), fileId: Uuid() });
const BuildingFileUploadParams = Type.Object({ buildingId: Uuid(), fileId: Uuid(), fileName: Type.String({ minLength: 1 }) });
const ElementParams = Type.Object({
  buildingId: Uuid(),
  fileId: Uuid(),
  elementId: Type.String({ minLength: 1, description: 'The element identifier, not a uuid.' }),
});
const PortfolioIdParams = Type.Object({ portfolioId: Uuid() });
const PortfolioFileParams = Type.Object({ portfolioId: Uuid(), fileId: Uuid() });
const PortfolioFileUploadParams = Type.Object({ portfolioId: Uuid(), fileId: Uuid(), fileName: Type.String({ minLength: 1 }) });
const TokenParams = Type.Object({ tokenId: Uuid() });
const SubjectTokenParams = Type.Object({ id: Uuid(), tokenId: Uuid() });
const DownloadParams = Type.Object({ token: Type.String({ minLength: 1, description: 'The signed token of the download address.' }) });

const DatabaseQuery = Type.Object({
  databaseId: Type.Optional(Uuid({ description: "Only this database's entries; absent: the platform's own database." })),
});

/** A rate of the financial calculation; "default used when empty" (spec §8), so an empty value is accepted too. */
function financialRate(description: string) {
  return Type.Optional(
    Type.Unsafe<number | ''>({
      anyOf: [{ type: 'number' }, { type: 'string', maxLength: 0 }],
      description: `${description} Absent or empty: the default.`,
    }),
  );
}

const FinancialQuery = Type.Object({
  inflation: financialRate('Yearly inflation as a fraction (default 0.02).'),
  bdbIndex: financialRate('Yearly BDB index as a fraction (default 0.025).'),
  discountRate: financialRate('Yearly discount rate as a fraction (default 0.03).'),
});

/** OData options of the element list (decisions §10); the server parses the expressions itself. */
const ElementListQuery = Type.Object({
  $select: Type.Optional(Type.String({ description: 'Comma-separated properties to include.' })),
  $filter: Type.Optional(Type.String({ description: 'A Boolean condition.' })),
  $top: Type.Optional(Int32({ minimum: 0, description: 'Maximum number of elements; absent: all.' })),
  $skip: Type.Optional(Int32({ minimum: 0, description: 'Number of elements skipped.' })),
  $orderby: Type.Optional(Type.String({ description: 'Properties with asc or desc; ties in element id order.' })),
});

/** The `Idempotency-Key` extension (IETF draft "The Idempotency-Key HTTP Header Field"), on every POST without file content. */
const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[!-~]+$',
    description:
      'An extension of this server, optional for clients: 1 to 255 visible ASCII characters, a new one (e.g. a uuid) per request the client means to make once. ' +
      'For 24 hours the same key with the same request answers the first successful answer again, with `Idempotent-Replayed: true`, without doing the work twice; ' +
      'with another request it answers 422, and while the first request is still running 409 with Retry-After. An answer that is not 2xx is not kept, so the key may be retried.',
  }),
);

const IdempotentHeaders = Type.Object({ 'idempotency-key': IdempotencyKey });

const PassportHeaders = Type.Object({
  'accept-language': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'The language of the passport: nl, en, es, fr, it or de, or a full Accept-Language header from which the best of those is taken; en when absent or none fits.',
    }),
  ),
  'idempotency-key': IdempotencyKey,
});

const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;

// --- the table --------------------------------------------------------------------------------------------------------

const routeList = [
  // Accounts
  {
    operationId: 'getCurrentAccount',
    method: 'GET',
    path: '/accounts/current',
    tag: 'Accounts',
    summary: 'Gets the current account for the token.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(AccountResponse, 'The account of the key.'), ...problems(...keyErrors) },
  },
  {
    operationId: 'listAvailableDatabases',
    method: 'GET',
    path: '/accounts/availabledatabases',
    tag: 'Accounts',
    summary: "Gets the available element databases for the token's account.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(AccountResponse), 'The available element databases.'), ...problems(...keyErrors) },
  },

  // Buildings
  {
    operationId: 'listBuildings',
    method: 'GET',
    path: '/buildings',
    tag: 'Building',
    summary: 'Gets all buildings.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(BuildingResponse), 'All buildings the key sees.'), ...problems(...keyErrors) },
  },
  {
    operationId: 'createBuilding',
    method: 'POST',
    path: '/buildings',
    tag: 'Building',
    summary: 'Adds a building.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: jsonBody(BuildingRequest, 'The building.'),
    responses: {
      201: json(BuildingResponse, 'The building was created; Location gives its address.', { location: true }),
      ...problems(400, 401, 403, 404, 413, 415),
    },
  },
  {
    operationId: 'getBuilding',
    method: 'GET',
    path: '/buildings/:id',
    tag: 'Building',
    summary: 'Gets a building by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    responses: { 200: json(BuildingResponse, 'The building.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceBuilding',
    method: 'PUT',
    path: '/buildings/:id',
    tag: 'Building',
    summary: 'Replaces a building.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    body: jsonBody(BuildingRequest, 'The building, replacing it entirely.'),
    responses: { 200: json(BuildingResponse, 'The building as replaced.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'deleteBuilding',
    method: 'DELETE',
    path: '/buildings/:id',
    tag: 'Building',
    summary: 'Deletes the building and all related data.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    responses: { 204: empty('The building and all its data were deleted.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getBuildingCircular',
    method: 'GET',
    path: '/buildings/:id/circular',
    tag: 'Building',
    summary: 'Gets the circular information of a building.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    responses: { 200: json(BuildingCircularInformation, 'The circularity figures.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getBuildingFinancial',
    method: 'GET',
    path: '/buildings/:id/financial',
    tag: 'Building',
    summary: 'Gets the financial information of a building.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    querystring: FinancialQuery,
    responses: { 200: json(BuildingFinancialInformation, 'The financial figures.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getBuildingValidation',
    method: 'GET',
    path: '/buildings/:id/validation',
    tag: 'Building',
    summary: 'Gets building validation parameters.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    responses: {
      200: json(BuildingValidation, 'The validation figures over the active source files.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'listBuildingUsers',
    method: 'GET',
    path: '/buildings/:id/users',
    tag: 'Building',
    summary: 'Gets all users for a building.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    responses: {
      200: json(Type.Array(UserRightResponse), 'The users and tokens with a right on the building.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'replaceBuildingUsers',
    method: 'PUT',
    path: '/buildings/:id/users',
    tag: 'Building',
    summary: 'Replaces the security of users for a building.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(UserRightRequest), 'The levels to set; users not listed keep theirs, level 0 removes a right.'),
    responses: {
      200: json(UserRightResponse, 'The rights were set; the body is one right, as the platform answers.'),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'processBuilding',
    method: 'POST',
    path: '/buildings/:id/process',
    tag: 'Building',
    summary: 'Schedules the building for processing, recalculates all data.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    responses: {
      202: empty('The recalculation was scheduled; Location gives the building, whose isDirty is false when done.', {
        location: true,
      }),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'exportBuildingPassport',
    method: 'POST',
    path: '/buildings/:id/exportpassport',
    tag: 'Building',
    summary: 'Schedules the generation of a PDF building passport.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    headers: PassportHeaders,
    responses: {
      202: empty('The PDF passport was scheduled; Location gives the status of the new passport file.', { location: true }),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'exportBuildingExcelPassport',
    method: 'POST',
    path: '/buildings/:id/exportexcelpassport',
    tag: 'Building',
    summary: 'Schedules the generation of an Excel building passport.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    headers: PassportHeaders,
    responses: {
      202: empty('The Excel passport was scheduled; Location gives the status of the new passport file.', {
        location: true,
      }),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'addBuildingImage',
    method: 'POST',
    path: '/buildings/:id/images/:fileName',
    tag: 'Building',
    summary: 'Adds an image to a building.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'id' } },
    params: IdFileNameParams,
    body: binaryBody(IMAGE_CONTENT_TYPES, 'The image.'),
    responses: {
      200: json(Type.String(), 'The image was added; the body is its stored file name.'),
      ...problems(...resourceBodyErrors),
    },
  },

  // Building files
  {
    operationId: 'listBuildingFiles',
    method: 'GET',
    path: '/buildings/:buildingId/files',
    tag: 'BuildingFile',
    summary: 'Gets all building files.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building', building: 'buildingId' } },
    params: BuildingIdParams,
    responses: { 200: json(Type.Array(BuildingFileResponse), 'All files of the building.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createBuildingFile',
    method: 'POST',
    path: '/buildings/:buildingId/files',
    tag: 'BuildingFile',
    summary: 'Adds a building file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building', building: 'buildingId' } },
    params: BuildingIdParams,
    headers: IdempotentHeaders,
    body: jsonBody(BuildingFileRequest, 'The building file.'),
    responses: {
      201: json(BuildingFileResponse, 'The file was created, status Creating; Location gives its address.', {
        location: true,
      }),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'getBuildingFile',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId',
    tag: 'BuildingFile',
    summary: 'Gets a building file by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 200: json(BuildingFileResponse, 'The building file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'deleteBuildingFile',
    method: 'DELETE',
    path: '/buildings/:buildingId/files/:fileId',
    tag: 'BuildingFile',
    summary: 'Deletes a building file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 204: empty('The file, its elements and its content were deleted.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getBuildingFileStatus',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/status',
    tag: 'BuildingFile',
    summary: 'Gets a building file status by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 200: json(BuildingFileStatusResponse, 'The progress of the file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getBuildingFileDownload',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/download',
    tag: 'BuildingFile',
    summary: 'Gets a download url for the building file.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: {
      200: json(FileDownloadResponse, 'A signed, expiring address of the content.'),
      ...problems(...resourceErrors, 409),
    },
  },
  {
    operationId: 'setBuildingFileActive',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/active',
    tag: 'BuildingFile',
    summary: 'Activates or deactivates a building file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    body: jsonBody(Type.Boolean(), 'Whether the file is included in the building figures.'),
    responses: {
      200: json(BuildingFileResponse, 'The file with its new isActive; the building is recalculated.'),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'setBuildingFileImporting',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/setimporting',
    tag: 'BuildingFile',
    summary: "Sets the status of a file to 'importing', so elements can be added or updated.",
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    responses: { 204: empty('The file is Importing.'), ...problems(...resourceErrors, 409) },
  },
  {
    operationId: 'startBuildingFileRefinement',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/startrefinement',
    tag: 'BuildingFile',
    summary: 'Starts the refinement of a building file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    responses: {
      202: empty('The refinement was started; Location gives the status of the file.', { location: true }),
      ...problems(...resourceErrors, 409),
    },
  },
  {
    operationId: 'uploadBuildingFile',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/upload/:fileName',
    tag: 'BuildingFile',
    summary: 'Uploads a building file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileUploadParams,
    body: binaryBody(['application/octet-stream'], 'The file content.'),
    responses: {
      201: empty('A source file was uploaded and scheduled for processing; Location gives its status.', { location: true }),
      202: empty('An information file was uploaded and stored; Location gives its status.', { location: true }),
      ...problems(...resourceBodyErrors, 409),
    },
  },

  // Building file elements
  {
    operationId: 'listElements',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/elements',
    tag: 'BuildingFileElement',
    summary: "Gets a building file's elements by its file identifier.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    querystring: ElementListQuery,
    responses: {
      200: json(Type.Array(BuildingFileElementResponse), 'The elements, in element id order unless $orderby says otherwise.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'createElement',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/elements',
    tag: 'BuildingFileElement',
    summary: 'Creates a new building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    body: jsonBody(BuildingFileElementRequest, 'The element to create.'),
    responses: {
      201: json(BuildingFileElementResponse, 'The element was created; Location gives its address.', { location: true }),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'getElement',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: "Gets a building file element by its identifier and its building file's identifier.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    responses: { 200: json(BuildingFileElementResponse, 'The element.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceElement',
    method: 'PUT',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: 'Updates an existing building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    body: jsonBody(BuildingFileElementRequest, 'The element, replacing it entirely.'),
    responses: {
      200: json(BuildingFileElementResponse, 'The element as replaced.'),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'deleteElement',
    method: 'DELETE',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: 'Deletes an existing building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    responses: { 204: empty('The element was deleted.'), ...problems(...resourceErrors, 409) },
  },

  // Materials
  {
    operationId: 'listMaterials',
    method: 'GET',
    path: '/materials',
    tag: 'Material',
    summary: 'Gets all materials (optionally filtered for a specific database).',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    querystring: DatabaseQuery,
    responses: { 200: json(Type.Array(Material), 'The materials of the database.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createMaterial',
    method: 'POST',
    path: '/materials',
    tag: 'Material',
    summary: 'Adds a material.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: jsonBody(MaterialRequest, 'The material.'),
    responses: {
      201: json(Material, 'The material was created; Location gives its address.', { location: true }),
      ...problems(400, 401, 403, 413, 415),
    },
  },
  {
    operationId: 'getMaterial',
    method: 'GET',
    path: '/materials/:id',
    tag: 'Material',
    summary: 'Gets a material by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Material, 'The material.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceMaterial',
    method: 'PUT',
    path: '/materials/:id',
    tag: 'Material',
    summary: 'Replaces a material.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    body: jsonBody(MaterialRequest, 'The material, replacing it entirely.'),
    responses: { 200: json(Material, 'The material as replaced.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'listMaterialFinancialValues',
    method: 'GET',
    path: '/materials/:id/financialvalues',
    tag: 'Material',
    summary: 'Gets the financial values of a material, for manual import mode.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(MaterialFinancialValue), "The material's prices."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'addMaterialFinancialValue',
    method: 'POST',
    path: '/materials/:id/financialvalues',
    tag: 'Material',
    summary: 'Adds a financial value for a material, for manual import mode.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(MaterialFinancialValueRequest, 'The price to add.'),
    responses: { 200: json(MaterialFinancialValue, 'The price was added.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'replaceMaterialFinancialValues',
    method: 'PUT',
    path: '/materials/:id/financialvalues',
    tag: 'Material',
    summary: 'Replaces the financial values for a material, for manual import mode.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(MaterialFinancialValueRequest), 'The prices, replacing all.'),
    responses: { 200: json(Type.Array(MaterialFinancialValue), 'The prices as set.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'listMaterialMatches',
    method: 'GET',
    path: '/materials/:id/matches',
    tag: 'Material',
    summary: 'Gets the matches of a material.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(MaterialMatch), "The material's matches."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'addMaterialMatch',
    method: 'POST',
    path: '/materials/:id/matches',
    tag: 'Material',
    summary: 'Adds a match for a material.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(MaterialMatchRequest, 'The match to add.'),
    responses: { 200: json(MaterialMatch, 'The match was added.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'replaceMaterialMatches',
    method: 'PUT',
    path: '/materials/:id/matches',
    tag: 'Material',
    summary: 'Replaces the matches for a material.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'materials', item: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(MaterialMatchRequest), 'The matches, replacing all.'),
    responses: { 200: json(Type.Array(MaterialMatch), 'The matches as set.'), ...problems(...resourceBodyErrors) },
  },

  // Portfolios
  {
    operationId: 'listPortfolios',
    method: 'GET',
    path: '/portfolios',
    tag: 'Portfolio',
    summary: 'Gets all portfolios.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(PortfolioResponse), 'All portfolios of the account.'), ...problems(...keyErrors) },
  },
  {
    operationId: 'createPortfolio',
    method: 'POST',
    path: '/portfolios',
    tag: 'Portfolio',
    summary: 'Adds a portfolio.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: jsonBody(PortfolioRequest, 'The portfolio.'),
    responses: {
      201: json(PortfolioResponse, 'The portfolio was created; Location gives its address.', { location: true }),
      ...problems(400, 401, 403, 413, 415),
    },
  },
  {
    operationId: 'getPortfolio',
    method: 'GET',
    path: '/portfolios/:id',
    tag: 'Portfolio',
    summary: 'Gets a portfolio by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    responses: { 200: json(PortfolioResponse, 'The portfolio.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replacePortfolio',
    method: 'PUT',
    path: '/portfolios/:id',
    tag: 'Portfolio',
    summary: 'Replaces a portfolio.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    body: jsonBody(PortfolioRequest, 'The portfolio, replacing it entirely.'),
    responses: { 200: json(PortfolioResponse, 'The portfolio as replaced.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'deletePortfolio',
    method: 'DELETE',
    path: '/portfolios/:id',
    tag: 'Portfolio',
    summary: 'Deletes a portfolio.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    responses: {
      204: empty('The portfolio was deleted.'),
      ...problems(...resourceErrors, 409),
    },
  },
  {
    operationId: 'listPortfolioAvailableDatabases',
    method: 'GET',
    path: '/portfolios/:id/availabledatabases',
    tag: 'Portfolio',
    summary: 'Gets the available element databases for files in this portfolio.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(AccountResponse), 'The available element databases.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'exportPortfolioPassport',
    method: 'POST',
    path: '/portfolios/:id/passport',
    tag: 'Portfolio',
    summary: 'Schedules the generation of a PDF portfolio passport.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    headers: PassportHeaders,
    body: jsonBody(CreatePassportRequest, 'The buildings the passport covers.'),
    responses: {
      202: json(PortfolioFileResponse, 'The passport file was created, status Creating; Location gives its address.', {
        location: true,
      }),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'listPortfolioBuildings',
    method: 'GET',
    path: '/portfolios/:id/buildings',
    tag: 'Portfolio',
    summary: 'Gets all buildings for a portfolio.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(BuildingResponse), 'The buildings of the portfolio.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'listPortfolioUsers',
    method: 'GET',
    path: '/portfolios/:id/users',
    tag: 'Portfolio',
    summary: 'Gets all users for a portfolio.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    responses: {
      200: json(Type.Array(UserRightResponse), 'The users and tokens with a right on the portfolio.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'replacePortfolioUsers',
    method: 'PUT',
    path: '/portfolios/:id/users',
    tag: 'Portfolio',
    summary: 'Replaces the security of users for a portfolio.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(UserRightRequest), 'The levels to set; users not listed keep theirs, level 0 removes a right.'),
    responses: {
      200: json(UserRightResponse, 'The rights were set; the body is one right, as the platform answers.'),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'setPortfolioLogo',
    method: 'POST',
    path: '/portfolios/:id/logo/:fileName',
    tag: 'Portfolio',
    summary: 'Sets the logo of a portfolio.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdFileNameParams,
    body: binaryBody(IMAGE_CONTENT_TYPES, 'The logo image.'),
    responses: {
      200: json(Type.String(), 'The logo was set; the body is its stored file name.'),
      ...problems(...resourceBodyErrors),
    },
  },

  // Portfolio files
  {
    operationId: 'listPortfolioFiles',
    method: 'GET',
    path: '/portfolios/:portfolioId/files',
    tag: 'PortfolioFile',
    summary: 'Gets all portfolio files for a portfolio.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio', portfolio: 'portfolioId' } },
    params: PortfolioIdParams,
    responses: { 200: json(Type.Array(PortfolioFileResponse), 'All files of the portfolio.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createPortfolioFile',
    method: 'POST',
    path: '/portfolios/:portfolioId/files',
    tag: 'PortfolioFile',
    summary: 'Adds a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'portfolioId' } },
    params: PortfolioIdParams,
    headers: IdempotentHeaders,
    body: jsonBody(PortfolioFileRequest, 'The portfolio file.'),
    responses: {
      201: json(PortfolioFileResponse, 'The file was created, status Creating; Location gives its address.', {
        location: true,
      }),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'getPortfolioFile',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId',
    tag: 'PortfolioFile',
    summary: 'Gets a portfolio file by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 200: json(PortfolioFileResponse, 'The portfolio file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'deletePortfolioFile',
    method: 'DELETE',
    path: '/portfolios/:portfolioId/files/:fileId',
    tag: 'PortfolioFile',
    summary: 'Deletes a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 204: empty('The file and its content were deleted.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getPortfolioFileStatus',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId/status',
    tag: 'PortfolioFile',
    summary: 'Gets a portfolio file status by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 200: json(PortfolioFileStatusResponse, 'The progress of the file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'uploadPortfolioFile',
    method: 'POST',
    path: '/portfolios/:portfolioId/files/:fileId/upload/:fileName',
    tag: 'PortfolioFile',
    summary: 'Uploads a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileUploadParams,
    body: binaryBody(['*/*'], 'The file content, in any content type (stored as sent; application/octet-stream when absent).'),
    responses: {
      204: empty('The file was uploaded.'),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'getPortfolioFileDownload',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId/download',
    tag: 'PortfolioFile',
    summary: 'Gets a download url for the portfolio file.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: {
      200: json(FileDownloadResponse, 'A signed, expiring address of the content.'),
      ...problems(...resourceErrors, 409),
    },
  },

  // Products
  {
    operationId: 'listProducts',
    method: 'GET',
    path: '/products',
    tag: 'Product',
    summary: 'Gets all products.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    querystring: DatabaseQuery,
    responses: { 200: json(Type.Array(Product), 'The products of the database.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createProduct',
    method: 'POST',
    path: '/products',
    tag: 'Product',
    summary: 'Adds a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: jsonBody(ProductRequest, 'The product.'),
    responses: {
      201: json(Product, 'The product was created; Location gives its address.', { location: true }),
      ...problems(400, 401, 403, 413, 415),
    },
  },
  {
    operationId: 'getProduct',
    method: 'GET',
    path: '/products/:id',
    tag: 'Product',
    summary: 'Gets a product by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Product, 'The product.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceProduct',
    method: 'PUT',
    path: '/products/:id',
    tag: 'Product',
    summary: 'Replaces a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    body: jsonBody(ProductRequest, 'The product, replacing it entirely.'),
    responses: { 200: json(Product, 'The product as replaced.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'listProductMatches',
    method: 'GET',
    path: '/products/:id/matches',
    tag: 'Product',
    summary: 'Gets the matches of a product.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(ProductMatch), "The product's matches."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'addProductMatch',
    method: 'POST',
    path: '/products/:id/matches',
    tag: 'Product',
    summary: 'Adds a match for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(ProductMatchRequest, 'The match to add.'),
    responses: { 201: json(ProductMatch, 'The match was added.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'replaceProductMatches',
    method: 'PUT',
    path: '/products/:id/matches',
    tag: 'Product',
    summary: 'Replaces the matches for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(ProductMatchRequest), 'The matches, replacing all.'),
    responses: { 200: json(Type.Array(ProductMatch), 'The matches as set.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'listProductChildren',
    method: 'GET',
    path: '/products/:id/children',
    tag: 'Product',
    summary: 'Gets the children of a product.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(ProductChild), "The product's children."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'addProductChild',
    method: 'POST',
    path: '/products/:id/children',
    tag: 'Product',
    summary: 'Adds a child for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(ProductChildRequest, 'The child to add.'),
    responses: { 201: json(ProductChild, 'The child was added.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'replaceProductChildren',
    method: 'PUT',
    path: '/products/:id/children',
    tag: 'Product',
    summary: 'Replaces the children for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(ProductChildRequest), 'The children, replacing all.'),
    responses: { 200: json(Type.Array(ProductChild), 'The children as set.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'listProductFinancialValues',
    method: 'GET',
    path: '/products/:id/financialvalues',
    tag: 'Product',
    summary: 'Gets the financial values of a product.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    responses: { 200: json(Type.Array(ProductFinancialValue), "The product's prices."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'addProductFinancialValue',
    method: 'POST',
    path: '/products/:id/financialvalues',
    tag: 'Product',
    summary: 'Adds a financial value for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(ProductFinancialValueRequest, 'The price to add.'),
    responses: { 200: json(ProductFinancialValue, 'The price was added.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'replaceProductFinancialValues',
    method: 'PUT',
    path: '/products/:id/financialvalues',
    tag: 'Product',
    summary: 'Replaces the financial values for a product.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'catalogue-item', catalogue: 'products', item: 'id' } },
    params: IdParams,
    body: jsonBody(Type.Array(ProductFinancialValueRequest), 'The prices, replacing all.'),
    responses: { 200: json(Type.Array(ProductFinancialValue), 'The prices as set.'), ...problems(...resourceBodyErrors) },
  },

  // System data
  {
    operationId: 'listClassificationMethods',
    method: 'GET',
    path: '/system/classificationmethods',
    tag: 'SystemSettings',
    summary: 'Gets the available classification methods.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(ClassificationMethod), 'The classification methods.'), ...problems(...keyErrors) },
  },

  // Tokens (decisions §5)
  {
    operationId: 'createAccountToken',
    method: 'POST',
    path: '/accounts/current/tokens',
    tag: 'Token',
    summary: "Adds an API token for the key's whole account.",
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: jsonBody(TokenRequest, 'The token.'),
    responses: {
      201: json(TokenResponse, 'The token was created; its key is shown this once.'),
      ...problems(400, 401, 403, 413, 415),
    },
  },
  {
    operationId: 'deleteAccountToken',
    method: 'DELETE',
    path: '/accounts/current/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes an account API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'account' } },
    params: TokenParams,
    responses: { 204: empty('The token was deleted; its key no longer works.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createPortfolioToken',
    method: 'POST',
    path: '/portfolios/:id/tokens',
    tag: 'Token',
    summary: 'Adds an API token for a portfolio.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(TokenRequest, 'The token.'),
    responses: {
      201: json(TokenResponse, 'The token was created; its key is shown this once.'),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'deletePortfolioToken',
    method: 'DELETE',
    path: '/portfolios/:id/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes a portfolio API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: SubjectTokenParams,
    responses: { 204: empty('The token was deleted; its key no longer works.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createBuildingToken',
    method: 'POST',
    path: '/buildings/:id/tokens',
    tag: 'Token',
    summary: 'Adds an API token for a building.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: jsonBody(TokenRequest, 'The token.'),
    responses: {
      201: json(TokenResponse, 'The token was created; its key is shown this once.'),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'deleteBuildingToken',
    method: 'DELETE',
    path: '/buildings/:id/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes a building API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: SubjectTokenParams,
    responses: { 204: empty('The token was deleted; its key no longer works.'), ...problems(...resourceErrors) },
  },

  // Extensions
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Extension',
    summary: 'Gets the OpenAPI 3.1 document of this API; needs no API key, so tools can read it.',
    auth: 'none',
    responses: {
      200: json(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }), 'The OpenAPI document.'),
    },
  },
  {
    operationId: 'getBuildingFileImportReport',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/report',
    tag: 'Extension',
    summary:
      "Gets a building file's import report: which elements count in the circularity index, where their material, " +
      'quantities and building layer came from, and why the others do not count.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: {
      200: json(BuildingFileImportReport, 'The report; for a file that is not Mapped yet, of the elements it holds so far.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'getBuildingFileSettings',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/settings',
    tag: 'Extension',
    summary: "Gets a building file's tags and the databases its materials are matched against first.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 200: json(BuildingFileSettings, "The file's settings."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceBuildingFileSettings',
    method: 'PUT',
    path: '/buildings/:buildingId/files/:fileId/settings',
    tag: 'Extension',
    summary:
      "Replaces a building file's tags and the databases its materials are matched against first; refine the file again " +
      '(setimporting, startrefinement) for a new choice of databases to take effect.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    body: jsonBody(BuildingFileSettings, 'The settings, replacing them entirely.'),
    responses: { 200: json(BuildingFileSettings, 'The settings as stored.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'downloadBlob',
    method: 'GET',
    path: '/downloads/:token',
    tag: 'Extension',
    summary: 'Downloads file content through a signed address from a /download answer; needs no API key.',
    auth: 'none',
    params: DownloadParams,
    responses: {
      200: { kind: 'binary', description: 'The file content, in the content type it was stored with.' },
      403: { kind: 'problem', description: 'The address expired or its signature is invalid.' },
      404: { kind: 'problem', description: 'The content no longer exists.' },
    },
  },
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

// --- types that flow from a route -------------------------------------------------------------------------------------

/** The file content a binary body may be given as. */
export type BinaryContent = Uint8Array | Blob | ReadableStream<Uint8Array>;

type StaticOf<S> = S extends TSchema ? Static<S> : never;

/** The path parameters of a route, or undefined when it has none. */
export type RouteParams<R extends RouteDefinition> = R['params'] extends TObject ? StaticOf<R['params']> : undefined;
/** The query parameters of a route, or undefined when it has none. */
export type RouteQuery<R extends RouteDefinition> = R['querystring'] extends TObject ? StaticOf<R['querystring']> : undefined;
/** The request headers a route declares, or undefined when it declares none. */
export type RouteHeaders<R extends RouteDefinition> = R['headers'] extends TObject ? StaticOf<R['headers']> : undefined;
/** The request body of a route: the JSON value, file content, or undefined without a body. */
export type RouteBody<R extends RouteDefinition> =
  R['body'] extends JsonBody<infer S> ? Static<S> : R['body'] extends BinaryBody ? BinaryContent : undefined;
/** The content types a binary body of a route may be sent with. */
export type RouteBodyContentType<R extends RouteDefinition> =
  R['body'] extends BinaryBody<infer ContentType> ? (ContentType extends '*/*' ? string : ContentType) : never;

/** The success statuses of a route. */
export type RouteSuccessStatus<R extends RouteDefinition> = Extract<keyof R['responses'], SuccessStatus>;

type ResponseValue<D> = D extends JsonResponse<infer S> ? Static<S> : D extends BinaryResponse ? Uint8Array : undefined;

/** Each success status of a route with the value its body parses to (undefined without a body, bytes for content). */
export type RouteSuccess<R extends RouteDefinition> = {
  [S in RouteSuccessStatus<R>]: { status: S; value: ResponseValue<R['responses'][S]> };
}[RouteSuccessStatus<R>];

// --- for the server ---------------------------------------------------------------------------------------------------

type FastifyResponseSchemas<Responses> = {
  [Status in keyof Responses as Responses[Status] extends JsonResponse | ProblemResponse ? Status : never]: Responses[Status] extends JsonResponse<infer S>
    ? S
    : typeof Problem;
};

/**
 * The part of a route Fastify validates and serialises with, typed so that Fastify's TypeBox type provider types the
 * handler: JSON bodies only, and a schema per JSON or problem answer.
 */
export type FastifyRouteSchema<R extends RouteDefinition> = {
  params: R['params'];
  querystring: R['querystring'];
  headers: R['headers'];
  body: R['body'] extends JsonBody<infer S> ? S : undefined;
  response: FastifyResponseSchemas<R['responses']>;
};

/**
 * The Fastify `schema` of a route. Binary bodies and bodiless answers get no schema: Fastify must neither parse
 * content as JSON nor serialise an empty answer.
 */
export function fastifyRouteSchema<R extends RouteDefinition>(route: R): FastifyRouteSchema<R> {
  const response: Record<number, TSchema> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    if (answer.kind === 'json') response[Number(status)] = answer.schema;
    else if (answer.kind === 'problem') response[Number(status)] = Problem;
  }
  // Absent parts are left out: Fastify warns about a part that is present but undefined.
  return {
    ...(route.params === undefined ? {} : { params: route.params }),
    ...(route.querystring === undefined ? {} : { querystring: route.querystring }),
    ...(route.headers === undefined ? {} : { headers: route.headers }),
    ...(route.body?.kind === 'json' ? { body: route.body.schema } : {}),
    response,
  } as FastifyRouteSchema<R>;
}
