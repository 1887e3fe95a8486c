/** The drop folders: folders whose new files are uploaded to a building by themselves. */
import { Type } from 'typebox';
import { DropFolderDraft, DropFolderEvent, DropFolderFile, DropFolderSettings, DropFolderStatus } from '../dropfolders';
import { channel, Id, NoInput, Nothing } from './channel';

/** A drop folder, by its id. */
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

/** The `dropfolders:` channels. */
export const dropFolderChannels = {
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
} as const;

/** The `dropfolders:` events. */
export const dropFolderEvents = {
  /** Every change of the drop folders: a file's state or progress, a file's work ended, the folders themselves. */
  'dropfolders:changed': DropFolderEvent,
} as const;
