/** The Bridge handler of `shell:open-external`: a link to another site opens in the system browser, never in the app. */
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';

/** The channels these handlers answer. */
export type ShellChannel = Extract<IpcChannel, `shell:${string}`>;

/** The handlers of the shell channels; `openExternal` opens an address in the system browser. */
export function shellHandlers(openExternal: (url: string) => Promise<void>): Pick<BridgeHandlers, ShellChannel> {
  return {
    'shell:open-external': async ({ url }) => {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new BridgeError('invalid-request', 'Only http and https addresses are opened.');
      }
      await openExternal(parsed.toString()); // eng-disable OPEN_EXTERNAL_JS_CHECK (only http(s), checked above)
      return null;
    },
  } satisfies Pick<BridgeHandlers, ShellChannel>;
}
