/** A drop folder file's ledger row as the rest of the host sees it: its key, whether it rests, its snapshot, its notice. */
import path from 'node:path';
import type { DropFileProgress, DropFolderEvent, DropFolderFile, LedgerState } from '../../shared/dropfolders';
import type { LedgerKey, LedgerRow } from './ledger';

const TERMINAL: ReadonlySet<LedgerState> = new Set(['mapped', 'stored', 'failed']);

/** Whether a state is an end: the file rests until its content changes or the user asks for a retry. */
export function isTerminal(state: LedgerState): boolean {
  return TERMINAL.has(state);
}

/** The map key of a ledger row. */
export function rowId(key: LedgerKey): string {
  return `${key.mappingId}\u0000${key.path}`;
}

/** What the host sees of a row, with the latest progress. */
export function snapshotOf(row: LedgerRow, live?: DropFileProgress): DropFolderFile {
  const { remoteStamp: _stamp, deliveredSha256: _delivered, result: _result, ...file } = row;
  return { ...file, progress: live ?? row.progress };
}

/** The ledger key of a row. */
export function keyOf(row: LedgerRow): LedgerKey {
  return { mappingId: row.mappingId, path: row.path };
}

/** The notice of a file that reached an end, for the user. */
export function noticeOf(row: LedgerRow, outcome: 'mapped' | 'stored' | 'failed', message: string): DropFolderEvent {
  const name = path.posix.basename(row.path);
  const title = outcome === 'failed' ? `${name} could not be processed` : outcome === 'mapped' ? `${name} is mapped` : `${name} is stored`;
  return { kind: 'notice', mappingId: row.mappingId, path: row.path, outcome, title, message };
}
