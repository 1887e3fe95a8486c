/**
 * The shapes of uploads the user starts in the app (a model, a spreadsheet or a document added on a building or
 * portfolio page) that cross the Bridge. The host runs them through the connection's queued client and keeps them in a
 * ledger that survives a restart, so an upload chosen while the server is unreachable waits and starts once it is back.
 * Plain JSON throughout, but for a spool chunk's bytes (a Uint8Array: Electron's IPC clones it, browser mode sends it as
 * a binary frame); the upload service (electron/uploads/) speaks them too.
 */
import { Type, type Static } from 'typebox';
import { Uuid } from './api/schema-kit';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** A file name as the server takes it: a name, never a path. */
export const UploadFileName = Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\]+$' });

/** The largest file an upload takes (the server's limit, decisions §11). */
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

/** Why a file larger than `MAX_UPLOAD_BYTES` is not uploaded, told before any of it is read. */
export function tooLargeToUpload(fileName: string): string {
  return `${fileName} is larger than ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB, the most the server takes.`;
}

/** Bytes the page sends per spool chunk. */
export const SPOOL_CHUNK_BYTES = 1024 * 1024;

/**
 * Chunks of one spool the page may send before the answer to the first of them: the host takes them in order, so the
 * page need not wait for each answer; a chunk beyond these is refused (`conflict`).
 */
export const SPOOL_CHUNKS_IN_FLIGHT = 8;

/**
 * Where an upload goes:
 * - `building-file`: a building's file of `fileType` 0 (Source: `.ifc`, `.xlsx`, `.csv`) or 1 (Information: documents and
 *   images), a new one, or a new version of the source file `replaceFileId` (its content is replaced and it is processed
 *   again);
 * - `portfolio-file`: a new information file of a portfolio.
 */
export const UploadTarget = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('building-file'),
      buildingId: Uuid(),
      fileType: Type.Union([Type.Literal(0), Type.Literal(1)]),
      replaceFileId: Type.Optional(Uuid()),
      tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('portfolio-file'), portfolioId: Uuid() }, { additionalProperties: false }),
]);
/** Where an upload goes. */
export type UploadTarget = Static<typeof UploadTarget>;

/**
 * Where an upload's bytes come from:
 * - `chosen`: a file the host's own file dialog handed out (`dialog:choose-files`); the host reads it from disk.
 * - `spool`: bytes the page sends in chunks (`uploads:write-spool`), for files dropped or picked in the page; the host
 *   keeps them in a spool file of its own until the upload is done, and starts sending while they still arrive.
 */
export const UploadSource = Type.Union([
  Type.Object({ kind: Type.Literal('chosen'), choiceId: Id }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('spool'), spoolId: Id }, { additionalProperties: false }),
]);
/** Where an upload's bytes come from. */
export type UploadSource = Static<typeof UploadSource>;

/**
 * Where an upload is:
 * - `waiting`: queued, or the server is unreachable: it starts by itself once it can (`problem` says why it waits);
 * - `creating`: the file is being created on the server (a new file);
 * - `sending`: the bytes are on their way;
 * - `done`: the server took the file; following its processing is the building page's;
 * - `failed`: the server refused it or its bytes are gone (`problem` says why; Retry where it can be);
 * - `cancelled`: the user stopped it.
 */
export const UploadState = Type.Enum(['waiting', 'creating', 'sending', 'done', 'failed', 'cancelled']);
/** Where an upload is. */
export type UploadState = Static<typeof UploadState>;

/** Why an upload waits or failed, in words for the user (no operation names or ids), with a code to switch on. */
export const UploadProblem = Type.Object(
  {
    code: Type.Enum(['offline', 'refused', 'source-gone', 'too-large', 'no-key', 'internal']),
    message: Type.String(),
  },
  { additionalProperties: false },
);
/** Why an upload waits or failed. */
export type UploadProblem = Static<typeof UploadProblem>;

