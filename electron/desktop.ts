/**
 * The desktop host's wiring, the same in Electron and in browser mode: it starts the services (connections, the vault,
 * one queued API client per connection, the Local workspace, drop folders, passports and uploads), composes the Bridge
 * handlers of each namespace (`handlers/`) into one for every channel, sends the services' events to whoever listens,
 * and stops it all. The Electron IPC and the browser host's WebSocket are transports over its `handlers`.
 */
import path from 'node:path';
import { BridgeError, type Connection, type IpcEvent, type IpcEventPayload } from '../shared/ipc';
import type { ChosenFiles } from '../shared/uploads';
import type { BridgeEventSink, BridgeHandlers } from './bridge-dispatch';
import { ConnectionStore, keyOriginOf } from './connections';
import { startDropFolderService, type DropFolderService } from './dropfolders/service';
import type { DropFolderTiming } from './dropfolders/timing';
import { apiHandlers } from './handlers/api';
import { appHandlers } from './handlers/app';
import { connectionHandlers } from './handlers/connections';
import { folderDialogHandlers, type ChooseFolderFunction } from './handlers/dialog';
import { dropFolderHandlers } from './handlers/dropfolders';
import { localHandlers } from './handlers/local';
import { networkHandlers } from './handlers/network';
import { passportHandlers } from './handlers/passports';
import { shellHandlers } from './handlers/shell';
import { uploadHandlers, type ChooseFilesFunction, type ChooseSaveTargetFunction } from './handlers/uploads';
import { vaultHandlers } from './handlers/vault';
import { HostConnections } from './host-connections';
import type { QueuedClientOptions } from './http/queued-client';
import { LocalWorkspace, type LocalServerLauncher } from './local-server';
import type { ConfirmMigration } from './migration-confirmation';
import type { ProxyControl } from './network/proxy-control';
import { OpenedFiles } from './opened-files';
import { startPassportService, type PassportService } from './passports/passport-service';
import { ensurePrivateFolder } from './private-files';
import { dropFolderEventsTo, passportEventsTo } from './service-events';
import type { StartAtLogin } from './start-at-login';
import type { UpdateChecker } from './update-checker';
import { startUploadService, type UploadService, type UploadTiming } from './uploads/service';
import type { Vault } from './vault';

/** What the host is made of; each host (Electron, browser) supplies its own vault, launcher and shell. */
export interface DesktopHostOptions {
  userDataDir: string;
  host: 'electron' | 'browser';
  version: string;
  vault: Vault;
  startLocalServer: LocalServerLauncher;
  /** Opens an http(s) address in the system browser. */
  openExternal: (url: string) => Promise<void>;
  /** Opens a folder or file with the system's own application (Electron: `shell.openPath`; browser mode: the OS opener). */
  openPath: (target: string) => Promise<void>;
  /**
   * Asks the user for a folder (Electron: the native dialog); null when cancelled. Browser mode has none: the channel
   * answers `unavailable` and the screen asks for a path instead.
   */
  chooseFolder?: ChooseFolderFunction;
  /**
   * Asks the user for files to upload (Electron: the native open dialog). Browser mode has none: the channel answers
   * `unavailable` and the page sends the bytes of a file input into a spool instead.
   */
  chooseFiles?: ChooseFilesFunction;
  /**
   * Asks the user where to save a downloaded file (Electron: the native save dialog). Browser mode has none: the channel
   * answers `unavailable` and the page downloads the signed address itself.
   */
  chooseSaveTarget?: ChooseSaveTargetFunction;
  /**
   * Asks the user, in a step the host shows, to confirm where the Local workspace is copied. Without it (browser mode
   * with no terminal) the workspace is not moved.
   */
  confirmMigration?: ConfirmMigration;
  /** Whether the app starts at login (Electron). Browser mode has none: its channels answer `unavailable`. */
  startAtLogin?: StartAtLogin;
  /** The folder of the app's logs (Electron): *Open logs folder* opens it, Export diagnostics zips its files. */
  logsDir?: string;
  /** The app's update checks (Electron). Browser mode has none: it is updated with its checkout. */
  updates?: UpdateChecker;
  log: (message: string, error?: unknown) => void;
  /**
   * What every outgoing call of the host goes through (Electron: `net.fetch`, so the system's proxy, PAC and
   * certificates apply). Default: Node's fetch, with streamed uploads over node:http where no proxy applies.
   */
  fetch?: typeof globalThis.fetch;
  /** The proxy the user chooses in Settings (Electron). Browser mode has none: its proxy comes from the environment. */
  proxy?: ProxyControl;
  /** Faster timings of the drop folders, passports, uploads and clients, for tests; the defaults suit people. */
  tuning?: DesktopTuning;
}

