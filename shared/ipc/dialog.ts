/** The host's file and folder dialogs. */
import { Type } from 'typebox';
import { ChooseFilesRequest, ChosenFiles } from '../uploads';
import { channel } from './channel';

/** What the folder dialog shows as its title. */
export const ChooseFolderRequest = Type.Object(
  { title: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

/** The folder the user chose (an absolute path), or null when the dialog was cancelled. */
export const ChosenFolder = Type.Union([Type.String({ minLength: 1 }), Type.Null()]);

/** The `dialog:` channels. */
export const dialogChannels = {
  'dialog:choose-folder': channel(ChooseFolderRequest, ChosenFolder),
  'dialog:choose-files': channel(ChooseFilesRequest, ChosenFiles),
} as const;
