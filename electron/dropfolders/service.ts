/**
 * The drop folder service: the mappings of a state folder, a watcher and a periodic rescan per mapping, and the
 * uploader working through each file one task at a time. The same service runs in the Electron app, in browser mode
 * and headless (`npm run watch`); everything it answers and sends is plain JSON (see `schemas.ts`), ready for a
 * Bridge channel.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { abortableSleep } from '../../shared/abortable-sleep';
import { BridgeError } from '../../shared/ipc';
import { SlotQueue } from '../http/slot-queue';
import { rowId, snapshotOf } from './file-rows';
import { trigger } from './file-tasks';
import { refuseUnsafe } from './folder-checks';
import { setPaused, startRuntime, stopRuntime } from './folder-lifecycle';
import type { FolderServiceContext } from './folder-runtime';
import { announceFolders, listStatuses, requireRuntime, statusOf } from './folder-status';
import { rescanRuntime } from './folder-watching';
import { watchWithChokidar, type WatchFolder } from './folder-watcher';
import { UploadLedger } from './ledger';
import { checkFolder, isWithin, MappingStore, mappingOf } from './mapping-store';
import type { DropFolderClient } from './remote';
import {
  DropFolderChanges,
  type DropFolderDraft,
  type DropFolderEvent,
  type DropFolderFile,
  type DropFolderMapping,
  type DropFolderStatus,
} from '../../shared/dropfolders';
import { DEFAULT_TIMING, type DropFolderTiming } from './timing';
import { PRIVATE_FOLDER_MODE } from '../private-files';

/** What the service is made of; everything but the state folder and the clients has a default. */
export interface DropFolderServiceOptions {
  /** Where `ledger.sqlite` and `drop-folders.json` live. */
  stateDir: string;
  /** The queued client of a connection; undefined while the connection is not there (uploads wait for it). */
  clientFor(connectionId: string): DropFolderClient | undefined;
  /** Hears every state change, progress, notice and change of the folders. */
  onEvent?: (event: DropFolderEvent) => void;
  log?: (message: string, error?: unknown) => void;
  timing?: Partial<DropFolderTiming>;
  now?: () => Date;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter of the retry waits, in [0, 1). */
  random?: () => number;
  platform?: NodeJS.Platform;
  watch?: WatchFolder;
  /** Files hashed or uploaded at once (default 2). */
  concurrency?: number;
  /** The folders passports are saved into, as they are now: a drop folder may not hold one. */
  passportFolders?: () => readonly string[];
  /** The user's home folder, which no drop folder may be or hold (default: this account's). */
  homeFolder?: string;
  /** The app's user-data folder, which no drop folder may be, hold or lie in. */
  appDataFolder?: string;
  /**
   * Whether a connection still exists; a folder whose connection was removed says so in its status. Default: every
   * connection does (a headless watch has its one connection for as long as it runs).
   */
  connectionExists?: (connectionId: string) => boolean;
}

/** The running service. Methods that fail for a reason the user can act on throw a BridgeError. */
export interface DropFolderService {
  /** Every mapping with how its watching goes. */
  list(): DropFolderStatus[];
  /** Adds a mapping and starts watching it; its existing files are taken as dropped. */
  add(draft: DropFolderDraft): Promise<DropFolderStatus>;
  /** Changes a mapping's settings; a change of `polling` restarts its watcher. */
  update(mappingId: string, changes: DropFolderChanges): Promise<DropFolderStatus>;
  /** Stops watching a folder and forgets its ledger; what was uploaded stays on the server. */
  remove(mappingId: string): Promise<void>;
  /** Stops watching and working; uploads in flight are taken up again from the start on resume. */
  pause(mappingId: string): Promise<DropFolderStatus>;
  resume(mappingId: string): Promise<DropFolderStatus>;
  /** The ledger's files of a mapping, by path. */
  files(mappingId: string): DropFolderFile[];
  /** How many files of all folders are on their way (detected, hashing, uploading) and how many failed. */
  fileCounts(): { inFlight: number; failed: number };
  /** Takes a failed file up again from the beginning, uploading it even when its content was delivered before. */
  retry(mappingId: string, path: string): Promise<void>;
  /** Walks one folder (or all) now, as the periodic rescan does. */
  rescan(mappingId?: string): Promise<void>;
  /** Announces the folders again after a connection was removed: those of that connection now say why they wait. */
  connectionsChanged(): void;
  /** Stops all work (the ledger keeps where each file was), closes the watchers and the ledger. */
  close(): Promise<void>;
}

