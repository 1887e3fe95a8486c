/** How a host checks what crosses the Bridge, and turns what a handler threw into a result. */
import { Value } from 'typebox/value';
import { ipcChannels, type IpcChannel, type IpcValue } from './contract';
import { BridgeError, type IpcError } from './results';

/** Whether a name is a channel of the contract. */
export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && Object.hasOwn(ipcChannels, name);
}

/** Checks a request against its channel's schema; returns the first problem as a sentence, or undefined when valid. */
export function requestProblem(channelName: IpcChannel, request: unknown): string | undefined {
  const schema = ipcChannels[channelName].request;
  if (Value.Check(schema, request)) return undefined;
  const [first] = Value.Errors(schema, request);
  if (first === undefined) return `The request of ${channelName} is not valid.`;
  const where = first.instancePath === '' ? 'the request' : first.instancePath;
  return `The request of ${channelName} is not valid: ${where} ${first.message}.`;
}

/** Checks a value against its channel's response schema (hosts check what they send, tests check what they get). */
export function isChannelValue<C extends IpcChannel>(channelName: C, value: unknown): value is IpcValue<C> {
  return Value.Check(ipcChannels[channelName].response, value);
}

/** Turns what a handler threw into the error half of a result; unknown errors never leak their internals. */
export function ipcErrorOf(error: unknown): IpcError {
  if (error instanceof BridgeError) return { code: error.code, message: error.message };
  return { code: 'internal', message: 'Something went wrong in the app. The details are in its log.' };
}
