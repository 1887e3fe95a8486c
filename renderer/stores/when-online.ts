/**
 * The guard of the stores' online actions (buildings, portfolios, access, images, files): an action that asks the
 * server for something the cache cannot do runs only when it can, and otherwise answers why it did not run.
 */
import { isLocalId } from '../db/schema';
import type { ApiOutcome } from '../api/outcome';

/** The part of the sync store an online action looks at. */
export interface OnlineContext {
  readonly connectionId: string | null;
  readonly online: boolean;
}

/**
 * Runs an online call about the resource `id`, unless it cannot run: no connection, a resource created here and not
 * yet on the server (its id is still `local:`), or offline.
 */
export async function whenOnline<T>(
  context: OnlineContext,
  id: string,
  run: (connectionId: string) => Promise<ApiOutcome<T>>,
): Promise<ApiOutcome<T>> {
  const connectionId = context.connectionId;
  if (connectionId === null) return { ok: false, failure: { kind: 'no-connection' } };
  if (isLocalId(id)) return { ok: false, failure: { kind: 'not-on-server' } };
  if (!context.online) return { ok: false, failure: { kind: 'offline' } };
  return run(connectionId);
}
