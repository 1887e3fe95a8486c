/**
 * The messages between the window and the sync worker (`sync-worker.ts`, `cycle-runner.ts`). They travel by
 * structured clone, so every part is plain data.
 */
import type { ApiAnswer, IpcErrorCode } from '../../shared/ipc';
import type { PullProgress, PushProgress } from '../db/schema';
import type { ApiCall } from '../api/port';
import type { SyncCycleReport, SyncPhase } from './cycle';

/** The window's answer to an API call of the worker: the API's answer, or why the host could not run the call. */
export type CycleCallResult = { ok: true; answer: ApiAnswer } | { ok: false; code: IpcErrorCode; message: string };

/** From the window: run a cycle on a connection's cache, stop one, or the answer to a call. */
export type ToSyncWorker =
  | { kind: 'run'; cycleId: number; connectionId: string }
  | { kind: 'abort'; cycleId: number }
  | { kind: 'answer'; callId: number; result: CycleCallResult };

/** From the worker: an API call to make, how a cycle goes, and how it ended. */
export type FromSyncWorker =
  | { kind: 'call'; cycleId: number; callId: number; call: ApiCall }
  | { kind: 'phase'; cycleId: number; phase: SyncPhase }
  | { kind: 'pull-progress'; cycleId: number; progress: PullProgress }
  | { kind: 'push-progress'; cycleId: number; progress: PushProgress }
  | { kind: 'done'; cycleId: number; report: SyncCycleReport }
  | { kind: 'failed'; cycleId: number; message: string };
