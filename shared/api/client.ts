/**
 * The typed HTTP client of the API: one `call(operationId, input)` whose input and result types come from the route
 * table. It never throws for what the network or the server does, never logs, and never echoes the API key.
 */
import type { TObject } from 'typebox';
import {
  API_PREFIXES,
  PROBLEM_CONTENT_TYPE,
  routesByVersion,
  type ApiVersion,
  type BinaryBody,
  type BinaryContent,
  type JsonBody,
  type ResponseDefinition,
  type RouteBody,
  type RouteBodyContentType,
  type RouteDefinition,
  type RouteHeaders,
  type RouteParams,
  type RouteQuery,
  type RouteSuccess,
} from './routes';
import { assertNever } from './enums';
import type { Problem, ProblemFieldError } from './schemas';
import { isRecord } from '../is-record';
import { fetchFollowingOwnRedirects } from './own-redirects';
import { v21AnswerValue, v21RequestBody } from './v21-elements';

/** How to reach one server. */
export interface ApiClientOptions<V extends ApiVersion = 'v2.3'> {
  /** Scheme, host and optional path before `/api/…`, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  apiVersion?: V;
  /** Supplies the key per call, so a vault can keep it out of memory between calls; undefined sends none. */
  apiKey: () => Promise<string | undefined> | string | undefined;
  fetch?: typeof globalThis.fetch;
  /** Aborts a call (request and response body) that takes longer. */
  timeoutMs?: number;
}

/** Why a call got no HTTP answer that could be used. */
export interface NetworkError {
  reason: 'unreachable' | 'timeout' | 'aborted' | 'invalid-request' | 'invalid-response';
  /** Says what happened; never contains the API key. */
  message: string;
  /** The underlying error, for diagnostics. */
  cause?: unknown;
}

type ParamsInput<R extends RouteDefinition> = R['params'] extends TObject
  ? { params: RouteParams<R> }
  : { params?: undefined };
type QueryInput<R extends RouteDefinition> = R['querystring'] extends TObject
  ? { query?: RouteQuery<R> }
  : { query?: undefined };
type HeadersInput<R extends RouteDefinition> = R['headers'] extends TObject
  ? { headers?: RouteHeaders<R> }
  : { headers?: undefined };
type ContentTypeInput<ContentType extends string> = string extends ContentType
  ? { contentType?: string }
  : [ContentType] extends ['application/octet-stream']
    ? { contentType?: ContentType }
    : { contentType: ContentType };
type BodyInput<R extends RouteDefinition> = R['body'] extends JsonBody
  ? { body: RouteBody<R> }
  : R['body'] extends BinaryBody
    ? { body: BinaryContent } & ContentTypeInput<RouteBodyContentType<R>>
    : { body?: undefined };

/** What a call of a route takes. A binary body needs its content type only when the route accepts several. */
export type CallInput<R extends RouteDefinition> = ParamsInput<R> &
  QueryInput<R> &
  HeadersInput<R> &
  BodyInput<R> & { signal?: AbortSignal };

/** The arguments after the operation id: the input, optional when nothing in it is required. */
export type CallArgs<R extends RouteDefinition> = object extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

/** A successful answer: its status, the parsed body and the headers (e.g. Location). */
export type CallOk<R extends RouteDefinition> =
  RouteSuccess<R> extends infer Success
    ? Success extends { status: infer Status; value: infer Value }
      ? { kind: 'ok'; status: Status; value: Value; headers: Headers }
      : never
    : never;

/** A non-2xx answer, as problem details (synthesised when the body was not one). */
export interface CallProblem {
  kind: 'problem';
  status: number;
  problem: Problem;
}

/** A call that got no usable answer. */
export interface CallNetworkFailure {
  kind: 'network';
  error: NetworkError;
}

/** The outcome of a call. */
export type CallResult<R extends RouteDefinition> = CallOk<R> | CallProblem | CallNetworkFailure;

/** A client of one server and API version. */
export interface ApiClient<Table extends Readonly<Record<string, RouteDefinition>>> {
  /** Calls an endpoint; resolves for every outcome, rejects only when `apiKey` rejects. */
  call<OperationId extends keyof Table & string>(
    operationId: OperationId,
    ...args: CallArgs<Table[OperationId]>
  ): Promise<CallResult<Table[OperationId]>>;
}

/** Input as the implementation sees it once the types have done their work. */
interface LooseInput {
  params?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, unknown>>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
}

