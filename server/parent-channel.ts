/**
 * The message channel to the process that started this server, when one exists: `process.send` under a Node fork,
 * `process.parentPort` under an Electron utilityProcess. Used to report the listening address and to shut down
 * gracefully where signals cannot be sent.
 */
import { isShutdownCommand, type EmbeddedServerMessage } from '../shared/embedded-server';

/** Electron's utilityProcess port, typed here so the server needs no Electron types. */
interface UtilityParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

/** A channel to the parent process. */
export interface ParentChannel {
  send(message: EmbeddedServerMessage): void;
  /** Calls `listener` once when the parent asks for a shutdown or goes away. */
  onShutdown(listener: () => void): void;
}

/** The channel to the parent, or undefined when this server was started from a shell. */
export function parentChannel(): ParentChannel | undefined {
  const port = (process as NodeJS.Process & { parentPort?: UtilityParentPort }).parentPort;
  if (port !== undefined) {
    return {
      send: (message) => port.postMessage(message),
      onShutdown: (listener) => port.on('message', (event) => isShutdownCommand(event.data) && listener()),
    };
  }
  const send = process.send?.bind(process);
  if (send === undefined) return undefined;
  return {
    send: (message) => {
      if (process.connected) send(message);
    },
    onShutdown: (listener) => {
      process.on('message', (message) => isShutdownCommand(message) && listener());
      // A parent that dies without saying so closes the channel: the server must not outlive it.
      process.on('disconnect', listener);
    },
  };
}
