/**
 * The Bridge contract between the renderer and its host (Electron main, or the browser host over a WebSocket):
 * every channel with the TypeBox schemas of its request and its value, and every event the host sends.
 * Both hosts validate requests against these schemas because the renderer is the less trusted side; the renderer
 * gets a `Bridge` built from the same table, so a channel exists once, with one name, on both sides.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AccountTypeSchema } from './api/enums';
import { API_VERSIONS } from './api/versions';
import { Problem } from './api/schemas';
import { MigrationProgress, MigrationSummary } from './workspace-migration';
import { ProxyChoice } from './network';
import { DropFolderDraft, DropFolderEvent, DropFolderFile, DropFolderSettings, DropFolderStatus } from './dropfolders';
import {
  ChooseFilesRequest,
  ChosenFiles,
  FileDownloadRequest,
  FileDownloadResult,
  SpoolChunk,
  SpoolOpen,
  SpoolRef,
  UploadEntry,
  UploadQuery,
  UploadRef,
  UploadStart,
} from './uploads';
import {
  PassportEntry,
  PassportEvent,
  PassportRequestOptions,
  PassportTarget,
  PassportTargetDraft,
  PassportTargetSettings,
} from './passports';

// --- results --------------------------------------------------------------------------------------------------------

/** Why a bridge call failed, as a code the renderer can switch over. */
export const IpcErrorCode = Type.Union([
  Type.Literal('invalid-request'),
  Type.Literal('untrusted-sender'),
  Type.Literal('not-found'),
  Type.Literal('conflict'),
  Type.Literal('insecure-storage'),
  Type.Literal('storage-failed'),
  Type.Literal('unavailable'),
  Type.Literal('internal'),
]);
/** Why a bridge call failed. */
export type IpcErrorCode = Static<typeof IpcErrorCode>;

/** A failed bridge call: a code and a message meant for the user. */
export const IpcError = Type.Object({ code: IpcErrorCode, message: Type.String() });
/** A failed bridge call. */
export type IpcError = Static<typeof IpcError>;

/** The outcome of every bridge call. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** A bridge call that failed for a reason the host can name; hosts turn it into `{ ok: false, error }`. */
export class BridgeError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

// --- shapes -----------------------------------------------------------------------------------------------------------

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Nothing = Type.Null();
const NoInput = Type.Object({}, { additionalProperties: false });

/** The API versions a connection can speak. */
export const ConnectionApiVersion = Type.Enum(API_VERSIONS);

/** `local`: the embedded server the app runs itself; `remote`: any server that speaks the spec. */
export const ConnectionKind = Type.Union([Type.Literal('local'), Type.Literal('remote')]);
/** Where a connection's server runs. */
export type ConnectionKind = Static<typeof ConnectionKind>;

/** A server's address: http(s) only, no credentials, no query or fragment. */
export const BaseUrl = Type.String({ minLength: 8, maxLength: 2000, pattern: '^https?://[^\\s?#@]+$' });

/** A connection profile as the renderer sees it: never its key, only whether one is stored. */
export const Connection = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    kind: ConnectionKind,
    hasKey: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** A connection profile. */
export type Connection = Static<typeof Connection>;

/** All connections and the one the app works with. */
export const ConnectionList = Type.Object(
  { connections: Type.Array(Connection), activeId: Type.Union([Id, Type.Null()]) },
  { additionalProperties: false },
);
/** All connections and the active one. */
export type ConnectionList = Static<typeof ConnectionList>;

/** What the user fills in to add a connection to a remote server. */
/** The user's explicit consent to plain http to another computer (`isInsecureAddress`); refused without it. */
const PlainHttpConfirmed = Type.Optional(Type.Boolean());

export const ConnectionDraft = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    plainHttpConfirmed: PlainHttpConfirmed,
  },
  { additionalProperties: false },
);
/** A new connection. */
export type ConnectionDraft = Static<typeof ConnectionDraft>;

const ConnectionRef = Type.Object({ connectionId: Id }, { additionalProperties: false });

/** A changed connection: all of its editable fields. */
export const ConnectionUpdate = Type.Object(
  { connectionId: Id, ...ConnectionDraft.properties },
  { additionalProperties: false },
);

/** A connection not saved yet, with the key typed for it: tested before it is added. */
export const ConnectionDraftTest = Type.Object(
  {
    baseUrl: BaseUrl,
    apiVersion: ConnectionApiVersion,
    plainHttpConfirmed: PlainHttpConfirmed,
    key: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' }),
  },
  { additionalProperties: false },
);
/** A connection not saved yet, with its key. */
export type ConnectionDraftTest = Static<typeof ConnectionDraftTest>;

/** What "Test connection" found: the account the key belongs to, as `/accounts/current` answers. */
export const ConnectionTestResult = Type.Union([
  Type.Object(
    { kind: Type.Literal('ok'), accountName: Type.String(), accountType: AccountTypeSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('problem'), status: Type.Integer(), title: Type.String(), detail: Type.String() },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('network'), message: Type.String() }, { additionalProperties: false }),
]);
/** What "Test connection" found. */
export type ConnectionTestResult = Static<typeof ConnectionTestResult>;

/** What a proxy test found: the proxy Chromium picked for a connection's address, and how its server answered through it. */
export const ProxyTestResult = Type.Object(
  {
    /** Chromium's answer for the address: `DIRECT`, or e.g. `PROXY proxy.example.com:8080`. */
    proxy: Type.String(),
    server: ConnectionTestResult,
  },
  { additionalProperties: false },
);
/** What a proxy test found. */
export type ProxyTestResult = Static<typeof ProxyTestResult>;

/**
 * How keys are protected at rest. `os-encryption`: Electron safeStorage (DPAPI, Keychain, libsecret/kwallet);
 * `os-keyring`: a vault key kept in the OS keyring; `key-file`: a vault key in a file only this user can read;
 * `basic-text`: Linux without a keyring, where safeStorage only obfuscates; `memory`: nothing is stored (tests).
 */
export const KeyProtection = Type.Union([
  Type.Literal('os-encryption'),
  Type.Literal('os-keyring'),
  Type.Literal('key-file'),
  Type.Literal('basic-text'),
  Type.Literal('memory'),
]);
/** How keys are protected at rest. */
export type KeyProtection = Static<typeof KeyProtection>;

/** The vault's protection, and whether storing a key needs the user's consent first. */
export const VaultStatus = Type.Object(
  { protection: KeyProtection, needsConsent: Type.Boolean() },
  { additionalProperties: false },
);
/** The vault's protection. */
export type VaultStatus = Static<typeof VaultStatus>;

/** Stores a connection's key; `allowInsecureStorage` is the user's consent when the vault needs one. */
export const SetKeyRequest = Type.Object(
  {
    connectionId: Id,
    key: Type.String({ minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$' }),
    allowInsecureStorage: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The state of the embedded server of the Local workspace. */
export const LocalWorkspaceStatus = Type.Object(
  {
    state: Type.Union([
      Type.Literal('starting'),
      Type.Literal('running'),
      Type.Literal('restarting'),
      Type.Literal('stopped'),
      Type.Literal('failed'),
    ]),
    message: Type.Optional(Type.String()),
    /** While `restarting`: the wait before the next start, and which restart in a row it is (1, 2, …). */
    restartInMs: Type.Optional(Type.Integer({ minimum: 0 })),
    attempt: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
/** The state of the embedded server. */
export type LocalWorkspaceStatus = Static<typeof LocalWorkspaceStatus>;

/** Where to take the Local workspace: a team server's PostgreSQL database and blob store, and optionally its address. */
export const LocalMigrationRequest = Type.Object(
  {
    databaseUrl: Type.String({ minLength: 1, maxLength: 2048, pattern: '^postgres(ql)?://' }),
    /** `s3://bucket?…`, or a folder the team server reads too. */
    blobs: Type.String({ minLength: 1, maxLength: 2048 }),
    /** The team server's API address: a connection to it is added, holding the Local workspace's key. */
    teamServerUrl: Type.Optional(Type.String({ maxLength: 2048, pattern: '^https?://' })),
    /** The user's consent to keep that key where the OS offers no encryption (as for `vault:set-key`). */
    allowInsecureStorage: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
/** Where to take the Local workspace. */
export type LocalMigrationRequest = Static<typeof LocalMigrationRequest>;

/** What a migration copied, and the connection to the team server it added (null when no address was given). */
export const LocalMigrationResult = Type.Object(
  { summary: MigrationSummary, connection: Type.Union([Connection, Type.Null()]) },
  { additionalProperties: false },
);
/** What a migration copied. */
export type LocalMigrationResult = Static<typeof LocalMigrationResult>;

/** Which host runs the renderer, and facts the renderer shows in its About and settings. */
export const AppInfo = Type.Object(
  {
    version: Type.String(),
    host: Type.Union([Type.Literal('electron'), Type.Literal('browser')]),
    platform: Type.String(),
    userDataDir: Type.String(),
  },
  { additionalProperties: false },
);
/** Which host runs the renderer. */
export type AppInfo = Static<typeof AppInfo>;

/** Where Export diagnostics saved its zip; null when the user cancelled the save dialog. */
export const DiagnosticsExport = Type.Object({ path: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
/** Where Export diagnostics saved its zip. */
export type DiagnosticsExport = Static<typeof DiagnosticsExport>;

/** Where the app's update is: none looked for or none found, being looked for, downloading, ready to install, failed. */
export const UpdateState = Type.Union([
  Type.Object({ state: Type.Literal('idle') }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('checking') }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('downloading'), percent: Type.Number({ minimum: 0, maximum: 100 }) }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('ready'), version: Type.String() }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('failed'), message: Type.String() }, { additionalProperties: false }),
]);
/** Where the app's update is. */
export type UpdateState = Static<typeof UpdateState>;

/** Whether the app starts when the user logs in (Electron only: browser mode answers `unavailable`). */
export const StartAtLoginSetting = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
/** Whether the app starts when the user logs in. */
export type StartAtLoginSetting = Static<typeof StartAtLoginSetting>;

/** Files were opened with the app (a launch, a second launch, macOS open-file): `app:take-opened-files` hands them out. */
export const FilesOpened = Type.Object({ count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

/**
 * A JSON call of the API through the host's queued client, which adds the connection's key. Binary uploads and
 * downloads do not pass this channel: the host streams them from and to disk itself (`uploads:*`, `files:download`;
 * a small image goes through `api:upload-image`).
 */
export const ApiRequest = Type.Object(
  {
    connectionId: Id,
    operationId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9]+$' }),
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    query: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    body: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
/** A JSON call of the API. */
export type ApiRequest = Static<typeof ApiRequest>;

/** What a call got: an answer, a problem answer, or (after the host's retries) no usable answer at all. */
export const ApiAnswer = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('ok'),
      status: Type.Integer(),
      value: Type.Unknown(),
      location: Type.Union([Type.String(), Type.Null()]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('problem'), status: Type.Integer(), problem: Problem }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal('network'),
      reason: Type.Union([
        Type.Literal('unreachable'),
        Type.Literal('timeout'),
        Type.Literal('aborted'),
        Type.Literal('invalid-request'),
        Type.Literal('invalid-response'),
      ]),
      message: Type.String(),
    },
    { additionalProperties: false },
  ),
]);
/** What a call got. */
export type ApiAnswer = Static<typeof ApiAnswer>;

/** Largest image the bridge carries: the server's limit for a portfolio logo, 10 MiB. */
export const MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 ** 2;

/** The image types the API takes for building images and portfolio logos. */
export const ImageContentType = Type.Union([Type.Literal('image/png'), Type.Literal('image/jpeg')]);
/** An image type the API takes. */
export type ImageContentType = Static<typeof ImageContentType>;

/**
 * A small image for the API (a building's image, a portfolio's logo), its bytes as base64: the one binary upload that
 * passes the bridge, because it is small and comes from a file the user picked in the window, not from the host's disk.
 */
export const ImageUpload = Type.Object(
  {
    connectionId: Id,
    target: Type.Union([Type.Literal('building'), Type.Literal('portfolio')]),
    id: Type.String({ format: 'uuid' }),
    fileName: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\]+$' }),
    contentType: ImageContentType,
    data: Type.String({ minLength: 1, maxLength: Math.ceil(MAX_IMAGE_UPLOAD_BYTES / 3) * 4 }),
  },
  { additionalProperties: false },
);
/** A small image for the API. */
export type ImageUpload = Static<typeof ImageUpload>;

/** How busy a connection's queued client is, for the tray and the status bar. */
export const HttpActivity = Type.Object(
  { connectionId: Id, queued: Type.Integer({ minimum: 0 }), running: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
/** How busy a connection's queued client is. */
export type HttpActivity = Static<typeof HttpActivity>;

/** An http(s) address the user clicked, to open in the system browser. */
export const ExternalUrl = Type.Object(
  { url: Type.String({ maxLength: 2000, pattern: '^https?://' }) },
  { additionalProperties: false },
);

// --- drop folders, passports, notices ----------------------------------------------------------------------------------

const MappingRef = Type.Object({ mappingId: Id }, { additionalProperties: false });

/** Changed settings of a drop folder; what is left out stays. */
export const DropFolderUpdate = Type.Object(
  { mappingId: Id, ...Type.Partial(DropFolderSettings).properties },
  { additionalProperties: false },
);

/** A file of a drop folder, by its path relative to the folder (`/`-separated), as the ledger lists it. */
export const DropFolderFileRef = Type.Object(
  { mappingId: Id, path: Type.String({ minLength: 1, maxLength: 4096 }) },
  { additionalProperties: false },
);

/** One drop folder to walk now, or all of them. */
export const DropFolderRescan = Type.Object({ mappingId: Type.Optional(Id) }, { additionalProperties: false });

const TargetRef = Type.Object({ targetId: Id }, { additionalProperties: false });
const EntryRef = Type.Object({ entryId: Id }, { additionalProperties: false });

/** Changed settings of a passport folder; what is left out stays. */
export const PassportTargetUpdate = Type.Object(
  { targetId: Id, ...Type.Partial(PassportTargetSettings).properties },
  { additionalProperties: false },
);

/** Passports to make now for a target, in its formats and language unless the request says otherwise. */
export const PassportRequest = Type.Object(
  { targetId: Id, ...PassportRequestOptions.properties },
  { additionalProperties: false },
);

/** The passports of one target, or of all. */
export const PassportHistoryQuery = Type.Object({ targetId: Type.Optional(Id) }, { additionalProperties: false });

/** What the folder dialog shows as its title. */
export const ChooseFolderRequest = Type.Object(
  { title: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

/** The folder the user chose (an absolute path), or null when the dialog was cancelled. */
export const ChosenFolder = Type.Union([Type.String({ minLength: 1 }), Type.Null()]);

/** How a notice reads: work that ended well, news, or a failure the user should look at. */
export const NoticeKind = Type.Union([Type.Literal('success'), Type.Literal('info'), Type.Literal('error')]);
/** How a notice reads. */
export type NoticeKind = Static<typeof NoticeKind>;

/** Something the user should hear about while doing something else: a drop folder file mapped or failed, a passport saved. */
export const Notice = Type.Object(
  { kind: NoticeKind, title: Type.String(), message: Type.String() },
  { additionalProperties: false },
);
/** Something the user should hear about. */
export type Notice = Static<typeof Notice>;

// --- the contract -----------------------------------------------------------------------------------------------------

/** One request/response channel. */
export interface ChannelDefinition<Request extends TSchema = TSchema, Response extends TSchema = TSchema> {
  readonly request: Request;
  readonly response: Response;
  /**
   * Request fields that name a folder on the host's disk: the host refuses the call unless each one given is an
   * absolute path of an existing folder, before a handler sees it.
   */
  readonly folders: readonly string[];
}

function channel<Request extends TSchema, Response extends TSchema>(
  request: Request,
  response: Response,
  folders: readonly (keyof Static<Request> & string)[] = [],
): ChannelDefinition<Request, Response> {
  return { request, response, folders };
}

/** Every request/response channel, named `namespace:kebab-action`. */
export const ipcChannels = {
  'app:info': channel(NoInput, AppInfo),
  /** Saves the logs, versions and settings (never a key) as a zip where the user chooses (Electron). */
  'app:export-diagnostics': channel(NoInput, DiagnosticsExport),
  'app:open-logs': channel(NoInput, Nothing),
  /** The update's state now; `app:update-changed` tells each change (Electron: browser mode is updated with its checkout). */
  'app:update-state': channel(NoInput, UpdateState),
  /** Quits and installs the downloaded update. */
  'app:restart-to-update': channel(NoInput, Nothing),
  'app:start-at-login': channel(NoInput, StartAtLoginSetting),
  'app:set-start-at-login': channel(StartAtLoginSetting, StartAtLoginSetting),
  /** The files opened with the app since the last call, as chosen files to upload; each is handed out once. */
  'app:take-opened-files': channel(NoInput, ChosenFiles),
  'connections:list': channel(NoInput, ConnectionList),
  'connections:add': channel(ConnectionDraft, Connection),
  'connections:update': channel(ConnectionUpdate, Connection),
  'connections:remove': channel(ConnectionRef, Nothing),
  'connections:activate': channel(ConnectionRef, Nothing),
  'connections:test': channel(ConnectionRef, ConnectionTestResult),
  'connections:test-draft': channel(ConnectionDraftTest, ConnectionTestResult),
  'vault:status': channel(NoInput, VaultStatus),
  'vault:has-key': channel(ConnectionRef, Type.Boolean()),
  'vault:set-key': channel(SetKeyRequest, Nothing),
  'vault:clear-key': channel(ConnectionRef, Nothing),
  'api:request': channel(ApiRequest, ApiAnswer),
  'api:upload-image': channel(ImageUpload, ApiAnswer),
  'local:status': channel(NoInput, LocalWorkspaceStatus),
  'local:restart': channel(NoInput, LocalWorkspaceStatus),
  'local:migrate': channel(LocalMigrationRequest, LocalMigrationResult),
  'shell:open-external': channel(ExternalUrl, Nothing),
  'dialog:choose-folder': channel(ChooseFolderRequest, ChosenFolder),
  'dropfolders:list': channel(NoInput, Type.Array(DropFolderStatus)),
  'dropfolders:add': channel(DropFolderDraft, DropFolderStatus, ['folder']),
  'dropfolders:update': channel(DropFolderUpdate, DropFolderStatus),
  'dropfolders:remove': channel(MappingRef, Nothing),
  'dropfolders:pause': channel(MappingRef, DropFolderStatus),
  'dropfolders:resume': channel(MappingRef, DropFolderStatus),
  'dropfolders:files': channel(MappingRef, Type.Array(DropFolderFile)),
  'dropfolders:retry': channel(DropFolderFileRef, Nothing),
  'dropfolders:rescan': channel(DropFolderRescan, Nothing),
  'dropfolders:open-folder': channel(MappingRef, Nothing),
  'passports:targets': channel(NoInput, Type.Array(PassportTarget)),
  'passports:add-target': channel(PassportTargetDraft, PassportTarget, ['folder']),
  'passports:update-target': channel(PassportTargetUpdate, PassportTarget, ['folder']),
  'passports:remove-target': channel(TargetRef, Nothing),
  'passports:request': channel(PassportRequest, Type.Array(PassportEntry)),
  'passports:history': channel(PassportHistoryQuery, Type.Array(PassportEntry)),
  'passports:retry': channel(EntryRef, PassportEntry),
  'passports:open-file': channel(EntryRef, Nothing),
  'dialog:choose-files': channel(ChooseFilesRequest, ChosenFiles),
  'uploads:open-spool': channel(SpoolOpen, SpoolRef),
  'uploads:write-spool': channel(SpoolChunk, Type.Object({ written: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
  'uploads:start': channel(UploadStart, UploadEntry),
  'uploads:list': channel(UploadQuery, Type.Array(UploadEntry)),
  'uploads:cancel': channel(UploadRef, UploadEntry),
  'uploads:retry': channel(UploadRef, UploadEntry),
  'uploads:forget': channel(UploadRef, Nothing),
  'files:download': channel(FileDownloadRequest, FileDownloadResult),
  'network:proxy': channel(NoInput, ProxyChoice),
  'network:set-proxy': channel(ProxyChoice, ProxyChoice),
  'network:test-proxy': channel(ConnectionRef, ProxyTestResult),
} as const;

/** A channel's name. */
export type IpcChannel = keyof typeof ipcChannels;
/** What a channel takes. */
export type IpcRequest<C extends IpcChannel> = Static<(typeof ipcChannels)[C]['request']>;
/** What a channel answers. */
export type IpcValue<C extends IpcChannel> = Static<(typeof ipcChannels)[C]['response']>;

/** Every event the host sends the renderer, with its payload. */
export const ipcEvents = {
  'app:update-changed': UpdateState,
  'connections:changed': ConnectionList,
  'local:status-changed': LocalWorkspaceStatus,
  /** How far a migration of the Local workspace to a team server got. */
  'local:migration-progress': MigrationProgress,
  'http:activity': HttpActivity,
  /** Every change of the drop folders: a file's state or progress, a file's work ended, the folders themselves. */
  'dropfolders:changed': DropFolderEvent,
  /** The passport folders changed, or one passport moved on. */
  'passports:changed': PassportEvent,
  /** An upload started, moved on (progress at most a few times a second) or ended. */
  'uploads:changed': UploadEntry,
  /** Something to show the user in the app (Electron also shows it as a native notification). */
  notice: Notice,
  /** Files were opened with the app; the window asks which building they go to. */
  'app:files-opened': FilesOpened,
} as const;

/** An event's name. */
export type IpcEvent = keyof typeof ipcEvents;
/** An event's payload. */
export type IpcEventPayload<E extends IpcEvent> = Static<(typeof ipcEvents)[E]>;

/** The channel names, for hosts that register one handler each. */
export const IPC_CHANNELS = Object.keys(ipcChannels) as IpcChannel[];
/** The event names. */
export const IPC_EVENTS = Object.keys(ipcEvents) as IpcEvent[];

/** The single IPC channel events travel on in Electron; the event name is part of the message. */
export const IPC_EVENT_CHANNEL = 'bridge:event';

// --- the Bridge --------------------------------------------------------------------------------------------------------

type KebabToCamel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<KebabToCamel<Tail>>}` : S;
type Namespace<C extends string> = C extends `${infer N}:${string}` ? N : never;
type Action<C extends string> = C extends `${string}:${infer A}` ? KebabToCamel<A> : never;

/** The renderer's view of the host: `bridge.connections.list()`, `bridge.vault.hasKey({ connectionId })`, `bridge.on(…)`. */
export type Bridge = {
  [N in Namespace<IpcChannel>]: {
    [C in IpcChannel as Namespace<C> extends N ? Action<C> : never]: object extends IpcRequest<C>
      ? (request?: IpcRequest<C>) => Promise<IpcResult<IpcValue<C>>>
      : (request: IpcRequest<C>) => Promise<IpcResult<IpcValue<C>>>;
  };
} & {
  /** Listens to a host event; returns the function that stops listening. */
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
};

/** How a host transport sends a call and delivers events; the Bridge is built on top of it. */
export interface BridgeTransport {
  invoke(channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>>;
  subscribe(listener: (event: IpcEvent, payload: unknown) => void): () => void;
}

function kebabToCamel(text: string): string {
  return text.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Splits `namespace:kebab-action` into the Bridge's namespace and method name. */
export function bridgeMethodOf(channel: IpcChannel): { namespace: string; method: string } {
  const [namespace = '', action = ''] = channel.split(':');
  return { namespace, method: kebabToCamel(action) };
}

/** Builds the named Bridge from a transport: one method per channel of the contract, and `on` for events. */
export function createBridge(transport: BridgeTransport): Bridge {
  const bridge: Record<string, unknown> = {};
  for (const channelName of IPC_CHANNELS) {
    const { namespace, method } = bridgeMethodOf(channelName);
    const methods = (bridge[namespace] ??= {}) as Record<string, unknown>;
    methods[method] = (request: unknown = {}) => transport.invoke(channelName, request);
  }
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  let unsubscribe: (() => void) | undefined;
  bridge['on'] = (event: IpcEvent, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    unsubscribe ??= transport.subscribe((name, payload) => {
      for (const each of listeners.get(name) ?? []) each(payload);
    });
    return () => {
      set.delete(listener);
    };
  };
  // The methods are built from the same table the type is computed from, so the shapes agree.
  return bridge as Bridge;
}

// --- validation -------------------------------------------------------------------------------------------------------

/** Whether a name is a channel of the contract. */
export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && Object.hasOwn(ipcChannels, name);
}

/** Checks a request against its channel's schema; returns the first problem as a sentence, or undefined when valid. */
export function requestProblem(channelName: IpcChannel, request: unknown): string | undefined {
  const schema = ipcChannels[channelName].request;
  if (Value.Check(schema, request)) return undefined;
  const [first] = Value.Errors(schema, request);
  if (first === undefined) return `The request of ${channelName} is not valid.`;
  const where = first.instancePath === '' ? 'the request' : first.instancePath;
  return `The request of ${channelName} is not valid: ${where} ${first.message}.`;
}

/** Checks a value against its channel's response schema (hosts check what they send, tests check what they get). */
export function isChannelValue<C extends IpcChannel>(channelName: C, value: unknown): value is IpcValue<C> {
  return Value.Check(ipcChannels[channelName].response, value);
}

/** Turns what a handler threw into the error half of a result; unknown errors never leak their internals. */
export function ipcErrorOf(error: unknown): IpcError {
  if (error instanceof BridgeError) return { code: error.code, message: error.message };
  return { code: 'internal', message: 'Something went wrong in the app. The details are in its log.' };
}
