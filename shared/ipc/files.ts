/** Downloads of file content to the host's disk. */
import { FileDownloadRequest, FileDownloadResult } from '../uploads';
import { channel } from './channel';

/** The `files:` channels. */
export const fileChannels = {
  'files:download': channel(FileDownloadRequest, FileDownloadResult),
} as const;
