/** Opening an address in the system browser. */
import { Type } from 'typebox';
import { channel, Nothing } from './channel';

/** An http(s) address the user clicked, to open in the system browser. */
export const ExternalUrl = Type.Object(
  { url: Type.String({ maxLength: 2000, pattern: '^https?://' }) },
  { additionalProperties: false },
);

/** The `shell:` channels. */
export const shellChannels = {
  'shell:open-external': channel(ExternalUrl, Nothing),
} as const;