type LooseResult = { kind: 'ok'; status: number; value: unknown; headers: Headers } | CallProblem | CallNetworkFailure;

class InvalidRequest extends Error {}

function network(reason: NetworkError['reason'], message: string, cause?: unknown): CallNetworkFailure {
  return { kind: 'network', error: cause === undefined ? { reason, message } : { reason, message, cause } };
}

function buildUrl(root: string, route: RouteDefinition, input: LooseInput): string {
  const path = route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = input.params?.[name];
    if (value === undefined || value === null || value === '') {
      throw new InvalidRequest(`Path parameter ${name} of ${route.operationId} is missing.`);
    }
    // encodeURIComponent leaves dots alone, and a URL parser resolves `.` and `..` segments: another resource.
    if (value === '.' || value === '..') throw new InvalidRequest(`Path parameter ${name} of ${route.operationId} cannot be '${String(value)}'.`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const search = query.toString();
  return `${root}${path}${search === '' ? '' : `?${search}`}`;
}

/** A key is sent as is; one a header cannot carry is refused here, because fetch would quote it in its error. */
function isHeaderSafe(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

function isReadableStream(body: unknown): body is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && body instanceof ReadableStream;
}

function binaryContentType(body: BinaryBody, input: LooseInput): string {
  if (input.contentType !== undefined) return input.contentType;
  if (typeof Blob !== 'undefined' && input.body instanceof Blob && input.body.type !== '') return input.body.type;
  const declared = body.contentTypes[0];
  return declared === undefined || declared === '*/*' ? 'application/octet-stream' : declared;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Field errors as we send them (`[{path, message}]`) or as ASP.NET sends them (`{field: [messages]}`). */
function fieldErrors(errors: unknown): ProblemFieldError[] {
  if (Array.isArray(errors)) {
    return errors.flatMap((error) =>
      isRecord(error) && typeof error['path'] === 'string' && typeof error['message'] === 'string'
        ? [{ path: error['path'], message: error['message'] }]
        : [],
    );
  }
  if (isRecord(errors)) {
    return Object.entries(errors).flatMap(([path, messages]) =>
      Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string').map((message) => ({ path, message })) : [],
    );
  }
  return [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Problem details from an error body; fields the server left out are filled in, the HTTP status wins. */
function problemOf(response: Response, instance: string, body: unknown): Problem {
  const title = response.statusText !== '' ? response.statusText : `HTTP ${response.status}`;
  const fields = isRecord(body) && ['type', 'title', 'detail', 'message'].some((key) => text(body[key]) !== undefined) ? body : {};
  const detail =
    text(fields['detail']) ?? text(fields['message']) ?? text(fields['title']) ?? `The server answered ${response.status} ${title}.`;
  return {
    type: text(fields['type']) ?? 'about:blank',
    title: text(fields['title']) ?? title,
    status: response.status,
    detail,
    instance: text(fields['instance']) ?? instance,
    errors: fieldErrors(fields['errors']),
    message: text(fields['message']) ?? detail,
  };
}

function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/i.test(contentType);
}

async function readAnswer(route: RouteDefinition, response: Response, instance: string): Promise<LooseResult> {
  if (!response.ok) {
    const body = await response.text();
    const parsed = isJsonContentType(response.headers.get('content-type')) ? parseJson(body) : undefined;
    return { kind: 'problem', status: response.status, problem: problemOf(response, instance, parsed) };
  }
  // An undeclared success status is read like the route's first declared one.
  const declared: ResponseDefinition | undefined =
    route.responses[response.status] ?? Object.entries(route.responses).find(([status]) => Number(status) < 300)?.[1];
  const ok = (value: unknown): LooseResult => ({ kind: 'ok', status: response.status, value, headers: response.headers });
  switch (declared?.kind) {
    case 'json': {
      const body = await response.text();
      const value = parseJson(body);
      if (value === undefined) {
        return network('invalid-response', `${route.operationId}: the ${response.status} answer is not JSON.`);
      }
      return ok(value);
    }
    case 'binary':
      return ok(new Uint8Array(await response.arrayBuffer()));
    default:
      await response.body?.cancel();
      return ok(undefined);
  }
}

/** Plain words for the system's codes of a server out of reach. */
const UNREACHABLE_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing answers at its address',
  ENOTFOUND: 'its name is not known',
  EAI_AGAIN: 'its name could not be looked up',
  ECONNRESET: 'the connection was cut',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'no route leads to it',
  ENETUNREACH: 'the network is down',
};

/**
 * The message of a call that got no answer, for the people who read it: it names neither the operation nor the
 * address (the caller's log says which call it was).
 */
export function noAnswerMessage(reason: 'aborted' | 'timeout' | 'unreachable', code?: string): string {
  switch (reason) {
    case 'aborted':
      return 'The call was stopped.';
    case 'timeout':
      return 'The server did not answer in time.';
    case 'unreachable': {
      const words = code === undefined ? undefined : (UNREACHABLE_WORDS[code] ?? code);
      return `The server could not be reached${words === undefined ? '' : ` (${words})`}.`;
    }
    default:
      return assertNever(reason, 'no-answer reason');
  }
}

function failureOf(error: unknown, signal: AbortSignal | undefined, timeout: AbortSignal | undefined) {
  if (signal?.aborted === true) return network('aborted', noAnswerMessage('aborted'), error);
  if (timeout?.aborted === true) return network('timeout', noAnswerMessage('timeout'), error);
  // undici reports the reason (ECONNREFUSED, ENOTFOUND, …) as the cause's code; messages are not quoted, see isHeaderSafe.
  const code = isRecord(error) && isRecord(error['cause']) ? text(error['cause']['code']) : undefined;
  return network('unreachable', noAnswerMessage('unreachable', code), error);
}

/** Creates a client of one server, typed by the route table of the chosen API version. */
export function createApiClient<V extends ApiVersion = 'v2.3'>(
  options: ApiClientOptions<V>,
): ApiClient<(typeof routesByVersion)[V]> {
  const version: ApiVersion = options.apiVersion ?? 'v2.3';
  const table: Readonly<Record<string, RouteDefinition>> = routesByVersion[version];
  const root = `${options.baseUrl.replace(/\/+$/, '')}${API_PREFIXES[version]}`;
  // Kept unbound from `options`: browsers reject fetch called as a method of another object.
  const fetchFunction = options.fetch ?? globalThis.fetch;

  async function call(operationId: string, input: LooseInput = {}): Promise<LooseResult> {
    // Own properties only: `toString` or `__proto__` is no operation.
    const route = Object.hasOwn(table, operationId) ? table[operationId] : undefined;
    if (route === undefined) return network('invalid-request', `Unknown operation ${operationId}.`);
    let url: string;
    try {
      url = buildUrl(root, route, input);
    } catch (error) {
      if (error instanceof InvalidRequest) return network('invalid-request', error.message);
      throw error;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (value !== undefined && value !== null) headers.set(name, String(value));
    }
    const answersContent = Object.values(route.responses).some((answer) => answer.kind === 'binary');
    headers.set('accept', answersContent ? '*/*' : `application/json, ${PROBLEM_CONTENT_TYPE}`);
    if (route.auth === 'apiKey') {
      const key = await options.apiKey();
      if (key !== undefined && key !== '') {
        if (!isHeaderSafe(key)) {
          return network('invalid-request', `${operationId}: the API key contains characters a header cannot carry.`);
        }
        headers.set('x-api-key', key);
      }
    }
    // `duplex` is missing from the DOM's RequestInit type but required by fetch for a streamed body.
    const init: RequestInit & { duplex?: 'half' } = { method: route.method, headers };
    if (route.body?.kind === 'json') {
      headers.set('content-type', 'application/json');
      init.body = JSON.stringify(version === 'v2.1' ? v21RequestBody(operationId, input.body) : input.body);
    } else if (route.body?.kind === 'binary') {
      headers.set('content-type', binaryContentType(route.body, input));
      init.body = input.body as RequestInit['body'];
      if (isReadableStream(input.body)) init.duplex = 'half';
    }
    const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const signals = [input.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    if (signal !== undefined) init.signal = signal;
    try {
      const response = await fetchFollowingOwnRedirects(fetchFunction, url, init);
      if (!(response instanceof Response)) return network('invalid-response', response.refused);
      const result = await readAnswer(route, response, new URL(url, 'http://relative.invalid').pathname);
      return version === 'v2.1' && result.kind === 'ok' ? { ...result, value: v21AnswerValue(operationId, result.value) } : result;
    } catch (error) {
      return failureOf(error, input.signal, timeout);
    }
  }

  // The typed signature is a view of `call`: the route table guarantees the input and result shapes it promises.
  return { call } as unknown as ApiClient<(typeof routesByVersion)[V]>;
}
