/** The passport folders: where passports are made and kept, and their history. */
import { Type } from 'typebox';
import {
  PassportEntry,
  PassportEvent,
  PassportRequestOptions,
  PassportTarget,
  PassportTargetDraft,
  PassportTargetSettings,
} from '../passports';
import { channel, Id, NoInput, Nothing } from './channel';

/** A passport folder, by its id. */
const TargetRef = Type.Object({ targetId: Id }, { additionalProperties: false });
/** A passport of the history, by its id. */
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

/** The `passports:` channels. */
export const passportChannels = {
  'passports:targets': channel(NoInput, Type.Array(PassportTarget)),
  'passports:add-target': channel(PassportTargetDraft, PassportTarget, ['folder']),
  'passports:update-target': channel(PassportTargetUpdate, PassportTarget, ['folder']),
  'passports:remove-target': channel(TargetRef, Nothing),
  'passports:request': channel(PassportRequest, Type.Array(PassportEntry)),
  'passports:history': channel(PassportHistoryQuery, Type.Array(PassportEntry)),
  'passports:retry': channel(EntryRef, PassportEntry),
  'passports:open-file': channel(EntryRef, Nothing),
} as const;

/** The `passports:` events. */
export const passportEvents = {
  /** The passport folders changed, or one passport moved on. */
  'passports:changed': PassportEvent,
} as const;