/** The service's context: the state folder opened, its mappings read and its ledger open, no folder watched yet. */
async function openContext(options: DropFolderServiceOptions): Promise<FolderServiceContext> {
  const stateDir = path.resolve(options.stateDir);
  await mkdir(stateDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const emit = (event: DropFolderEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      log('A listener of drop folder events failed', error);
    }
  };
  const { store, setAside } = await MappingStore.open(stateDir);
  if (setAside !== undefined) log(`The drop folders could not be read and were moved aside to ${setAside}; the list starts empty.`);
  const ledger = UploadLedger.open(stateDir, now);
  return {
    stateDir,
    store,
    ledger,
    uploads: {
      ledger,
      clientFor: (connectionId) => options.clientFor(connectionId),
      emit,
      timing: { ...DEFAULT_TIMING, ...options.timing },
      now,
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      platform: options.platform ?? process.platform,
      diskSlots: new SlotQueue(options.concurrency ?? 2),
      buildingLookups: new Map(),
      progress: new Map(),
    },
    runtimes: new Map(),
    watchFolder: options.watch ?? watchWithChokidar,
    log,
    emit,
    passportFolders: () => options.passportFolders?.() ?? [],
    homeFolder: options.homeFolder,
    appDataFolder: options.appDataFolder,
    connectionExists: options.connectionExists,
    closed: false,
  };
}

/** Opens the state folder, resumes the work the ledger holds and starts watching every mapping that is not paused. */
export async function startDropFolderService(options: DropFolderServiceOptions): Promise<DropFolderService> {
  const context = await openContext(options);
  const { store, ledger, runtimes } = context;
  for (const mapping of store.list()) await startRuntime(context, mapping);

  return {
    list: () => listStatuses(context),

    async add(draft) {
      if (context.closed) throw new BridgeError('unavailable', 'The drop folders are shutting down.');
      const mapping = mappingOf(draft);
      await checkFolder(mapping.folder);
      await refuseUnsafe(context, mapping.folder);
      if (isWithin(context.stateDir, mapping.folder)) {
        throw new BridgeError('invalid-request', 'The folder lies in the drop folders’ own state folder.');
      }
      await store.add(mapping);
      const runtime = await startRuntime(context, mapping);
      announceFolders(context);
      return statusOf(context, runtime);
    },

    async update(mappingId, changes) {
      const runtime = requireRuntime(context, mappingId);
      if (!Value.Check(DropFolderChanges, changes)) throw new BridgeError('invalid-request', 'The drop folder settings are not valid.');
      await refuseUnsafe(context, runtime.mapping.folder);
      const restart = changes.polling !== undefined && changes.polling !== runtime.mapping.polling;
      const next: DropFolderMapping = { ...runtime.mapping, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
      await store.replace(next);
      if (restart) {
        await stopRuntime(runtime);
        await startRuntime(context, next);
      } else {
        Object.assign(runtime.mapping, next);
        void rescanRuntime(context, runtime);
      }
      announceFolders(context);
      return statusOf(context, requireRuntime(context, mappingId));
    },

    async remove(mappingId) {
      const runtime = requireRuntime(context, mappingId);
      await stopRuntime(runtime);
      runtimes.delete(mappingId);
      ledger.removeMapping(mappingId);
      await store.remove(mappingId);
      announceFolders(context);
    },

    pause: (mappingId) => setPaused(context, mappingId, true),
    resume: (mappingId) => setPaused(context, mappingId, false),

    files(mappingId) {
      requireRuntime(context, mappingId);
      return ledger.list(mappingId).map((row) => snapshotOf(row, context.uploads.progress.get(rowId(row))));
    },

    fileCounts() {
      const counts = ledger.countsByState();
      return { inFlight: (counts.detected ?? 0) + (counts.hashing ?? 0) + (counts.uploading ?? 0), failed: counts.failed ?? 0 };
    },

    async retry(mappingId, relativePath) {
      const runtime = requireRuntime(context, mappingId);
      const row = ledger.get({ mappingId, path: relativePath });
      if (row === undefined) throw new BridgeError('not-found', `${relativePath} is not in this drop folder's ledger.`);
      if (row.state !== 'failed') throw new BridgeError('conflict', `${relativePath} has not failed; it is ${row.state}.`);
      if (runtime.mapping.paused) throw new BridgeError('conflict', 'The drop folder is paused; resume it first.');
      runtime.uploader.retry(row);
      trigger(context, runtime, relativePath);
    },

    async rescan(mappingId) {
      const chosen = mappingId === undefined ? [...runtimes.values()] : [requireRuntime(context, mappingId)];
      await Promise.all(chosen.filter((runtime) => !runtime.mapping.paused).map((runtime) => rescanRuntime(context, runtime)));
    },

    connectionsChanged: () => announceFolders(context),

    async close() {
      if (context.closed) return;
      context.closed = true;
      context.uploads.diskSlots.close();
      await Promise.all([...runtimes.values()].map((runtime) => stopRuntime(runtime)));
      await store.flush();
      ledger.close();
    },
  };
}
