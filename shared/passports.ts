/**
 * The shapes of passports that cross the Bridge: what the user sets up (targets), what happened to each passport
 * (the history) and the events. Plain JSON, so a Bridge channel hands them to the renderer as they are; the passport
 * service (electron/passports/) speaks them too.
 */
import { Type, type Static } from 'typebox';
import { PASSPORT_LANGUAGES } from './api/routes';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Timestamp = Type.String({ format: 'date-time' });
const Message = Type.String({ maxLength: 4000 });

/** A language passports are generated in. */
export const PassportLanguage = Type.Enum(PASSPORT_LANGUAGES);
/** A passport language. */
export type PassportLanguage = Static<typeof PassportLanguage>;

/** A passport's file format: the PDF one (building and portfolio) or the Excel one (building only). */
export const PassportFormat = Type.Union([Type.Literal('pdf'), Type.Literal('xlsx')]);
/** A passport format. */
export type PassportFormat = Static<typeof PassportFormat>;

/** What passports are about: one building, or a portfolio (its PDF passport covers all its buildings). */
export const PassportSubject = Type.Object(
  { kind: Type.Union([Type.Literal('building'), Type.Literal('portfolio')]), id: Id },
  { additionalProperties: false },
);
/** A building or a portfolio. */
export type PassportSubject = Static<typeof PassportSubject>;

/** What the user sets up for a building or portfolio: where its passports go, which formats, in which language. */
export const PassportTargetSettings = Type.Object(
  {
    /** An absolute path; made when missing. */
    folder: Type.String({ minLength: 1, maxLength: 4000 }),
    formats: Type.Array(PassportFormat, { minItems: 1, maxItems: 2, uniqueItems: true }),
    language: PassportLanguage,
    /** Request new passports every time a source file (of the building, or of a building of the portfolio) reaches Mapped. */
    requestOnMapped: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** The settings of a target. */
export type PassportTargetSettings = Static<typeof PassportTargetSettings>;

/** A new target: the connection and subject with their settings. */
export const PassportTargetDraft = Type.Object(
  { connectionId: Id, subject: PassportSubject, ...PassportTargetSettings.properties },
  { additionalProperties: false },
);
/** A new target. */
export type PassportTargetDraft = Static<typeof PassportTargetDraft>;

/** Changed settings of a target; what is left out stays. */
export const PassportTargetChanges = Type.Partial(PassportTargetSettings);
/** Changed settings of a target. */
export type PassportTargetChanges = Static<typeof PassportTargetChanges>;

/** What a request may change from the target's settings. */
export const PassportRequestOptions = Type.Object(
  {
    formats: Type.Optional(Type.Array(PassportFormat, { minItems: 1, maxItems: 2, uniqueItems: true })),
    language: Type.Optional(PassportLanguage),
  },
  { additionalProperties: false },
);
/** What a request may change from the target's settings. */
export type PassportRequestOptions = Static<typeof PassportRequestOptions>;

/** A target as the renderer sees it. */
export const PassportTarget = Type.Object(
  {
    id: Id,
    connectionId: Id,
    subject: PassportSubject,
    ...PassportTargetSettings.properties,
    /** The building's or portfolio's name as last read from the server; null until it was read. */
    name: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    /** When the server was last asked about this target's files successfully. */
    lastCheckedAt: Type.Union([Timestamp, Type.Null()]),
    /** Why the last check failed (offline, key refused, building deleted); null after a successful one. */
    lastError: Type.Union([Message, Type.Null()]),
  },
  { additionalProperties: false },
);
/** A target. */
export type PassportTarget = Static<typeof PassportTarget>;

/**
 * Where a passport is. `requested`: asked for, the server has not accepted it yet (offline: asked again);
 * `generating`: the server is making it; `downloading`: being saved into the folder; `downloaded`: in the folder at
 * `filePath`; `failed`: given up, `error` says why (`retry` starts over).
 */
export const PassportState = Type.Enum(['requested', 'generating', 'downloading', 'downloaded', 'failed']);
/** Where a passport is. */
export type PassportState = Static<typeof PassportState>;

/**
 * Why there is a passport: the user asked (`request`), a source file reached Mapped (`on-mapped`), or it was made on
 * the server by someone else after the target was set up (`found`).
 */
export const PassportOrigin = Type.Union([Type.Literal('request'), Type.Literal('on-mapped'), Type.Literal('found')]);
/** Why there is a passport. */
export type PassportOrigin = Static<typeof PassportOrigin>;

/** One passport of a target: one entry of the history. */
export const PassportEntry = Type.Object(
  {
    id: Id,
    targetId: Id,
    subject: PassportSubject,
    format: PassportFormat,
    /** Null for a passport found on the server: the API does not say its language. */
    language: Type.Union([PassportLanguage, Type.Null()]),
    origin: PassportOrigin,
    /** The source files whose reaching Mapped caused the request (`on-mapped`). */
    sourceFiles: Type.Array(Type.Object({ id: Id, name: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false })),
    state: PassportState,
    requestedAt: Timestamp,
    updatedAt: Timestamp,
    /** The passport's file on the server, once known. */
    remoteFileId: Type.Union([Id, Type.Null()]),
    /** Where it was saved. */
    filePath: Type.Union([Type.String(), Type.Null()]),
    bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    /** Why it failed (state `failed`), or why the last attempt did not get further (offline) while it goes on. */
    error: Type.Union([Message, Type.Null()]),
  },
  { additionalProperties: false },
);
/** One passport of a target. */
export type PassportEntry = Static<typeof PassportEntry>;

/** What the service tells its host: the targets changed, or one passport moved on. */
export const PassportEvent = Type.Union([
  Type.Object({ type: Type.Literal('targets-changed'), targets: Type.Array(PassportTarget) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('entry-changed'), entry: PassportEntry }, { additionalProperties: false }),
]);
/** What the service tells its host. */
export type PassportEvent = Static<typeof PassportEvent>;
