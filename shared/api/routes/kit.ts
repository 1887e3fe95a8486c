/** The route kit: builders of request bodies and answers, the usual error answers, and the keying of a table. */
import type { TSchema } from 'typebox';
import type {
  BinaryBody,
  EmptyResponse,
  ErrorStatus,
  JsonBody,
  JsonResponse,
  ProblemResponse,
  RouteDefinition,
} from './definition';

export function jsonBody<S extends TSchema>(schema: S, description: string): JsonBody<S> {
  return { kind: 'json', schema, description };
}

export function binaryBody<const ContentType extends string>(
  contentTypes: readonly ContentType[],
  description: string,
): BinaryBody<ContentType> {
  return { kind: 'binary', contentTypes, description };
}

export function json<S extends TSchema>(schema: S, description: string, headers: { location?: boolean } = {}): JsonResponse<S> {
  return { kind: 'json', schema, description, ...headers };
}

export function empty(description: string, headers: { location?: boolean } = {}): EmptyResponse {
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
export function problems<const S extends ErrorStatus>(...statuses: S[]): { readonly [K in S]: ProblemResponse } {
  return Object.fromEntries(
    statuses.map((status) => [status, { kind: 'problem', description: PROBLEM_DESCRIPTIONS[status] }]),
  ) as { [K in S]: ProblemResponse };
}

/** Errors every keyed route can answer with. */
export const keyErrors = [401, 403] as const;
/** Errors of a keyed route that reads one resource by its path. */
export const resourceErrors = [400, 401, 403, 404] as const;
/** Errors of a keyed route that takes a body for a resource in its path. */
export const resourceBodyErrors = [400, 401, 403, 404, 413, 415] as const;

/** Keys a route table by operationId, keeping each route's own type; a repeated operationId is a bug caught at load. */
export function byOperationId<const L extends readonly RouteDefinition[]>(list: L): { readonly [R in L[number] as R['operationId']]: R } {
  const table: Record<string, RouteDefinition> = {};
  for (const route of list) {
    if (route.operationId in table) throw new Error(`Duplicate operationId ${route.operationId}`);
    table[route.operationId] = route;
  }
  return table as { readonly [R in L[number] as R['operationId']]: R };
}
