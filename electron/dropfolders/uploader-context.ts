/**
 * What the uploaders of one drop folder service share, handed to each mapping's uploader and to the parts it works
 * with (`remote-target.ts`, `file-progress.ts`, `file-state-changes.ts`): the ledger, the connections' clients, the
 * host's events, the waits and the disk slots.
 */
import type { DropFileProgress, DropFolderEvent } from '../../shared/dropfolders';
import type { SlotQueue } from '../http/slot-queue';
import type { UploadLedger } from './ledger';
import type { DropFolderClient } from './remote';
import type { DropFolderTiming } from './timing';

/** What the uploader works with; one per service. */
export interface UploaderContext {
  ledger: UploadLedger;
  clientFor(connectionId: string): DropFolderClient | undefined;
  emit(event: DropFolderEvent): void;
  timing: DropFolderTiming;
  now: () => Date;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  platform: NodeJS.Platform;
  /** Limits how many files are hashed or uploaded at once. */
  diskSlots: SlotQueue;
  /** Lookups of a portfolio subfolder's building in flight, so files of a new subfolder create it once. */
  buildingLookups: Map<string, Promise<string>>;
  /** The latest progress of each file, kept in memory between the ledger's writes. */
  progress: Map<string, DropFileProgress>;
}
