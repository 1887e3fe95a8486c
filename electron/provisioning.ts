/**
 * Provisioning for managed installs and tests: `--connect <url> --key-file <file>` (browser mode and the Electron
 * app alike) adds or updates the connection to that server with the key in that file and makes it the active one.
 */
import { readFile } from 'node:fs/promises';
import { BridgeError } from '../shared/ipc';

/** What the command line asked for. */
export interface ProvisioningRequest {
  baseUrl: string;
  keyFile: string;
}

/** Reads `--connect` and `--key-file` from parsed options: both or neither. */
export function provisioningRequestOf(options: { connect?: string | undefined; 'key-file'?: string | undefined }): ProvisioningRequest | undefined {
  const baseUrl = options.connect;
  const keyFile = options['key-file'];
  if (baseUrl === undefined && keyFile === undefined) return undefined;
  if (baseUrl === undefined || keyFile === undefined) {
    throw new Error('--connect <url> and --key-file <file> go together: the server and the file holding its API key.');
  }
  return { baseUrl, keyFile };
}

/** The key in a key file: its content without surrounding white space; an empty or unreadable file is an error that says so. */
export async function readKeyFile(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new BridgeError('invalid-request', `The key file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const key = text.trim();
  if (key === '') throw new BridgeError('invalid-request', `The key file ${file} is empty.`);
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new BridgeError('invalid-request', `The key file ${file} holds more than one key or characters a key cannot have.`);
  }
  return key;
}
