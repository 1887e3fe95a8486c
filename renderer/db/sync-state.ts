/**
 * The `syncState` records of the pull: its last attempt, success, error and progress, and the cursors of element
 * pulls. Screens observe them with a live query of `readPullState`.
 */
import type { CacheDb } from './cache-db';
import { elementCursorKey, type ElementCursorRow, type PullProgress, type PullStateRow, type RowRef, type SyncIssue } from './schema';

const EMPTY_PULL_STATE: PullStateRow = {
  key: 'pull',
  kind: 'pull',
  lastAttemptAt: null,
  lastSuccessAt: null,
  lastError: null,
  issues: [],
  keptMissing: [],
  progress: null,
};

/** The state of the connection's pulls (all empty before the first one). */
export async function readPullState(db: CacheDb): Promise<PullStateRow> {
  const row = await db.syncState.get('pull');
  return row?.kind === 'pull' ? row : EMPTY_PULL_STATE;
}

async function updatePullState(db: CacheDb, change: (state: PullStateRow) => PullStateRow): Promise<void> {
  await db.transaction('rw', db.syncState, async () => {
    await db.syncState.put(change(await readPullState(db)));
  });
}

/** Records that a pull starts. */
export async function recordPullStart(db: CacheDb, at: string): Promise<void> {
  await updatePullState(db, (state) => ({ ...state, lastAttemptAt: at, progress: null }));
}

/** Records where the running pull is. */
export async function recordPullProgress(db: CacheDb, progress: PullProgress): Promise<void> {
  await updatePullState(db, (state) => ({ ...state, progress }));
}

/** How a pull ended. */
export interface PullEnd {
  at: string;
  /** What stopped it, if something did. */
  stoppedBy: SyncIssue | null;
  issues: SyncIssue[];
  keptMissing: RowRef[];
}

/** Records how a pull ended: a success only when nothing stopped it and nothing was skipped. */
export async function recordPullEnd(db: CacheDb, end: PullEnd): Promise<void> {
  const clean = end.stoppedBy === null && end.issues.length === 0;
  await updatePullState(db, (state) => ({
    ...state,
    lastSuccessAt: clean ? end.at : state.lastSuccessAt,
    lastError: end.stoppedBy ?? end.issues.at(-1) ?? null,
    issues: end.issues,
    keptMissing: end.keptMissing,
    progress: null,
  }));
}

/** The cursor of a file's element pull, if one was begun. */
export async function readElementCursor(db: CacheDb, fileId: string): Promise<ElementCursorRow | undefined> {
  const row = await db.syncState.get(elementCursorKey(fileId));
  return row?.kind === 'element-cursor' ? row : undefined;
}