/** Timings a test may shorten. */
export interface DesktopTuning {
  dropFolders?: Partial<DropFolderTiming>;
  passportPollMs?: number;
  uploads?: Partial<UploadTiming>;
  clientRetry?: QueuedClientOptions['retry'];
  /** How long a connection's call waits for an answer, or for its body to move on, before the server counts as not answering (60 s). */
  clientTimeoutMs?: number;
}

/** What the tray and the window title show. */
export interface DesktopStatus {
  local: ReturnType<LocalWorkspace['status']>;
  /** Calls waiting or running, over all connections. */
  queued: number;
  running: number;
  /** Drop folders and passport folders set: their work goes on while the window is closed. */
  dropFolders: number;
  passportFolders: number;
  /** Uploads of the building and portfolio pages and files of the drop folders on their way to the server, and those that failed. */
  uploadsInFlight: number;
  uploadsFailed: number;
}

/** The running host. */
export interface DesktopHost {
  handlers: BridgeHandlers;
  /** Sends every host event to `sink` until the returned function is called. */
  onEvent(sink: BridgeEventSink): () => void;
  status(): DesktopStatus;
  /** Adds or updates the remote connection to `baseUrl`, stores `key` for it and makes it active (managed installs, tests). */
  provision(baseUrl: string, key: string): Promise<Connection>;
  /**
   * Files opened with the app (launch arguments, macOS open-file): registered as chosen files, kept until the window
   * takes them (`app:take-opened-files`) and announced with `app:files-opened`.
   */
  openFiles(paths: readonly string[]): Promise<void>;
  /** Files the user dropped or picked in the window (paths from the preload), registered as chosen files. */
  registerDroppedFiles(paths: readonly string[]): Promise<ChosenFiles>;
  /** Stops the drop folders, passports and uploads (their ledgers keep where each file was), waits for open calls, stops the Local workspace server. */
  close(): Promise<void>;
}

/** The services that may fail to start without stopping the host. */
interface HostServices {
  passports?: PassportService;
  dropFolders?: DropFolderService;
  uploads?: UploadService;
}

/** A service's getter for the handlers: one that could not start answers `unavailable`, with `what` as the reason. */
function required<T>(service: () => T | undefined, what: string): () => T {
  return () => {
    const started = service();
    if (started === undefined) throw new BridgeError('unavailable', `${what} could not start. The details are in the log.`);
    return started;
  };
}

/** Starts a service; one that cannot start leaves the rest of the app usable and its channels answer `unavailable`. */
async function startOptional<T>(log: DesktopHostOptions['log'], what: string, start: () => Promise<T>): Promise<T | undefined> {
  try {
    return await start();
  } catch (error) {
    log(`The ${what} could not start.`, error);
    return undefined;
  }
}

function localDataDirOf(options: DesktopHostOptions): string {
  return path.join(options.userDataDir, 'local-workspace');
}

/** Starts the Local workspace server, its connection following the port it listens at; a failure is logged. */
async function startLocalWorkspace(options: DesktopHostOptions, store: ConnectionStore, emit: BridgeEventSink): Promise<LocalWorkspace> {
  const { log } = options;
  const local = new LocalWorkspace({ dataDir: localDataDirOf(options), vault: options.vault, launch: options.startLocalServer, log });
  local.onStatus((status) => emit('local:status-changed', status));
  // Every (re)start may listen at a new port; the profile follows it.
  let localSaved: Promise<unknown> = Promise.resolve();
  local.onListening((url) => {
    localSaved = store.ensureLocal(url).catch((error: unknown) => log('Saving the Local workspace address failed.', error));
  });
  try {
    await local.start();
    await localSaved;
  } catch (error) {
    log('The Local workspace server could not start.', error);
  }
  return local;
}

