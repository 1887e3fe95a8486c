/** The types that flow from a route: what its path, query, headers and body take and what its answers give. */
import type { Static, TObject, TSchema } from 'typebox';
import type { BinaryBody, BinaryResponse, JsonBody, JsonResponse, RouteDefinition, SuccessStatus } from './definition';

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
