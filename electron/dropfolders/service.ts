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
import { fileKindOf, isIgnoredRelativePath, relativeKeyOf } from './file-rules';
import { unsafeDropFolderReason } from './folder-safety';
import { walkFiles, watchWithChokidar, type WatchedFolder, type WatchFolder } from './folder-watcher';
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
  type WatchState,
} from '../../shared/dropfolders';
import { DEFAULT_TIMING, isTerminal, MappingUploader, rowId, snapshotOf, type DropFolderTiming, type UploaderContext } from './uploader';

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

interface FileTask {
  again: boolean;
  done: Promise<void>;
}

interface FolderRuntime {
  /** Shared with the uploader, so changed settings apply to work already running. */
  mapping: DropFolderMapping;
  controller: AbortController;
  uploader: MappingUploader;
  watcher: WatchedFolder | undefined;
  timer: ReturnType<typeof setInterval> | undefined;
  rescanning: Promise<void> | undefined;
  watch: WatchState;
  problem: string | null;
  tasks: Map<string, FileTask>;
  /** The symbolic links last found in the folder (relative keys), which are not followed: the status names them. */
  links: Set<string>;
}

/** How many links the status names before it only counts the rest. */
const LINKS_NAMED = 5;

/** What the status of a watched folder says about its symbolic links, or null when it has none. */
function linksNote(links: ReadonlySet<string>): string | null {
  if (links.size === 0) return null;
  const sorted = [...links].sort();
  const named = sorted.slice(0, LINKS_NAMED).join(', ');
  const more = sorted.length > LINKS_NAMED ? ` and ${sorted.length - LINKS_NAMED} more` : '';
  return `Symbolic links are not followed, so nothing they point to is uploaded: ${named}${more}. Put the files themselves (or copies) in the folder.`;
}

