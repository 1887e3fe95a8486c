import type { ProblemFieldError } from '../shared/api/schemas';

/** Problem types of this server, one per kind of failure (RFC 9457 `type`). */
const problemTitles = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;

/** A status this server answers with problem details. */
export type ProblemStatus = keyof typeof problemTitles;

/** An error that becomes a problem-details response with its status; its message is safe to show. */
export class ApiError extends Error {
  constructor(
    readonly status: ProblemStatus,
    message: string,
    readonly errors: ProblemFieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The title of a problem status. */
export function problemTitle(status: ProblemStatus): string {
  return problemTitles[status];
}

/** 400 with the offending field named. */
export function badRequest(message: string, errors: ProblemFieldError[] = []): ApiError {
  return new ApiError(400, message, errors);
}

/** 404 for an unknown id or one outside the caller's scope (existence is never revealed). */
export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, `${what} '${id}' was not found.`);
}

/** 409 for a request that conflicts with the resource's state. */
export function conflict(message: string): ApiError {
  return new ApiError(409, message);
}

/** 403 for a key that sees the resource but lacks the level. */
export function forbidden(message: string): ApiError {
  return new ApiError(403, message);
}