/** One upload as the ledger keeps it and the screens show it. */
export const UploadEntry = Type.Object(
  {
    id: Id,
    connectionId: Id,
    target: UploadTarget,
    fileName: UploadFileName,
    /** Bytes in all. */
    size: Type.Integer({ minimum: 0 }),
    state: UploadState,
    /** The file on the server once it exists (a building file or a portfolio file); null before. */
    remoteFileId: Type.Union([Uuid(), Type.Null()]),
    /** Bytes the server has taken so far in this attempt. */
    sentBytes: Type.Integer({ minimum: 0 }),
    /** Over the last seconds of sending; null when not sending. */
    bytesPerSecond: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    /** At that rate; null when not sending or not known yet. */
    secondsLeft: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    problem: Type.Union([UploadProblem, Type.Null()]),
    /** ISO 8601. */
    createdAt: Type.String(),
    updatedAt: Type.String(),
    /** When the server took the file; null before. */
    doneAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
/** One upload. */
export type UploadEntry = Static<typeof UploadEntry>;

/** A new upload. `size` must be the source's size: the host checks it against the file or the spool's end. */
export const UploadStart = Type.Object(
  { connectionId: Id, target: UploadTarget, source: UploadSource, fileName: UploadFileName, size: Type.Integer({ minimum: 0, maximum: MAX_UPLOAD_BYTES }) },
  { additionalProperties: false },
);
/** A new upload. */
export type UploadStart = Static<typeof UploadStart>;

/** A spool for bytes the page will send: their name and how many there will be. */
export const SpoolOpen = Type.Object(
  { fileName: UploadFileName, size: Type.Integer({ minimum: 0, maximum: MAX_UPLOAD_BYTES }) },
  { additionalProperties: false },
);

/** The spool the bytes go to. */
export const SpoolRef = Type.Object({ spoolId: Id }, { additionalProperties: false });

/** Bytes, at least one and at most SPOOL_CHUNK_BYTES of them. */
const ChunkBytes = Type.Refine(
  Type.Unsafe<Uint8Array>({ description: 'Bytes (a Uint8Array).' }),
  (value: unknown) => value instanceof Uint8Array && value.byteLength > 0 && value.byteLength <= SPOOL_CHUNK_BYTES,
  () => `must be between 1 and ${SPOOL_CHUNK_BYTES} bytes`,
);

/** The next chunk of a spool's bytes at its offset (chunks come in order). */
export const SpoolChunk = Type.Object({ spoolId: Id, offset: Type.Integer({ minimum: 0 }), data: ChunkBytes }, { additionalProperties: false });

/** An upload by its id. */
export const UploadRef = Type.Object({ uploadId: Id }, { additionalProperties: false });

/** Which uploads to list: one connection's, or all. */
export const UploadQuery = Type.Object({ connectionId: Type.Optional(Id) }, { additionalProperties: false });

/** What the file dialog offers: models and spreadsheets, documents and images, or both. */
export const ChooseFilesRequest = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 200 })),
    kinds: Type.Union([Type.Literal('source'), Type.Literal('information'), Type.Literal('any')]),
    multiple: Type.Boolean(),
  },
  { additionalProperties: false },
);

/**
 * Files the user chose in the host's dialog: each with the id an upload names it by (`UploadSource` `chosen`), its
 * name and size. The host keeps the paths; the page never sees them. Empty when the dialog was cancelled.
 */
export const ChosenFiles = Type.Array(
  Type.Object({ choiceId: Id, fileName: UploadFileName, size: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
);
/** Files the user chose. */
export type ChosenFiles = Static<typeof ChosenFiles>;

/** A building file's content, to save where the user picks in the host's save dialog (Electron). */
export const FileDownloadRequest = Type.Object(
  { connectionId: Id, buildingId: Uuid(), fileId: Uuid(), fileName: UploadFileName },
  { additionalProperties: false },
);

/** Where the download went, or null when the save dialog was cancelled. */
export const FileDownloadResult = Type.Union([
  Type.Object({ path: Type.String(), bytes: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  Type.Null(),
]);
