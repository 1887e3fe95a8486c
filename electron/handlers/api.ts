/**
 * The Bridge handlers of the `api:*` channels: the page's calls to a connection's server, made by the host through the
 * connection's queued client with its key, which the page never holds.
 */
import type { IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import type { HostConnections } from '../host-connections';
import { runApiCall } from '../http/api-request';
import { runImageUpload } from '../http/image-upload';

/** The channels these handlers answer. */
export type ApiChannel = Extract<IpcChannel, `api:${string}`>;

/** The handlers of the API channels. */
export function apiHandlers(connections: HostConnections): Pick<BridgeHandlers, ApiChannel> {
  return {
    'api:request': async ({ connectionId, ...call }) => {
      const profile = connections.requireProfile(connectionId);
      return runApiCall(connections.clientOf(profile), profile.apiVersion, call);
    },
    'api:upload-image': async ({ connectionId, ...call }) => runImageUpload(connections.clientOf(connections.requireProfile(connectionId)), call),
  } satisfies Pick<BridgeHandlers, ApiChannel>;
}
