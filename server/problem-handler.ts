import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Problem, ProblemFieldError } from '../shared/api/schemas';
import { ApiError, problemTitle, type ProblemStatus } from './errors';
import { ODataError } from './odata/errors';
import { unstorableValueMessage } from './store/dialect';


/** Builds a problem body for a status. */
export function problemBody(status: ProblemStatus, detail: string, instance: string, errors: ProblemFieldError[] = []): Problem {
  return {
    // about:blank: the status says what went wrong (RFC 9457 §4.2.1); detail and errors say where.
    type: 'about:blank',
    title: problemTitle(status),
    status,
    detail,
    instance,
    errors,
    message: detail,
  };
}

/** Sends a problem; `Retry-After` and the like are set by the caller. */
export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.status(body.status).type('application/problem+json').send(body);
}

/** Turns an ajv error's instancePath (`/portfolioId`, `/0/value`) and context into a field path. */
function fieldPath(context: string | undefined, instancePath: string, missing: unknown): string {
  const base = instancePath.replace(/^\//, '').replaceAll('/', '.');
  const leaf = typeof missing === 'string' ? (base === '' ? missing : `${base}.${missing}`) : base;
  const prefix = context === undefined || context === 'body' ? '' : `${context}.`;
  return `${prefix}${leaf}` || (context ?? 'body');
}

/** Statuses a framework error may carry through as they are (everything else 4xx becomes 400). */
const passThrough = new Set<number>([400, 401, 403, 404, 409, 413, 415, 429]);


/** The one error handler: every error becomes problem details; 5xx never shows internals. */
export function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const instance = request.url.split('?')[0] ?? request.url;
  if (error instanceof ApiError) {
    return sendProblem(reply, problemBody(error.status, error.message, instance, error.errors));
  }
  if (error instanceof ODataError) {
    return sendProblem(reply, problemBody(400, error.message, instance, [{ path: error.option, message: `${error.detail} at position ${error.position}` }]));
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation !== undefined) {
    const errors = fastifyError.validation.map((issue) => ({
      path: fieldPath(fastifyError.validationContext, issue.instancePath, issue.params['missingProperty']),
      message: issue.message ?? 'is invalid',
    }));
    const detail = `The request is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`;
    return sendProblem(reply, problemBody(400, detail, instance, errors));
  }
  const unstorable = unstorableValueMessage(error);
  if (unstorable !== undefined) {
    request.log.warn({ err: error }, 'a value of the request could not be stored');
    return sendProblem(reply, problemBody(400, `The request is invalid: ${unstorable}`, instance));
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const mapped = (passThrough.has(status) ? status : 400) as ProblemStatus;
    return sendProblem(reply, problemBody(mapped, fastifyError.message, instance));
  }
  request.log.error({ err: error }, 'request failed');
  return sendProblem(reply, problemBody(500, 'The server could not complete the request. It has been logged.', instance));
}