/**
 * Starts the passports, drop folders and uploads into `services`; the passports first, since the drop folders may
 * report a mapped file while they resume their ledger.
 */
async function startServices(services: HostServices, options: DesktopHostOptions, connections: HostConnections, emit: BridgeEventSink): Promise<void> {
  const { log, tuning } = options;
  services.passports = await startOptional(log, 'passports', () =>
    startPassportService({
      stateDir: path.join(options.userDataDir, 'passports'),
      clientFor: (connectionId) => {
        const client = connections.clientFor(connectionId);
        if (client === undefined) throw new BridgeError('not-found', 'Its connection was removed. Remove this passport folder and set it up again with another connection.');
        return client;
      },
      onEvent: passportEventsTo({ emit, targetOf: (targetId) => services.passports?.targets().find((target) => target.id === targetId) }),
      ...(tuning?.passportPollMs === undefined ? {} : { pollIntervalMs: tuning.passportPollMs }),
      folderSafety: { appDataFolder: options.userDataDir },
      log,
    }),
  );
  services.dropFolders = await startOptional(log, 'drop folders', () =>
    startDropFolderService({
      stateDir: path.join(options.userDataDir, 'dropfolders'),
      clientFor: (connectionId) => connections.clientFor(connectionId),
      connectionExists: (connectionId) => connections.store.get(connectionId) !== undefined,
      onEvent: dropFolderEventsTo({
        emit,
        fileMapped: (buildingId) => {
          services.passports?.sourceFileMapped(buildingId).catch((error: unknown) => log('Requesting passports for a mapped file failed.', error));
        },
      }),
      log,
      passportFolders: () => passportFoldersOf(services),
      appDataFolder: options.userDataDir,
      ...(tuning?.dropFolders === undefined ? {} : { timing: tuning.dropFolders }),
    }),
  );
  services.uploads = await startOptional(log, 'uploads', () =>
    startUploadService({
      stateDir: path.join(options.userDataDir, 'uploads'),
      clientFor: (connectionId) => connections.clientFor(connectionId),
      hasKey: (connectionId) => options.vault.has(connectionId),
      onChange: (entry) => emit('uploads:changed', entry),
      log,
      ...(tuning?.uploads === undefined ? {} : { timing: tuning.uploads }),
    }),
  );
}

function passportFoldersOf(services: HostServices): string[] {
  return services.passports?.targets().map((target) => target.folder) ?? [];
}

function dropFoldersOf(services: HostServices): string[] {
  return services.dropFolders?.list().map((mapping) => mapping.folder) ?? [];
}

/** Uploads on their way and failed ones: the pages' uploads, and the files of every drop folder. */
function uploadCounts(services: HostServices): { uploadsInFlight: number; uploadsFailed: number } {
  let uploadsInFlight = 0;
  let uploadsFailed = 0;
  for (const entry of services.uploads?.list() ?? []) {
    if (entry.state === 'waiting' || entry.state === 'creating' || entry.state === 'sending') uploadsInFlight += 1;
    else if (entry.state === 'failed') uploadsFailed += 1;
  }
  const dropped = services.dropFolders?.fileCounts() ?? { inFlight: 0, failed: 0 };
  return { uploadsInFlight: uploadsInFlight + dropped.inFlight, uploadsFailed: uploadsFailed + dropped.failed };
}