/** The problem of a folder whose connection was removed: its files wait, uploading nothing, until it is removed. */
const CONNECTION_REMOVED = 'Its connection was removed, so nothing is uploaded. Remove this drop folder and add the folder again with another connection.';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Opens the state folder, resumes the work the ledger holds and starts watching every mapping that is not paused. */
export async function startDropFolderService(options: DropFolderServiceOptions): Promise<DropFolderService> {
  const stateDir = path.resolve(options.stateDir);
  await mkdir(stateDir, { recursive: true });
  const log = options.log ?? (() => undefined);
  const timing: DropFolderTiming = { ...DEFAULT_TIMING, ...options.timing };
  const now = options.now ?? (() => new Date());
  const watchFolder = options.watch ?? watchWithChokidar;
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
  const ctx: UploaderContext = {
    ledger,
    clientFor: (connectionId) => options.clientFor(connectionId),
    emit,
    timing,
    now,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    platform: options.platform ?? process.platform,
    diskSlots: new SlotQueue(options.concurrency ?? 2),
    buildingLookups: new Map(),
    progress: new Map(),
  };
  const runtimes = new Map<string, FolderRuntime>();
  let closed = false;

  /** Why a folder is one no drop folder may be, or null. */
  function unsafeReason(folder: string): Promise<string | null> {
    return unsafeDropFolderReason(folder, { passportFolders: options.passportFolders?.() ?? [], platform: ctx.platform, home: options.homeFolder });
  }

  /** Throws `invalid-request` when a folder may not be a drop folder. */
  async function refuseUnsafe(folder: string): Promise<void> {
    const reason = await unsafeReason(folder);
    if (reason !== null) throw new BridgeError('invalid-request', reason);
  }

  /** Why a folder cannot be watched now (it is gone, or it is one no drop folder may be), or null. */
  async function problemOf(folder: string): Promise<string | null> {
    try {
      await checkFolder(folder);
    } catch (error) {
      return messageOf(error);
    }
    return unsafeReason(folder);
  }

  function statusOf(runtime: FolderRuntime): DropFolderStatus {
    const connectionGone = options.connectionExists?.(runtime.mapping.connectionId) === false;
    const problem = runtime.problem ?? (connectionGone ? CONNECTION_REMOVED : null);
    return { ...runtime.mapping, fileTypes: [...runtime.mapping.fileTypes], target: { ...runtime.mapping.target }, watch: runtime.watch, problem };
  }

  function list(): DropFolderStatus[] {
    return store.list().flatMap((mapping) => {
      const runtime = runtimes.get(mapping.id);
      return runtime === undefined ? [] : [statusOf(runtime)];
    });
  }

  const announceFolders = (): void => emit({ kind: 'folders', folders: list() });

  function setWatch(runtime: FolderRuntime, watch: WatchState, problem: string | null): void {
    if (runtime.watch === watch && runtime.problem === problem) return;
    runtime.watch = watch;
    runtime.problem = problem;
    announceFolders();
  }

  function requireRuntime(mappingId: string): FolderRuntime {
    if (closed) throw new BridgeError('unavailable', 'The drop folders are shutting down.');
    const runtime = runtimes.get(mappingId);
    if (runtime === undefined) throw new BridgeError('not-found', 'This drop folder no longer exists.');
    return runtime;
  }

  /** Works on a file, one task per file: a file that is named again while its task runs is looked at once more after it. */
  function trigger(runtime: FolderRuntime, relativePath: string): void {
    if (runtime.controller.signal.aborted) return;
    const running = runtime.tasks.get(relativePath);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const task: FileTask = { again: false, done: Promise.resolve() };
    runtime.tasks.set(relativePath, task);
    task.done = (async () => {
      try {
        do {
          task.again = false;
          const changed = await runtime.uploader.run(relativePath);
          task.again ||= changed;
        } while (task.again && !runtime.controller.signal.aborted);
      } catch (error) {
        // Not a failure of the server (those are the uploader's): a disk or ledger error. The next rescan tries again.
        log(`Drop folder ${runtime.mapping.folder}: working on ${relativePath} failed`, error);
        const key = { mappingId: runtime.mapping.id, path: relativePath };
        try {
          if (ledger.get(key) !== undefined) {
            const updated = ledger.update(key, { lastError: messageOf(error) });
            emit({ kind: 'file', file: snapshotOf(updated, ctx.progress.get(rowId(key))), detail: messageOf(error) });
          }
        } catch (ledgerError) {
          log('Recording the failure in the ledger failed', ledgerError);
        }
      } finally {
        runtime.tasks.delete(relativePath);
      }
    })();
  }

  function ignoredBelow(runtime: FolderRuntime): (absolutePath: string) => boolean {
    return (absolutePath) => {
      // The state folder may lie inside the drop folder (the headless default), hidden or not.
      if (isWithin(stateDir, absolutePath)) return true;
      const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
      return relative !== undefined && isIgnoredRelativePath(relative);
    };
  }

  function candidate(runtime: FolderRuntime, absolutePath: string): void {
    const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
    if (relative !== undefined && fileKindOf(relative, runtime.mapping) !== undefined) trigger(runtime, relative);
  }

  /** A link is named in the folder's status; one named like a file the mapping takes is also the uploader's to refuse. */
  function linkFound(runtime: FolderRuntime, absolutePath: string, links: Set<string>): void {
    const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
    if (relative === undefined) return;
    links.add(relative);
    candidate(runtime, absolutePath);
  }

  function showLinks(runtime: FolderRuntime): void {
    if (runtime.watch === 'watching') setWatch(runtime, 'watching', linksNote(runtime.links));
  }

  async function startWatching(runtime: FolderRuntime): Promise<boolean> {
    const problem = await problemOf(runtime.mapping.folder);
    if (problem !== null) {
      setWatch(runtime, 'unavailable', problem);
      return false;
    }
    if (runtime.controller.signal.aborted) return false;
    runtime.watcher = watchFolder(runtime.mapping.folder, {
      polling: runtime.mapping.polling,
      pollIntervalMs: timing.watchPollMs,
      ignored: ignoredBelow(runtime),
      onFile: (absolutePath) => candidate(runtime, absolutePath),
      onLink: (absolutePath) => {
        linkFound(runtime, absolutePath, runtime.links);
        showLinks(runtime);
      },
      // Files created while the watcher read the tree may have been missed: one walk once it is ready finds them.
      onReady: () => void rescanRuntime(runtime),
      onError: (error) => log(`Watching ${runtime.mapping.folder} reported a problem`, error),
    });
    setWatch(runtime, 'watching', linksNote(runtime.links));
    return true;
  }

  async function stopWatching(runtime: FolderRuntime): Promise<void> {
    const watcher = runtime.watcher;
    runtime.watcher = undefined;
    await watcher?.close();
  }

  /**
   * Walks the folder and names every file; a folder that went away is marked unavailable until a later rescan finds
   * it, and one that became a folder no drop folder may be (a passport folder saved into it) is no longer watched.
   */
  async function walk(runtime: FolderRuntime): Promise<void> {
    if (runtime.controller.signal.aborted) return;
    if (runtime.watcher !== undefined) {
      const reason = await unsafeReason(runtime.mapping.folder);
      if (reason !== null) {
        await stopWatching(runtime);
        setWatch(runtime, 'unavailable', reason);
        return;
      }
    }
    if (runtime.watcher === undefined && !(await startWatching(runtime))) return;
    const links = new Set<string>();
    try {
      for await (const entry of walkFiles(runtime.mapping.folder, ignoredBelow(runtime))) {
        if (runtime.controller.signal.aborted) return;
        if (entry.link) linkFound(runtime, entry.absolutePath, links);
        else candidate(runtime, entry.absolutePath);
      }
    } catch (error) {
      await stopWatching(runtime);
      setWatch(runtime, 'unavailable', `The folder ${runtime.mapping.folder} cannot be read: ${messageOf(error)}`);
      return;
    }
    runtime.links = links;
    showLinks(runtime);
    for (const row of ledger.list(runtime.mapping.id)) {
      if (!isTerminal(row.state)) trigger(runtime, row.path);
    }
  }

  function rescanRuntime(runtime: FolderRuntime): Promise<void> {
    // One walk at a time: a slow network share must not pile them up.
    runtime.rescanning ??= walk(runtime)
      .catch((error: unknown) => log(`Rescanning ${runtime.mapping.folder} failed`, error))
      .finally(() => {
        runtime.rescanning = undefined;
      });
    return runtime.rescanning;
  }

  async function startRuntime(stored: DropFolderMapping): Promise<FolderRuntime> {
    // The runtime's own copy: settings changed later are assigned to it, never to the store's documents.
    const mapping = structuredClone(stored);
    const controller = new AbortController();
    const runtime: FolderRuntime = {
      mapping,
      controller,
      uploader: new MappingUploader(ctx, mapping, controller.signal),
      watcher: undefined,
      timer: undefined,
      rescanning: undefined,
      watch: mapping.paused ? 'paused' : 'watching',
      problem: null,
      tasks: new Map(),
      links: new Set(),
    };
    runtimes.set(mapping.id, runtime);
    if (mapping.paused) {
      controller.abort();
      return runtime;
    }
    // Work the ledger holds from before (a restart, a resume) goes on first: uploads again, processing polled.
    for (const row of ledger.list(mapping.id)) {
      if (!isTerminal(row.state)) trigger(runtime, row.path);
    }
    await startWatching(runtime);
    runtime.timer = setInterval(() => void rescanRuntime(runtime), timing.rescanIntervalMs);
    return runtime;
  }

  async function stopRuntime(runtime: FolderRuntime): Promise<void> {
    runtime.controller.abort();
    clearInterval(runtime.timer);
    runtime.timer = undefined;
    await stopWatching(runtime);
    await runtime.rescanning;
    await Promise.all([...runtime.tasks.values()].map((task) => task.done));
  }

  async function setPaused(mappingId: string, paused: boolean): Promise<DropFolderStatus> {
    const runtime = requireRuntime(mappingId);
    if (runtime.mapping.paused === paused) return statusOf(runtime);
    const mapping: DropFolderMapping = { ...runtime.mapping, paused };
    await store.replace(mapping);
    await stopRuntime(runtime);
    const next = await startRuntime(mapping);
    announceFolders();
    return statusOf(next);
  }

  for (const mapping of store.list()) await startRuntime(mapping);

  return {
    list,

    async add(draft) {
      if (closed) throw new BridgeError('unavailable', 'The drop folders are shutting down.');
      const mapping = mappingOf(draft);
      await checkFolder(mapping.folder);
      await refuseUnsafe(mapping.folder);
      if (isWithin(stateDir, mapping.folder)) {
        throw new BridgeError('invalid-request', 'The folder lies in the drop folders’ own state folder.');
      }
      await store.add(mapping);
      const runtime = await startRuntime(mapping);
      announceFolders();
      return statusOf(runtime);
    },

    async update(mappingId, changes) {
      const runtime = requireRuntime(mappingId);
      if (!Value.Check(DropFolderChanges, changes)) throw new BridgeError('invalid-request', 'The drop folder settings are not valid.');
      await refuseUnsafe(runtime.mapping.folder);
      const restart = changes.polling !== undefined && changes.polling !== runtime.mapping.polling;
      const next: DropFolderMapping = { ...runtime.mapping, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
      await store.replace(next);
      if (restart) {
        await stopRuntime(runtime);
        await startRuntime(next);
      } else {
        Object.assign(runtime.mapping, next);
        void rescanRuntime(runtime);
      }
      announceFolders();
      return statusOf(requireRuntime(mappingId));
    },

    async remove(mappingId) {
      const runtime = requireRuntime(mappingId);
      await stopRuntime(runtime);
      runtimes.delete(mappingId);
      ledger.removeMapping(mappingId);
      await store.remove(mappingId);
      announceFolders();
    },

    pause: (mappingId) => setPaused(mappingId, true),
    resume: (mappingId) => setPaused(mappingId, false),

    files(mappingId) {
      requireRuntime(mappingId);
      return ledger.list(mappingId).map((row) => snapshotOf(row, ctx.progress.get(rowId(row))));
    },

    fileCounts() {
      const counts = ledger.countsByState();
      return { inFlight: (counts.detected ?? 0) + (counts.hashing ?? 0) + (counts.uploading ?? 0), failed: counts.failed ?? 0 };
    },

    async retry(mappingId, relativePath) {
      const runtime = requireRuntime(mappingId);
      const row = ledger.get({ mappingId, path: relativePath });
      if (row === undefined) throw new BridgeError('not-found', `${relativePath} is not in this drop folder's ledger.`);
      if (row.state !== 'failed') throw new BridgeError('conflict', `${relativePath} has not failed; it is ${row.state}.`);
      if (runtime.mapping.paused) throw new BridgeError('conflict', 'The drop folder is paused; resume it first.');
      runtime.uploader.retry(row);
      trigger(runtime, relativePath);
    },

    async rescan(mappingId) {
      const chosen = mappingId === undefined ? [...runtimes.values()] : [requireRuntime(mappingId)];
      await Promise.all(chosen.filter((runtime) => !runtime.mapping.paused).map((runtime) => rescanRuntime(runtime)));
    },

    connectionsChanged: announceFolders,

    async close() {
      if (closed) return;
      closed = true;
      ctx.diskSlots.close();
      await Promise.all([...runtimes.values()].map((runtime) => stopRuntime(runtime)));
      await store.flush();
      ledger.close();
    },
  };
}
