/**
 * How the renderer reaches the API: through an `ApiPort`, never the Bridge itself, so the same code runs in the
 * window, in the sync worker that forwards its calls to the window, and in tests against a real server.
 */
import type { ApiAnswer, ApiRequest, Bridge, IpcErrorCode } from '../../shared/ipc';

/** A JSON API call as the Bridge carries it, without the connection the port is bound to. */
export type ApiCall = Omit<ApiRequest, 'connectionId'>;

/** Runs an API call for one connection; rejects with `ApiPortError` when the host could not run it at all. */
export type ApiPort = (call: ApiCall) => Promise<ApiAnswer>;

/** The host refused or failed a call (the Bridge answered `{ ok: false }`); `code` says why. */
export class ApiPortError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiPortError';
  }
}

/** The port of a connection through the Bridge's `api:request`. */
export function bridgeApiPort(bridge: { api: Pick<Bridge['api'], 'request'> }, connectionId: string): ApiPort {
  return async (call) => {
    const result = await bridge.api.request({ ...call, connectionId });
    if (!result.ok) throw new ApiPortError(result.error.code, result.error.message);
    return result.value;
  };
}
