/** What every Bridge call ends in: a value, or an error with a code the renderer can switch over. */
import { Type, type Static } from 'typebox';

/** Why a bridge call failed, as a code the renderer can switch over. */
export const IpcErrorCode = Type.Enum(['invalid-request', 'untrusted-sender', 'not-found', 'conflict', 'insecure-storage', 'storage-failed', 'unavailable', 'internal']);
/** Why a bridge call failed. */
export type IpcErrorCode = Static<typeof IpcErrorCode>;

/** A failed bridge call: a code and a message meant for the user. */
export const IpcError = Type.Object({ code: IpcErrorCode, message: Type.String() });
/** A failed bridge call. */
export type IpcError = Static<typeof IpcError>;

/** The outcome of every bridge call. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** A bridge call that failed for a reason the host can name; hosts turn it into `{ ok: false, error }`. */
export class BridgeError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}
