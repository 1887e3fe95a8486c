import type { Readable } from 'node:stream';
import type {
  ApiVersion,
  BinaryBody,
  JsonBody,
  OperationId,
  RouteHeaders,
  RouteParams,
  RouteQuery,
  RouteSuccess,
  RouteTable,
} from '../../shared/api/routes';
import type { Static, TSchema } from 'typebox';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';

/** The route of an operation in either version's table. */
type RouteOf<K extends OperationId> = RouteTable[K];

/** A request body as a handler receives it: the validated JSON value, or the raw stream of file content. */
type ServerBody<R> = R extends { body: JsonBody<infer S extends TSchema> }
  ? Static<S>
  : R extends { body: BinaryBody }
    ? Readable
    : undefined;

/** Everything a handler gets: validated parts of the request, the caller, the server. */
export interface OperationCall<K extends OperationId> {
  readonly ctx: ServerContext;
  /** The caller; routes without an API key get a principal of level 0 that sees nothing. */
  readonly principal: Principal;
  readonly version: ApiVersion;
  readonly params: RouteParams<RouteOf<K>>;
  readonly query: RouteQuery<RouteOf<K>>;
  readonly headers: RouteHeaders<RouteOf<K>>;
  readonly body: ServerBody<RouteOf<K>>;
  /** The request's content type (lower case, without parameters); '' when absent. */
  readonly contentType: string;
  /** `scheme://host` of the request, for absolute addresses. */
  readonly baseUrl: string;
  /** The version prefix this request came in on, e.g. `/api/v2.3`. */
  readonly prefix: string;
}

/** A streamed answer: file content or a long JSON array, written without holding it all in memory. */
export interface StreamedReply {
  readonly status: 200;
  readonly stream: Readable;
  readonly contentType: string;
  readonly contentLength?: number;
  readonly fileName?: string;
}

/** What a handler answers: a declared success status with its value, a Location where the route declares one. */
export type OperationReply<K extends OperationId> =
  | (RouteSuccess<RouteOf<K>> & { readonly location?: string })
  | StreamedReply;

/** The handler of one operation. */
export type OperationHandler<K extends OperationId> = (call: OperationCall<K>) => Promise<OperationReply<K>>;

/** A handler for every operation. */
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };
