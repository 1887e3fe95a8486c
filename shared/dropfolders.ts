/**
 * The shapes of drop folders that cross the Bridge: a mapping (folder → building or portfolio, with its options), the
 * ledger's view of one file, and the events the service sends. Plain JSON throughout, so a Bridge channel carries them
 * as they are and validates them with these schemas; the drop folder service (electron/dropfolders/) speaks them too.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Uuid } from './api/schema-kit';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** Extensions of source files the server imports (decisions §11: IFC models and spreadsheets). */
export const SOURCE_FILE_TYPES = ['.ifc', '.xlsx', '.csv'] as const;

/** Extensions uploaded as information files when a mapping takes them: documents and images. */
export const INFORMATION_FILE_TYPES = ['.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.tif', '.tiff'] as const;

/** A source file extension a mapping can take. */
export const SourceFileType = Type.Union([Type.Literal('.ifc'), Type.Literal('.xlsx'), Type.Literal('.csv')]);
/** A source file extension. */
export type SourceFileType = Static<typeof SourceFileType>;

/** Where a folder's files go: one building, or a portfolio whose buildings are the folder's subfolders. */
export const DropFolderTarget = Type.Union([
  Type.Object({ kind: Type.Literal('building'), buildingId: Uuid() }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('portfolio'), portfolioId: Uuid() }, { additionalProperties: false }),
]);
/** Where a folder's files go. */
export type DropFolderTarget = Static<typeof DropFolderTarget>;

/** What a mapping does with its files, and how it watches. */
export const DropFolderSettings = Type.Object(
  {
    /** A source file is activated once it is Mapped. */
    activate: Type.Boolean(),
    fileTypes: Type.Array(SourceFileType, { uniqueItems: true, maxItems: SOURCE_FILE_TYPES.length }),
    /** PDFs and images are uploaded as information files. */
    informationFiles: Type.Boolean(),
    /** Polls the folder instead of listening to the OS (network drives, where change events do not arrive). */
    polling: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** What a mapping does with its files. */
export type DropFolderSettings = Static<typeof DropFolderSettings>;

/** A watched folder and where its files go. */
export const DropFolderMapping = Type.Object(
  {
    id: Id,
    /** An absolute path. */
    folder: Type.String({ minLength: 1, maxLength: 4096 }),
    target: DropFolderTarget,
    connectionId: Id,
    ...DropFolderSettings.properties,
    paused: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** A watched folder and where its files go. */
export type DropFolderMapping = Static<typeof DropFolderMapping>;

/** A new mapping; settings left out take their defaults (all source types, no information files, no activation). */
export const DropFolderDraft = Type.Object(
  {
    folder: DropFolderMapping.properties.folder,
    target: DropFolderTarget,
    connectionId: Id,
    ...Type.Partial(DropFolderSettings).properties,
  },
  { additionalProperties: false },
);
/** A new mapping. */
export type DropFolderDraft = Static<typeof DropFolderDraft>;

/** Changed settings of a mapping. */
export const DropFolderChanges = Type.Partial(DropFolderSettings, { additionalProperties: false });
/** Changed settings of a mapping. */
export type DropFolderChanges = Static<typeof DropFolderChanges>;

/** How a mapping's watching goes. */
export const WatchState = Type.Union([
  Type.Literal('watching'),
  Type.Literal('paused'),
  /** The folder cannot be read (a network drive that is away); it is tried again at every rescan. */
  Type.Literal('unavailable'),
]);
/** How a mapping's watching goes. */
export type WatchState = Static<typeof WatchState>;

/** A mapping with how its watching goes. */
export const DropFolderStatus = Type.Object(
  { ...DropFolderMapping.properties, watch: WatchState, problem: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
/** A mapping with how its watching goes. */
export type DropFolderStatus = Static<typeof DropFolderStatus>;

/**
 * Where a file is on its way: `detected` (waiting until it is complete) → `hashing` → `uploading` → `processing`
 * (the server imports it) → `mapped`; an information file ends `stored` after its upload; `failed` keeps the reason.
 */
export const LedgerState = Type.Enum(['detected', 'hashing', 'uploading', 'processing', 'mapped', 'stored', 'failed']);
/** Where a file is on its way. */
export type LedgerState = Static<typeof LedgerState>;

/** How a file is uploaded: as a source file (imported) or an information file (stored). */
export const DropFileKind = Type.Union([Type.Literal('source'), Type.Literal('information')]);
/** How a file is uploaded. */
export type DropFileKind = Static<typeof DropFileKind>;

function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** How far an upload or the server's processing is. */
export const DropFileProgress = Type.Object(
  {
    step: Type.Union([Type.Literal('upload'), Type.Literal('processing')]),
    /** Bytes sent, or elements processed. */
    done: Type.Integer({ minimum: 0 }),
    total: Nullable(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
/** How far an upload or the server's processing is. */
export type DropFileProgress = Static<typeof DropFileProgress>;

/** One file of a drop folder as the ledger knows it. */
export const DropFolderFile = Type.Object(
  {
    mappingId: Id,
    /** Relative to the mapping's folder, `/`-separated. */
    path: Type.String({ minLength: 1 }),
    kind: DropFileKind,
    state: LedgerState,
    size: Type.Integer({ minimum: 0 }),
    mtimeMs: Type.Number(),
    /** Of the content last hashed. */
    sha256: Nullable(Type.String()),
    buildingId: Nullable(Type.String()),
    fileId: Nullable(Type.String()),
    /** Upload attempts of the current content. */
    attempts: Type.Integer({ minimum: 0 }),
    lastError: Nullable(Type.String()),
    /** The remote file's BuildingFileStatuses value and statusMessage, as last read. */
    remoteStatus: Nullable(Type.Integer()),
    remoteMessage: Nullable(Type.String()),
    progress: Nullable(DropFileProgress),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
/** One file of a drop folder. */
export type DropFolderFile = Static<typeof DropFolderFile>;

/** What the service tells its host: a file changed state, an upload moved, a file's work ended, the folders changed. */
export const DropFolderEvent = Type.Union([
  Type.Object(
    { kind: Type.Literal('file'), file: DropFolderFile, detail: Nullable(Type.String()) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('file-removed'), mappingId: Id, path: Type.String() },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('progress'), mappingId: Id, path: Type.String(), progress: DropFileProgress },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('notice'),
      mappingId: Id,
      path: Type.String(),
      outcome: Type.Union([Type.Literal('mapped'), Type.Literal('stored'), Type.Literal('failed')]),
      /** A line for a notification's title, and the server's message or the reason. */
      title: Type.String(),
      message: Type.String(),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('folders'), folders: Type.Array(DropFolderStatus) }, { additionalProperties: false }),
]);
/** What the service tells its host. */
export type DropFolderEvent = Static<typeof DropFolderEvent>;
