/**
 * The document the passport service keeps on disk, as TypeBox schemas: the targets and history entries with what the
 * service remembers for them, and the ledger of saved files. What crosses the Bridge is in shared/passports.ts; the
 * stored forms give it up through `publicTarget` and `publicEntry`.
 */
import { Type, type Static } from 'typebox';
import { PassportEntry, PassportTarget } from '../../shared/passports';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Timestamp = Type.String({ format: 'date-time' });

/** What was last seen of a source file, so that reaching Mapped is noticed once, also across restarts. */
export const SeenSourceFile = Type.Object(
  {
    lastModifiedDate: Type.String(),
    /** When it was first seen Mapped with this lastModifiedDate; null while it is not Mapped. */
    mappedSince: Type.Union([Timestamp, Type.Null()]),
    /** Passports were requested for this Mapped version, or it was already Mapped when the target was set up. */
    handled: Type.Boolean(),
    /**
     * The fingerprint of the file's elements when passports were last requested for it, or when it was first seen
     * Mapped: reaching Mapped again with the same elements (a refinement that changed nothing) asks for no passport.
     */
    fingerprint: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
/** What was last seen of a source file. */
export type SeenSourceFile = Static<typeof SeenSourceFile>;

/** A target with what the service remembers for it. */
export const StoredTarget = Type.Object(
  {
    ...PassportTarget.properties,
    /**
     * Passport files that were on the server before the target's first check: not downloaded, they were not made
     * for this target. Null until that first check.
     */
    preexisting: Type.Union([Type.Array(Id), Type.Null()]),
    /** Source files by id; empty until the first check with `requestOnMapped`. */
    sourceFiles: Type.Record(Type.String(), SeenSourceFile),
    /** Whether `sourceFiles` holds the state of the first check (files Mapped then do not cause a request). */
    sourceFilesKnown: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** A target with what the service remembers for it. */
export type StoredTarget = Static<typeof StoredTarget>;

/** An entry with what the service needs to carry it on after a restart. */
export const StoredEntry = Type.Object(
  {
    ...PassportEntry.properties,
    /** Sent with the request, so a request repeated after a crash is not made twice by a server that honours it. */
    idempotencyKey: Type.String(),
    /** The temporary file of a download under way, removed when the service starts after a crash. */
    temporaryPath: Type.Union([Type.String(), Type.Null()]),
    /** When the entry entered its state: how long a passport has been generating. */
    stateSince: Timestamp,
  },
  { additionalProperties: false },
);
/** An entry with what the service needs to carry it on. */
export type StoredEntry = Static<typeof StoredEntry>;

/** One passport file saved into a target's folder: the ledger that keeps a passport from being downloaded twice. */
export const DownloadedFile = Type.Object(
  { targetId: Id, remoteFileId: Id, path: Type.String(), at: Timestamp },
  { additionalProperties: false },
);
/** One saved passport file. */
export type DownloadedFile = Static<typeof DownloadedFile>;

/** The service's document, `<stateDir>/passports.json`. */
export const PassportDocument = Type.Object(
  {
    version: Type.Literal(1),
    targets: Type.Array(StoredTarget),
    entries: Type.Array(StoredEntry),
    downloaded: Type.Array(DownloadedFile),
  },
  { additionalProperties: false },
);
/** The service's document. */
export type PassportDocument = Static<typeof PassportDocument>;

/** A target as the Bridge carries it. */
export function publicTarget(target: StoredTarget): PassportTarget {
  const { preexisting: _preexisting, sourceFiles: _sourceFiles, sourceFilesKnown: _known, ...rest } = target;
  return structuredClone(rest);
}

/** An entry as the Bridge carries it. */
export function publicEntry(entry: StoredEntry): PassportEntry {
  const { idempotencyKey: _key, temporaryPath: _temporary, stateSince: _since, ...rest } = entry;
  return structuredClone(rest);
}
