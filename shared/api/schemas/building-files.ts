/** Building file schemas (spec §2.7, lifecycle in decisions §3). */
import { Type, type Static } from 'typebox';
import { BuildingFileStatusesSchema, BuildingFileTypeSchema, BuildingRequestFileTypeInputSchema } from '../enums';
import { DateTime, Int32, Int64, Maybe, Nullable, Uuid } from '../schema-kit';
import { BuildingFileValidation } from './validation';

/** A building file to create. Every field may be absent; an absent type is Source (0), the platform's default. */
export const BuildingFileRequest = Type.Object({
  type: Maybe(BuildingRequestFileTypeInputSchema),
  tags: Maybe(Type.Array(Type.String())),
  name: Maybe(Type.String({ description: 'File name; the upload gives it when absent.' })),
  preferredAccountIds: Maybe(
    Type.Array(Uuid(), { description: 'Element databases to match against first, in order (decisions §9).' }),
  ),
});
/** A building file to create. */
export type BuildingFileRequest = Static<typeof BuildingFileRequest>;

/**
 * What a building file's settings are (an extension of this server): the API sets a file's tags and the databases its
 * materials are matched against only when it is created; these read and change them later.
 */
export const BuildingFileSettings = Type.Object(
  {
    tags: Type.Array(Type.String()),
    preferredAccountIds: Type.Array(Uuid(), { description: 'Element databases to match against first, in order (decisions §9).' }),
  },
  { additionalProperties: false },
);
/** A building file's settings. */
export type BuildingFileSettings = Static<typeof BuildingFileSettings>;

/** A building file as answered. */
export const BuildingFileResponse = Type.Object(
  {
    buildingId: Uuid(),
    isActive: Type.Boolean({ description: 'Included in the building figures (only Mapped source files count).' }),
    isDirty: Type.Boolean(),
    fileName: Nullable(Type.String()),
    fileSize: Nullable(Int64({ description: 'Bytes; null until uploaded.' })),
    status: BuildingFileStatusesSchema,
    type: BuildingFileTypeSchema,
    lastModifiedDate: DateTime(),
    tags: Type.Array(Type.String()),
    validation: BuildingFileValidation,
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A building file as answered. */
export type BuildingFileResponse = Static<typeof BuildingFileResponse>;

/** Progress of a building file; `id` is the file's id (decisions §3). */
export const BuildingFileStatusResponse = Type.Object(
  {
    status: BuildingFileStatusesSchema,
    elementProcessedCount: Int32({ description: 'Elements imported or refined so far; only grows within a step.' }),
    elementCount: Int32({ description: 'Elements in total.' }),
    statusMessage: Nullable(Type.String({ description: 'The running step, or the outcome once Mapped, Error or UnknownImportFile.' })),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** Progress of a building file. */
export type BuildingFileStatusResponse = Static<typeof BuildingFileStatusResponse>;

/** Where to download a file's bytes: a signed address that needs no API key and expires (decisions §11). */
export const FileDownloadResponse = Type.Object(
  {
    url: Type.String({ description: 'Signed download address.' }),
    expirationDateTime: DateTime({ description: 'When the address stops working.' }),
  },
  { additionalProperties: false },
);
/** Where to download a file's bytes. */
export type FileDownloadResponse = Static<typeof FileDownloadResponse>;