/** Starts the services; the Local workspace is started too, and a failure to start it leaves the rest usable. */
export async function startDesktopHost(options: DesktopHostOptions): Promise<DesktopHost> {
  const { vault, log } = options;
  await ensurePrivateFolder(options.userDataDir);
  const store = await ConnectionStore.open(options.userDataDir);
  if (store.setAside !== undefined) {
    log(`The connections file could not be read and was moved aside to ${store.setAside}; the list starts empty.`);
  }
  await vault
    .bindLegacyKeys((connectionId) => {
      const profile = store.get(connectionId);
      return profile === undefined ? undefined : keyOriginOf(profile);
    })
    .catch((error: unknown) => log('Keys stored before keys had an origin could not be bound to their connections; they are not used.', error));
  const sinks = new Set<BridgeEventSink>();
  const emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void => {
    for (const sink of sinks) sink(event, payload);
  };
  // Set as each starts: the clients' signs of a reachable server and the services' events may come before that.
  const services: HostServices = {};
  const connections = new HostConnections({
    store,
    vault,
    fetch: options.fetch,
    retry: options.tuning?.clientRetry,
    timeoutMs: options.tuning?.clientTimeoutMs,
    log,
    onList: (list) => emit('connections:changed', list),
    onActivity: (connectionId, now) => emit('http:activity', { connectionId, ...now }),
    onReachable: (connectionId) => services.uploads?.wake(connectionId),
  });
  const local = await startLocalWorkspace(options, store, emit);
  options.updates?.onChange((state) => emit('app:update-changed', state));
  await startServices(services, options, connections, emit);

  const uploads = required(() => services.uploads, 'Uploads');
  const openedFiles = new OpenedFiles({
    uploads,
    onNotice: (notice) => emit('notice', notice),
    onOpened: (count) => emit('app:files-opened', { count }),
  });
  const handlers = {
    ...appHandlers({
      version: options.version,
      host: options.host,
      userDataDir: options.userDataDir,
      startAtLogin: options.startAtLogin,
      logsDir: options.logsDir,
      updates: options.updates,
      chooseSaveTarget: options.chooseSaveTarget,
      openPath: options.openPath,
      openedFiles,
      diagnosticsSettings: async () => ({
        connections: (await connections.list()).connections,
        dropFolders: services.dropFolders?.list() ?? [],
        passportFolders: services.passports?.targets() ?? [],
        keys: await connections.storedKeys(),
      }),
    }),
    ...connectionHandlers({
      connections,
      vault,
      fetch: options.fetch,
      // Drop folders and passport folders of the connection stay (the user decides), showing why they no longer work.
      onRemoved: () => {
        services.dropFolders?.connectionsChanged();
        void services.passports?.checkNow();
      },
    }),
    ...vaultHandlers({ vault, connections }),
    ...apiHandlers(connections),
    ...localHandlers({
      local,
      dataDir: localDataDirOf(options),
      launch: options.startLocalServer,
      confirmMigration: options.confirmMigration,
      connections,
      vault,
      onMigrationProgress: (progress) => emit('local:migration-progress', progress),
      log,
    }),
    ...shellHandlers(options.openExternal),
    ...folderDialogHandlers(options.chooseFolder),
    ...dropFolderHandlers({
      dropFolders: required(() => services.dropFolders, 'The drop folders'),
      requireProfile: (connectionId) => connections.requireProfile(connectionId),
      passportFolders: () => passportFoldersOf(services),
      openPath: options.openPath,
    }),
    ...passportHandlers({
      passports: required(() => services.passports, 'The passports'),
      requireProfile: (connectionId) => connections.requireProfile(connectionId),
      dropFolders: () => dropFoldersOf(services),
      openPath: options.openPath,
    }),
    ...networkHandlers({ proxy: options.proxy, connections }),
    ...uploadHandlers({
      uploads,
      requireProfile: (connectionId) => connections.requireProfile(connectionId),
      clientOf: (profile) => connections.clientOf(profile),
      chooseFiles: options.chooseFiles,
      chooseSaveTarget: options.chooseSaveTarget,
    }),
  } satisfies BridgeHandlers;

  return {
    handlers,
    onEvent(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    status: () => ({
      local: local.status(),
      ...connections.activity(),
      dropFolders: services.dropFolders?.list().length ?? 0,
      passportFolders: services.passports?.targets().length ?? 0,
      ...uploadCounts(services),
    }),
    openFiles: (paths) => openedFiles.open(paths),
    registerDroppedFiles: (paths) => uploads().registerChoices(paths),
    async provision(baseUrl, key): Promise<Connection> {
      const profile = await connections.remoteTo(baseUrl);
      await vault.set(profile.id, keyOriginOf(profile), key);
      await store.activate(profile.id);
      connections.announce();
      return { ...profile, hasKey: true };
    },
    async close() {
      // The services first: they stop their uploads and downloads cleanly while the clients still run.
      await Promise.all([services.dropFolders?.close(), services.passports?.close(), services.uploads?.close()]);
      await connections.close();
      await local.stop();
    },
  };
}
