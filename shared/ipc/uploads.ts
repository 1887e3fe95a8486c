/** Uploads of files from the host's disk or from a spool the window fills. */
import { Type } from 'typebox';
import { SpoolChunk, SpoolOpen, SpoolRef, UploadEntry, UploadQuery, UploadRef, UploadStart } from '../uploads';
import { channel, Nothing } from './channel';

/** The `uploads:` channels. */
export const uploadChannels = {
  'uploads:open-spool': channel(SpoolOpen, SpoolRef),
  'uploads:write-spool': channel(SpoolChunk, Type.Object({ written: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
  'uploads:start': channel(UploadStart, UploadEntry),
  'uploads:list': channel(UploadQuery, Type.Array(UploadEntry)),
  'uploads:cancel': channel(UploadRef, UploadEntry),
  'uploads:retry': channel(UploadRef, UploadEntry),
  'uploads:forget': channel(UploadRef, Nothing),
} as const;

/** The `uploads:` events. */
export const uploadEvents = {
  /** An upload started, moved on (progress at most a few times a second) or ended. */
  'uploads:changed': UploadEntry,
} as const;
