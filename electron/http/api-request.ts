/**
 * A JSON call of the API as the Bridge carries it (`api:request`), run through a connection's queued client and
 * answered in the Bridge's shape. Files never pass here: the host streams them itself.
 */
import { routesByVersion, type ApiVersion, type RouteDefinition } from '../../shared/api/routes';
import { BridgeError, type ApiAnswer, type ApiRequest } from '../../shared/ipc';
import type { LooseCallResult, QueuedClient } from './queued-client';

/** A Bridge API call without its connection, which the caller has resolved to `client`. */
export type ApiCall = Omit<ApiRequest, 'connectionId'>;

function isBinaryRoute(route: RouteDefinition): boolean {
  return route.body?.kind === 'binary' || Object.values(route.responses).some((answer) => answer.kind === 'binary');
}

/** Runs a call; an unknown operation or one that transfers a file is refused with `invalid-request`. */
export async function runApiCall(client: QueuedClient, apiVersion: ApiVersion, call: ApiCall): Promise<ApiAnswer> {
  const table: Readonly<Record<string, RouteDefinition>> = routesByVersion[apiVersion];
  const route = table[call.operationId];
  if (route === undefined) {
    throw new BridgeError('invalid-request', `The API ${apiVersion} has no operation ${call.operationId}.`);
  }
  if (isBinaryRoute(route)) {
    throw new BridgeError('invalid-request', `${call.operationId} sends or returns a file; files are transferred by the app, not the bridge.`);
  }
  const result = await client.callLoose(call.operationId, {
    params: call.params,
    query: call.query,
    headers: call.headers,
    body: call.body,
  });
  return bridgeAnswerOf(result);
}

/** A queued client's result in the Bridge's shape. */
export function bridgeAnswerOf(result: LooseCallResult): ApiAnswer {
  switch (result.kind) {
    case 'ok':
      return { kind: 'ok', status: result.status, value: result.value ?? null, location: result.headers.get('location') };
    case 'problem':
      return { kind: 'problem', status: result.status, problem: result.problem };
    case 'network':
      return { kind: 'network', reason: result.error.reason, message: result.error.message };
  }
}
