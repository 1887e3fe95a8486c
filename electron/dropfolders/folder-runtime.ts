/**
 * What the drop folder service works with, handed to its parts explicitly: the state folder, the mappings' store, the
 * ledger, what the uploaders share, and the running state of each watched folder (`FolderRuntime`).
 */
import type { DropFolderEvent, DropFolderMapping, WatchState } from '../../shared/dropfolders';
import type { WatchedFolder, WatchFolder } from './folder-watcher';
import type { UploadLedger } from './ledger';
import type { MappingStore } from './mapping-store';
import type { MappingUploader } from './uploader';
import type { UploaderContext } from './uploader-context';

/** The work on one file; `again` asks for one more look once the current one ends. */
export interface FileTask {
  again: boolean;
  done: Promise<void>;
}

/** One mapping while the service runs. */
export interface FolderRuntime {
  /** Shared with the uploader, so changed settings apply to work already running. */
  mapping: DropFolderMapping;
  controller: AbortController;
  uploader: MappingUploader;
  watcher: WatchedFolder | undefined;
  timer: ReturnType<typeof setInterval> | undefined;
  rescanning: Promise<void> | undefined;
  /** The walk asked for while one was under way, which starts once that one ends. */
  rescanQueued: Promise<void> | undefined;
  watch: WatchState;
  problem: string | null;
  tasks: Map<string, FileTask>;
  /** The symbolic links last found in the folder (relative keys), which are not followed: the status names them. */
  links: Set<string>;
}

/** Everything the service's parts work with. */
export interface FolderServiceContext {
  /** Where the ledger and the mappings live, resolved. */
  stateDir: string;
  store: MappingStore;
  ledger: UploadLedger;
  /** What every mapping's uploader shares, the timing and the platform among it. */
  uploads: UploaderContext;
  runtimes: Map<string, FolderRuntime>;
  watchFolder: WatchFolder;
  log: (message: string, error?: unknown) => void;
  emit: (event: DropFolderEvent) => void;
  /** The folders passports are saved into, as they are now. */
  passportFolders: () => readonly string[];
  homeFolder: string | undefined;
  appDataFolder: string | undefined;
  connectionExists: ((connectionId: string) => boolean) | undefined;
  /** Set once `close` began: no call is taken any more. */
  closed: boolean;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
