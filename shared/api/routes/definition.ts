/** The shape of a route: its method, path, parts of the request, answers and who may call it. */
import type { TObject, TSchema } from 'typebox';

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
