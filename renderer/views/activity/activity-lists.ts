/**
 * What the Activity screen lists of the host's services, picked from the stores' state: the uploads of every drop
 * folder and the passports that run, failed or ended lately. Pure functions, so the screen and its summary agree.
 */
import type { DropFolderFile, DropFolderStatus, LedgerState } from '../../../shared/dropfolders';
import type { PassportEntry, PassportState } from '../../../shared/passports';

/** How many uploads and passports that ended well the screen lists besides those that run or failed. */
export const RECENT_LIMIT = 20;

/** An upload and the folder it comes from. */
export interface UploadItem {
  folder: DropFolderStatus;
  file: DropFolderFile;
}

/** The uploads the screen lists: those under way, and those that ended (every failed one, the latest finished ones). */
export interface UploadLists {
  running: UploadItem[];
  ended: UploadItem[];
  failedCount: number;
}

/** Whether a file is still on its way to the server. */
function isUploadRunning(state: LedgerState): boolean {
  return state === 'detected' || state === 'hashing' || state === 'uploading' || state === 'processing';
}

// ISO timestamps sort as text; newest first.
function newestFirst<T>(updatedAt: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const left = updatedAt(a);
    const right = updatedAt(b);
    return left < right ? 1 : left > right ? -1 : 0;
  };
}

/** The uploads of the folders that exist, from the files the store holds per folder. */
export function uploadLists(
  folders: readonly DropFolderStatus[],
  files: ReadonlyMap<string, readonly DropFolderFile[]>,
  limit = RECENT_LIMIT,
): UploadLists {
  const all = folders.flatMap((folder) => (files.get(folder.id) ?? []).map((file) => ({ folder, file })));
  const byTime = newestFirst<UploadItem>((item) => item.file.updatedAt);
  const running = all.filter((item) => isUploadRunning(item.file.state)).sort(byTime);
  const failed = all.filter((item) => item.file.state === 'failed');
  const finished = all
    .filter((item) => item.file.state === 'mapped' || item.file.state === 'stored')
    .sort(byTime)
    .slice(0, limit);
  return { running, ended: [...failed, ...finished].sort(byTime), failedCount: failed.length };
}

/** Whether a passport is still being made or saved. */
function isPassportRunning(state: PassportState): boolean {
  return state === 'requested' || state === 'generating' || state === 'downloading';
}

/**
 * The failed passports that still need the user: a failure is settled once a later passport of the same target and
 * format exists, whatever became of that one.
 */
export function unsettledPassportFailures(history: readonly PassportEntry[]): PassportEntry[] {
  const latest = new Map<string, PassportEntry>();
  for (const entry of history) {
    const key = `${entry.targetId}\u0000${entry.format}`;
    const seen = latest.get(key);
    if (seen === undefined || entry.requestedAt > seen.requestedAt) latest.set(key, entry);
  }
  return [...latest.values()].filter((entry) => entry.state === 'failed').sort(newestFirst((entry) => entry.updatedAt));
}

/** The passports the screen lists: every one under way or with an unsettled failure, then the latest others. */
export function recentPassports(history: readonly PassportEntry[], limit = RECENT_LIMIT): PassportEntry[] {
  const unsettled = new Set(unsettledPassportFailures(history).map((entry) => entry.id));
  const always = history.filter((entry) => isPassportRunning(entry.state) || unsettled.has(entry.id));
  const others = history
    .filter((entry) => !always.includes(entry))
    .sort(newestFirst((entry) => entry.updatedAt))
    .slice(0, limit);
  return [...always, ...others].sort(newestFirst((entry) => entry.updatedAt));
}

/** How far an upload or the server's processing is, in percent; null when the total is unknown. */
export function uploadPercent(file: DropFolderFile): number | null {
  const progress = file.progress;
  if (progress === null || progress.total === null || progress.total === 0) return null;
  return Math.min(100, Math.round((progress.done / progress.total) * 100));
}
