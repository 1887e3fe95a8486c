/** Calls of the API through the host's queued client, and the one image upload that passes the Bridge. */
import { Type, type Static } from 'typebox';
import { Problem } from '../api/schemas';
import { channel, Id } from './channel';

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
      reason: Type.Enum(['unreachable', 'timeout', 'aborted', 'invalid-request', 'invalid-response']),
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

/** The `api:` channels. */
export const apiChannels = {
  'api:request': channel(ApiRequest, ApiAnswer),
  'api:upload-image': channel(ImageUpload, ApiAnswer),
} as const;
