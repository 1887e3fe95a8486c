/**
 * The desktop host's services wired together, the same in Electron and in browser mode: connections, the vault, one
 * queued API client per connection, the Local workspace, drop folders, passports and uploads. Its `handlers` implement
 * every Bridge channel; the Electron IPC and the browser host's WebSocket are transports over them.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { assertNever } from '../shared/api/enums';
import { AccountResponse } from '../shared/api/schemas';
import { Value } from 'typebox/value';
import type { DropFolderEvent } from '../shared/dropfolders';
import {
  BridgeError,
  type ApiAnswer,
  type ApiRequest,
  type Connection,
  type ConnectionList,
  type ConnectionDraftTest,
  type ConnectionTestResult,
  type DiagnosticsExport,
  type ImageUpload,
  type IpcEvent,
  type IpcEventPayload,
  type IpcRequest,
  type IpcValue,
  type Notice,
  type ProxyTestResult,
} from '../shared/ipc';
import type { PassportEntry, PassportEvent, PassportState } from '../shared/passports';
import type { ChosenFiles } from '../shared/uploads';
import type { BridgeEventSink, BridgeHandlers } from './bridge-dispatch';
import { checkedDraftAddress, ConnectionStore, keyOriginOf, LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN, normaliseBaseUrl, type ConnectionProfile } from './connections';
import { writeDiagnosticsZip } from './diagnostics';
import { isWithinByRealPath } from './dropfolders/folder-safety';
import { startDropFolderService, type DropFolderService } from './dropfolders/service';
import type { DropFolderTiming } from './dropfolders/uploader';
import { uploadHandlers, type ChooseFilesFunction, type ChooseSaveTargetFunction } from './handlers/uploads';
import { runApiCall } from './http/api-request';
import { runImageUpload } from './http/image-upload';
import { createQueuedClient, type QueuedClient, type QueuedClientOptions } from './http/queued-client';
import { migrateLocalWorkspace } from './local-migration';
import type { ProxyControl } from './network/proxy-control';
import { LocalWorkspace, type LocalServerLauncher } from './local-server';
import { startPassportService, type PassportService } from './passports/passport-service';
import type { StartAtLogin } from './start-at-login';
import type { UpdateChecker } from './update-checker';
import { startUploadService, type UploadService, type UploadTiming } from './uploads/service';
import type { Vault } from './vault';
import { migrationTargetsOf, type ConfirmMigration } from './migration-confirmation';

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
  chooseFolder?: (title: string | undefined) => Promise<string | null>;
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

/** Starts the services; the Local workspace is started too, and a failure to start it leaves the rest usable. */
export async function startDesktopHost(options: DesktopHostOptions): Promise<DesktopHost> {
  const { vault, log } = options;
  const connections = await ConnectionStore.open(options.userDataDir);
  if (connections.setAside !== undefined) {
    log(`The connections file could not be read and was moved aside to ${connections.setAside}; the list starts empty.`);
  }
  const sinks = new Set<BridgeEventSink>();
  const emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void => {
    for (const sink of sinks) sink(event, payload);
  };

  const clients = new Map<string, { client: QueuedClient; profile: ConnectionProfile }>();
  const activity = new Map<string, { queued: number; running: number }>();
  // Filled in once each has started; their events, and the clients' signs of a reachable server, may come before that.
  const services: { passports?: PassportService; dropFolders?: DropFolderService; uploads?: UploadService } = {};

  /** The client of a connection, made anew when its address or version changed (the old one finishes its calls). */
  function clientOf(profile: ConnectionProfile): QueuedClient {
    const existing = clients.get(profile.id);
    if (existing !== undefined && existing.profile.baseUrl === profile.baseUrl && existing.profile.apiVersion === profile.apiVersion) {
      return existing.client;
    }
    if (existing !== undefined) void existing.client.close();
    const client = createQueuedClient({
      baseUrl: profile.baseUrl,
      apiVersion: profile.apiVersion,
      apiKey: () => vault.get(profile.id, keyOriginOf(profile)),
      ...(options.tuning?.clientRetry === undefined ? {} : { retry: options.tuning.clientRetry }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      onActivity: (now) => {
        activity.set(profile.id, now);
        emit('http:activity', { connectionId: profile.id, ...now });
      },
      // The server answers again: uploads waiting for it go now rather than after their backoff.
      onSuccess: () => services.uploads?.wake(profile.id),
    });
    clients.set(profile.id, { client, profile });
    return client;
  }

  function requireProfile(connectionId: string): ConnectionProfile {
    const profile = connections.get(connectionId);
    if (profile === undefined) throw new BridgeError('not-found', 'This connection no longer exists.');
    return profile;
  }

  async function connectionList(): Promise<ConnectionList> {
    const { profiles, activeId } = connections.list();
    const listed: Connection[] = await Promise.all(
      profiles.map(async (profile) => ({ ...profile, hasKey: await vault.has(profile.id) })),
    );
    return { connections: listed, activeId };
  }

  const announceConnections = (): void => {
    connectionList().then(
      (list) => emit('connections:changed', list),
      (error: unknown) => log('Listing the connections failed.', error),
    );
  };
  connections.onChange(announceConnections);
  // A connection whose address changed (edited, or the Local workspace restarted at another port) may be reachable now.
  const addresses = new Map(connections.list().profiles.map((profile) => [profile.id, profile.baseUrl]));
  connections.onChange(() => {
    for (const profile of connections.list().profiles) {
      if (addresses.get(profile.id) === profile.baseUrl) continue;
      addresses.set(profile.id, profile.baseUrl);
      services.uploads?.wake(profile.id);
    }
  });

  const localDataDir = path.join(options.userDataDir, 'local-workspace');
  const local = new LocalWorkspace({
    dataDir: localDataDir,
    vault,
    launch: options.startLocalServer,
    log,
  });
  local.onStatus((status) => emit('local:status-changed', status));
  options.updates?.onChange((state) => emit('app:update-changed', state));
  // Every (re)start may listen at a new port; the profile follows it.
  let localSaved: Promise<unknown> = Promise.resolve();
  local.onListening((url) => {
    localSaved = connections.ensureLocal(url).catch((error: unknown) => log('Saving the Local workspace address failed.', error));
  });
  try {
    await local.start();
    await localSaved;
  } catch (error) {
    log('The Local workspace server could not start.', error);
  }

  // --- drop folders and passports ---------------------------------------------------------------------------------

  const emitNotice = (notice: Notice): void => emit('notice', notice);

  const passportStates = new Map<string, PassportState>();
  /** One notice when a passport reaches the folder or fails, however often its entry changes. */
  function passportNotice(entry: PassportEntry): void {
    const before = passportStates.get(entry.id);
    passportStates.set(entry.id, entry.state);
    if (before === entry.state) return;
    const format = entry.format === 'pdf' ? 'PDF' : 'Excel';
    if (entry.state === 'downloaded' && entry.filePath !== null) {
      emitNotice({ kind: 'success', title: `${path.basename(entry.filePath)} is saved`, message: `The ${format} passport is in ${path.dirname(entry.filePath)}.` });
    } else if (entry.state === 'failed') {
      const name = services.passports?.targets().find((target) => target.id === entry.targetId)?.name ?? `the ${entry.subject.kind}`;
      emitNotice({ kind: 'error', title: `The ${format} passport of ${name} failed`, message: entry.error ?? 'The passport could not be made.' });
    }
  }

  function onPassportEvent(event: PassportEvent): void {
    emit('passports:changed', event);
    if (event.type === 'entry-changed') passportNotice(event.entry);
  }

  function onDropFolderEvent(event: DropFolderEvent): void {
    emit('dropfolders:changed', event);
    switch (event.kind) {
      case 'notice':
        emitNotice({ kind: event.outcome === 'failed' ? 'error' : 'success', title: event.title, message: event.message });
        return;
      case 'file': {
        const { state, buildingId } = event.file;
        // Passports asked for on Mapped go out now: the file has been activated (when chosen) before it counts as mapped.
        if (state === 'mapped' && buildingId !== null) {
          services.passports?.sourceFileMapped(buildingId).catch((error: unknown) => log('Requesting passports for a mapped file failed.', error));
        }
        return;
      }
      case 'file-removed':
      case 'progress':
      case 'folders':
        return;
      default:
        assertNever(event, 'drop folder event');
    }
  }

  /** Starts a service; one that cannot start leaves the rest of the app usable and its channels answer `unavailable`. */
  async function startOptional<T>(what: string, start: () => Promise<T>): Promise<T | undefined> {
    try {
      return await start();
    } catch (error) {
      log(`The ${what} could not start.`, error);
      return undefined;
    }
  }

  // Passports first: the drop folders may report a mapped file while they resume their ledger.
  services.passports = await startOptional('passports', () =>
    startPassportService({
      stateDir: path.join(options.userDataDir, 'passports'),
      clientFor: (connectionId) => {
        const profile = connections.get(connectionId);
        if (profile === undefined) throw new BridgeError('not-found', 'Its connection was removed. Remove this passport folder and set it up again with another connection.');
        return clientOf(profile);
      },
      onEvent: onPassportEvent,
      ...(options.tuning?.passportPollMs === undefined ? {} : { pollIntervalMs: options.tuning.passportPollMs }),
      log,
    }),
  );
  services.dropFolders = await startOptional('drop folders', () =>
    startDropFolderService({
      stateDir: path.join(options.userDataDir, 'dropfolders'),
      clientFor: (connectionId) => {
        const profile = connections.get(connectionId);
        return profile === undefined ? undefined : clientOf(profile);
      },
      onEvent: onDropFolderEvent,
      connectionExists: (connectionId) => connections.get(connectionId) !== undefined,
      log,
      passportFolders: () => services.passports?.targets().map((target) => target.folder) ?? [],
      ...(options.tuning?.dropFolders === undefined ? {} : { timing: options.tuning.dropFolders }),
    }),
  );
  services.uploads = await startOptional('uploads', () =>
    startUploadService({
      stateDir: path.join(options.userDataDir, 'uploads'),
      clientFor: (connectionId) => {
        const profile = connections.get(connectionId);
        return profile === undefined ? undefined : clientOf(profile);
      },
      hasKey: (connectionId) => vault.has(connectionId),
      onChange: (entry) => emit('uploads:changed', entry),
      log,
      ...(options.tuning?.uploads === undefined ? {} : { timing: options.tuning.uploads }),
    }),
  );

  function requireDropFolders(): DropFolderService {
    const { dropFolders } = services;
    if (dropFolders === undefined) throw new BridgeError('unavailable', 'The drop folders could not start. The details are in the log.');
    return dropFolders;
  }

  function requireUploads(): UploadService {
    const { uploads } = services;
    if (uploads === undefined) throw new BridgeError('unavailable', 'Uploads could not start. The details are in the log.');
    return uploads;
  }

  function requirePassports(): PassportService {
    const { passports } = services;
    if (passports === undefined) throw new BridgeError('unavailable', 'The passports could not start. The details are in the log.');
    return passports;
  }

  /**
   * Refuses a passport folder inside a drop folder, or the other way round: each passport would be uploaded again.
   * Compared by real path, so a link to either folder does not hide it.
   */
  async function refuseOverlap(dropFolder: string | undefined, passportFolder: string | undefined): Promise<void> {
    const droppedInto = dropFolder === undefined ? [] : [path.resolve(dropFolder)];
    const savedInto = passportFolder === undefined ? [] : [path.resolve(passportFolder)];
    if (dropFolder === undefined) droppedInto.push(...(services.dropFolders?.list().map((mapping) => mapping.folder) ?? []));
    if (passportFolder === undefined) savedInto.push(...(services.passports?.targets().map((target) => target.folder) ?? []));
    for (const watched of droppedInto) {
      for (const saved of savedInto) {
        if (await isWithinByRealPath(watched, saved)) {
          throw new BridgeError('conflict', `The passport folder ${saved} lies in the drop folder ${watched}: every passport would be uploaded as a new file.`);
        }
      }
    }
  }

  /** Opens something on this machine's disk that must still be there; says so plainly when it is not. */
  async function openOnDisk(target: string, missing: string): Promise<void> {
    try {
      await stat(target);
    } catch {
      throw new BridgeError('not-found', missing);
    }
    await options.openPath(target);
  }

  async function request({ connectionId, ...call }: ApiRequest): Promise<ApiAnswer> {
    const profile = requireProfile(connectionId);
    return runApiCall(clientOf(profile), profile.apiVersion, call);
  }

  async function uploadImage({ connectionId, ...call }: ImageUpload): Promise<ApiAnswer> {
    return runImageUpload(clientOf(requireProfile(connectionId)), call);
  }

  async function testConnection(connectionId: string): Promise<ConnectionTestResult> {
    return testWith(clientOf(requireProfile(connectionId)));
  }

  /** Tests a connection before it is saved: a client of its own with the typed key, closed after the one call. */
  async function testDraft({ apiVersion, key, ...address }: ConnectionDraftTest): Promise<ConnectionTestResult> {
    const client = createQueuedClient({
      baseUrl: checkedDraftAddress(address),
      apiVersion,
      apiKey: async () => key,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    try {
      return await testWith(client);
    } finally {
      await client.close();
    }
  }

  async function testWith(client: QueuedClient): Promise<ConnectionTestResult> {
    // The user waits for this answer: one attempt, no retries.
    const result = await client.callLoose('getCurrentAccount', {}, { retry: false });
    switch (result.kind) {
      case 'ok': {
        // Any address can be typed in: a 200 from something that is not this API must not pass as a working connection.
        if (!Value.Check(AccountResponse, result.value)) {
          return { kind: 'network', message: 'The server answered, but not as the Building Circularity Data API does. Check the address.' };
        }
        const account = result.value;
        return { kind: 'ok', accountName: account.name, accountType: account.accountType };
      }
      case 'problem':
        return { kind: 'problem', status: result.status, title: result.problem.title, detail: result.problem.detail };
      case 'network':
        return { kind: 'network', message: result.error.message };
    }
  }

  function requireProxy(): ProxyControl {
    if (options.proxy === undefined) {
      throw new BridgeError('unavailable', 'In browser mode the proxy comes from HTTPS_PROXY, HTTP_PROXY and NO_PROXY of the terminal that started it.');
    }
    return options.proxy;
  }

  /** Which proxy the connection's address goes through, and whether its server answers that way (one attempt). */
  async function testProxy(connectionId: string): Promise<ProxyTestResult> {
    const proxy = requireProxy();
    const profile = requireProfile(connectionId);
    const [resolved, server] = await Promise.all([proxy.resolve(profile.baseUrl), testConnection(connectionId)]);
    return { proxy: resolved, server };
  }

  /** The remote connection to this address: the one there is (its name kept), else a new one named after the host. */
  async function remoteConnectionTo(baseUrl: string): Promise<ConnectionProfile> {
    const address = normaliseBaseUrl(baseUrl);
    const existing = connections.list().profiles.find((profile) => profile.kind === 'remote' && profile.baseUrl === address);
    // The user named this address themselves (on the command line, or confirmed in the host's own step of a move).
    const draft = {
      name: existing?.name ?? new URL(address).host,
      baseUrl: address,
      apiVersion: existing?.apiVersion ?? ('v2.3' as const),
      plainHttpConfirmed: true,
    };
    return existing === undefined ? connections.add(draft) : connections.update(existing.id, draft);
  }

  let migrating = false;
  /**
   * Copies the Local workspace to a team server; with its address, adds a connection to it that holds the Local
   * workspace's key, which the copy made valid there too.
   */
  async function migrateLocal({ teamServerUrl, allowInsecureStorage, ...target }: IpcRequest<'local:migrate'>): Promise<IpcValue<'local:migrate'>> {
    if (migrating) throw new BridgeError('conflict', 'The Local workspace is being copied already; wait for that copy to end.');
    migrating = true;
    try {
      if (options.confirmMigration === undefined) {
        throw new BridgeError(
          'unavailable',
          'This host cannot ask you to confirm where the Local workspace goes, so it is not moved. Use the desktop app, or start browser mode from a terminal.',
        );
      }
      if (!(await options.confirmMigration(migrationTargetsOf(target.databaseUrl, target.blobs, teamServerUrl)))) {
        throw new BridgeError('conflict', 'The move was not confirmed; nothing was copied.');
      }
      const summary = await migrateLocalWorkspace({
        dataDir: localDataDir,
        launch: options.startLocalServer,
        target,
        onProgress: (progress) => emit('local:migration-progress', progress),
      });
      if (teamServerUrl === undefined) return { summary, connection: null };
      const profile = await remoteConnectionTo(teamServerUrl);
      const key = await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
      try {
        // A key the user keeps for that server stays: the Local workspace's key is stored only where there is none.
        if (key !== undefined && !(await vault.has(profile.id))) {
          await vault.set(profile.id, keyOriginOf(profile), key, { allowInsecureStorage: allowInsecureStorage === true });
        }
      } catch (error) {
        // Without the user's consent to an unencrypted key the connection is kept without one: the copy itself is done.
        if (!(error instanceof BridgeError && error.code === 'insecure-storage')) throw error;
      }
      announceConnections();
      return { summary, connection: { ...profile, hasKey: await vault.has(profile.id) } };
    } finally {
      migrating = false;
    }
  }

  /** Files opened with the app that the window has not taken yet. */
  let openedFiles: ChosenFiles = [];

  function requireStartAtLogin(): StartAtLogin {
    if (options.startAtLogin === undefined) throw new BridgeError('unavailable', 'Starting at login is a setting of the desktop app.');
    return options.startAtLogin;
  }

  function requireLogsDir(): string {
    if (options.logsDir === undefined) throw new BridgeError('unavailable', 'In browser mode the log is written to the terminal that started it.');
    return options.logsDir;
  }

  /** Every key the vault holds, so that diagnostics can cut out one a log line caught; an unreadable key is not there to leak. */
  async function storedKeys(): Promise<string[]> {
    const stored = await Promise.all([
      vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN).catch(() => undefined),
      ...connections.list().profiles.map((profile) => vault.get(profile.id, keyOriginOf(profile)).catch(() => undefined)),
    ]);
    return stored.filter((key): key is string => key !== undefined && key !== '');
  }

  /** Asks where to save, then writes the logs, versions and settings there as a zip. */
  async function exportDiagnostics(): Promise<DiagnosticsExport> {
    const logsDir = requireLogsDir();
    if (options.chooseSaveTarget === undefined) throw new BridgeError('unavailable', 'There is no save dialog in the browser.');
    const target = await options.chooseSaveTarget(`circularity-desk-diagnostics-${new Date().toISOString().slice(0, 10)}.zip`);
    if (target === null) return { path: null };
    const versions: Record<string, string> = { app: options.version };
    for (const name of ['electron', 'chrome', 'node'] as const) {
      const version = process.versions[name];
      if (version !== undefined) versions[name] = version;
    }
    versions['platform'] = process.platform;
    versions['arch'] = process.arch;
    await writeDiagnosticsZip(target, {
      logsDir,
      versions,
      connections: (await connectionList()).connections,
      dropFolders: services.dropFolders?.list() ?? [],
      passportFolders: services.passports?.targets() ?? [],
      keys: await storedKeys(),
    });
    return { path: target };
  }

  function requireUpdates(): UpdateChecker {
    if (options.updates === undefined) throw new BridgeError('unavailable', 'Browser mode is updated with its checkout.');
    return options.updates;
  }

  /** Uploads on their way and failed ones: the pages' uploads, and the files of every drop folder. */
  function uploadCounts(): { uploadsInFlight: number; uploadsFailed: number } {
    let uploadsInFlight = 0;
    let uploadsFailed = 0;
    for (const entry of services.uploads?.list() ?? []) {
      if (entry.state === 'waiting' || entry.state === 'creating' || entry.state === 'sending') uploadsInFlight += 1;
      else if (entry.state === 'failed') uploadsFailed += 1;
    }
    const dropped = services.dropFolders?.fileCounts() ?? { inFlight: 0, failed: 0 };
    return { uploadsInFlight: uploadsInFlight + dropped.inFlight, uploadsFailed: uploadsFailed + dropped.failed };
  }

  const handlers: BridgeHandlers = {
    'app:info': async () => ({
      version: options.version,
      host: options.host,
      platform: process.platform,
      userDataDir: options.userDataDir,
    }),
    'app:start-at-login': async () => ({ enabled: await requireStartAtLogin().enabled() }),
    'app:set-start-at-login': async ({ enabled }) => {
      const setting = requireStartAtLogin();
      await setting.set(enabled);
      return { enabled: await setting.enabled() };
    },
    'app:take-opened-files': async () => {
      const taken = openedFiles;
      openedFiles = [];
      return taken;
    },
    'app:export-diagnostics': () => exportDiagnostics(),
    'app:open-logs': async () => {
      await options.openPath(requireLogsDir());
      return null;
    },
    'app:update-state': async () => requireUpdates().state(),
    'app:restart-to-update': async () => {
      if (!requireUpdates().restartToUpdate()) throw new BridgeError('unavailable', 'No downloaded update waits to be installed.');
      return null;
    },
    'connections:list': () => connectionList(),
    'connections:add': async (draft) => {
      const profile = await connections.add(draft);
      return { ...profile, hasKey: await vault.has(profile.id) };
    },
    'connections:update': async ({ connectionId, ...draft }) => {
      const before = requireProfile(connectionId);
      const profile = await connections.update(connectionId, draft);
      // A key belongs to the server it was entered for: a new origin is another server, which must not get it.
      if (keyOriginOf(profile) !== keyOriginOf(before)) {
        await vault.clear(connectionId);
        announceConnections();
      }
      return { ...profile, hasKey: await vault.has(profile.id) };
    },
    'connections:remove': async ({ connectionId }) => {
      await connections.remove(connectionId);
      await vault.clear(connectionId);
      const removed = clients.get(connectionId);
      clients.delete(connectionId);
      await removed?.client.close();
      // Drop folders and passport folders of the connection stay (the user decides), showing why they no longer work.
      services.dropFolders?.connectionsChanged();
      void services.passports?.checkNow();
      return null;
    },
    'connections:activate': async ({ connectionId }) => {
      await connections.activate(connectionId);
      return null;
    },
    'connections:test': ({ connectionId }) => testConnection(connectionId),
    'connections:test-draft': testDraft,
    'vault:status': () => vault.status(),
    'vault:has-key': ({ connectionId }) => vault.has(connectionId),
    'vault:set-key': async ({ connectionId, key, allowInsecureStorage }) => {
      const profile = requireProfile(connectionId);
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be replaced.');
      }
      await vault.set(connectionId, keyOriginOf(profile), key, { allowInsecureStorage: allowInsecureStorage === true });
      announceConnections();
      return null;
    },
    'vault:clear-key': async ({ connectionId }) => {
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be removed.');
      }
      await vault.clear(connectionId);
      announceConnections();
      return null;
    },
    'api:request': request,
    'api:upload-image': uploadImage,
    'local:status': async () => local.status(),
    'local:restart': async () => {
      try {
        await local.restart();
      } catch (error) {
        log('Restarting the Local workspace server failed.', error);
      }
      return local.status();
    },
    'local:migrate': migrateLocal,
    'shell:open-external': async ({ url }) => {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new BridgeError('invalid-request', 'Only http and https addresses are opened.');
      }
      await options.openExternal(parsed.toString()); // eng-disable OPEN_EXTERNAL_JS_CHECK (only http(s), checked above)
      return null;
    },
    'dialog:choose-folder': async ({ title }) => {
      if (options.chooseFolder === undefined) {
        throw new BridgeError('unavailable', 'There is no folder dialog in the browser; type the folder’s full path instead.');
      }
      return options.chooseFolder(title);
    },
    'dropfolders:list': async () => requireDropFolders().list(),
    'dropfolders:add': async (draft) => {
      requireProfile(draft.connectionId);
      await refuseOverlap(draft.folder, undefined);
      return requireDropFolders().add(draft);
    },
    'dropfolders:update': async ({ mappingId, ...changes }) => requireDropFolders().update(mappingId, changes),
    'dropfolders:remove': async ({ mappingId }) => {
      await requireDropFolders().remove(mappingId);
      return null;
    },
    'dropfolders:pause': async ({ mappingId }) => requireDropFolders().pause(mappingId),
    'dropfolders:resume': async ({ mappingId }) => requireDropFolders().resume(mappingId),
    'dropfolders:files': async ({ mappingId }) => requireDropFolders().files(mappingId),
    'dropfolders:retry': async ({ mappingId, path: relativePath }) => {
      await requireDropFolders().retry(mappingId, relativePath);
      return null;
    },
    'dropfolders:rescan': async ({ mappingId }) => {
      await requireDropFolders().rescan(mappingId);
      return null;
    },
    'dropfolders:open-folder': async ({ mappingId }) => {
      const mapping = requireDropFolders().list().find((each) => each.id === mappingId);
      if (mapping === undefined) throw new BridgeError('not-found', 'This drop folder no longer exists.');
      await openOnDisk(mapping.folder, `The folder ${mapping.folder} cannot be found now (a network drive that is away?).`);
      return null;
    },
    'passports:targets': async () => requirePassports().targets(),
    'passports:add-target': async (draft) => {
      requireProfile(draft.connectionId);
      await refuseOverlap(undefined, draft.folder);
      return requirePassports().addTarget(draft);
    },
    'passports:update-target': async ({ targetId, ...changes }) => {
      if (changes.folder !== undefined) await refuseOverlap(undefined, changes.folder);
      return requirePassports().updateTarget(targetId, changes);
    },
    'passports:remove-target': async ({ targetId }) => {
      await requirePassports().removeTarget(targetId);
      return null;
    },
    'passports:request': ({ targetId, ...requestOptions }) => requirePassports().request(targetId, requestOptions),
    'passports:history': async ({ targetId }) => requirePassports().history(targetId),
    'passports:retry': ({ entryId }) => requirePassports().retry(entryId),
    'passports:open-file': async ({ entryId }) => {
      const entry = requirePassports().history().find((each) => each.id === entryId);
      if (entry === undefined) throw new BridgeError('not-found', 'This passport is no longer in the history.');
      if (entry.state !== 'downloaded' || entry.filePath === null) throw new BridgeError('conflict', 'This passport has not been saved yet.');
      await openOnDisk(entry.filePath, `The passport file ${entry.filePath} was moved or deleted.`);
      return null;
    },
    'network:proxy': async () => requireProxy().choice(),
    'network:set-proxy': (choice) => requireProxy().choose(choice),
    'network:test-proxy': ({ connectionId }) => testProxy(connectionId),
    ...uploadHandlers({
      uploads: requireUploads,
      requireProfile,
      clientOf,
      chooseFiles: options.chooseFiles,
      chooseSaveTarget: options.chooseSaveTarget,
    }),
  };

  return {
    handlers,
    onEvent(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    status() {
      let queued = 0;
      let running = 0;
      for (const each of activity.values()) {
        queued += each.queued;
        running += each.running;
      }
      return {
        local: local.status(),
        queued,
        running,
        dropFolders: services.dropFolders?.list().length ?? 0,
        passportFolders: services.passports?.targets().length ?? 0,
        ...uploadCounts(),
      };
    },
    async openFiles(paths) {
      const uploads = requireUploads();
      const chosen: ChosenFiles = [];
      // One at a time: a file the server would not take (too large, a name it refuses) is said, and the rest go on.
      for (const filePath of paths) {
        try {
          chosen.push(...(await uploads.registerChoices([filePath])));
        } catch (error) {
          emitNotice({ kind: 'error', title: `${path.basename(filePath)} cannot be uploaded`, message: error instanceof Error ? error.message : String(error) });
        }
      }
      if (chosen.length === 0) return;
      openedFiles = [...openedFiles, ...chosen];
      emit('app:files-opened', { count: openedFiles.length });
    },
    registerDroppedFiles(paths) {
      return requireUploads().registerChoices(paths);
    },
    async provision(baseUrl, key) {
      const profile = await remoteConnectionTo(baseUrl);
      await vault.set(profile.id, keyOriginOf(profile), key);
      await connections.activate(profile.id);
      announceConnections();
      return { ...profile, hasKey: true };
    },
    async close() {
      // The services first: they stop their uploads and downloads cleanly while the clients still run.
      await Promise.all([services.dropFolders?.close(), services.passports?.close(), services.uploads?.close()]);
      await Promise.all([...clients.values()].map(({ client }) => client.close()));
      await local.stop();
    },
  };
}
