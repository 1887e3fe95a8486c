/**
 * The vault cipher of the desktop app: Electron's safeStorage (DPAPI on Windows, the Keychain on macOS,
 * libsecret or KWallet on Linux). The safeStorage object is passed in by main.ts, so this module runs in plain Node.
 */
import { BridgeError } from '../shared/ipc';
import type { VaultCipher } from './vault';

/**
 * The part of Electron's `safeStorage` the vault uses, with Electron 45's signatures. The asynchronous methods are
 * used when present, because Electron 45 deprecates the synchronous ones.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
  isAsyncEncryptionAvailable?(): Promise<boolean>;
  encryptStringAsync?(plainText: string): Promise<Buffer>;
  decryptStringAsync?(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
}

// `unknown` is what Electron answers before the app is ready; a key is never stored on a guess.
const OBFUSCATING_BACKENDS = new Set(['basic_text', 'unknown']);

const UNAVAILABLE_MESSAGE =
  "The system's key store cannot encrypt the key right now. Unlock it (or sign in to your desktop session) and try again.";

function isObfuscating(safeStorage: SafeStorageLike, platform: NodeJS.Platform): boolean {
  if (platform !== 'linux') return false;
  const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  return OBFUSCATING_BACKENDS.has(backend);
}

// The binding (connection id and origin) travels inside the ciphertext, so a ciphertext moved to another connection
// or origin is refused. Its field keeps the name it had when it held the connection id alone.
function envelope(plain: string, binding: string): string {
  return JSON.stringify({ connectionId: binding, key: plain });
}

function openEnvelope(text: string, binding: string): string {
  const parsed: unknown = JSON.parse(text);
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    'connectionId' in parsed &&
    'key' in parsed &&
    parsed.connectionId === binding &&
    typeof parsed.key === 'string'
  ) {
    return parsed.key;
  }
  throw new Error('The ciphertext belongs to another connection.');
}

/** A vault cipher over safeStorage: `os-encryption`, or `basic-text` (needing consent) on Linux without a keyring. */
export function safeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): VaultCipher {
  const { isAsyncEncryptionAvailable, encryptStringAsync, decryptStringAsync } = safeStorage;
  const asynchronous =
    isAsyncEncryptionAvailable !== undefined && encryptStringAsync !== undefined && decryptStringAsync !== undefined
      ? {
          isAvailable: () => isAsyncEncryptionAvailable.call(safeStorage),
          encrypt: (plain: string) => encryptStringAsync.call(safeStorage, plain),
          decrypt: async (data: Buffer) => (await decryptStringAsync.call(safeStorage, data)).result,
        }
      : undefined;
  const engine = asynchronous ?? {
    isAvailable: async () => safeStorage.isEncryptionAvailable(),
    encrypt: async (plain: string) => safeStorage.encryptString(plain),
    decrypt: async (data: Buffer) => safeStorage.decryptString(data),
  };
  return {
    // Read on each use: the backend is only known once the app is ready, and main.ts may build the cipher before.
    get protection() {
      return isObfuscating(safeStorage, platform) ? 'basic-text' : 'os-encryption';
    },
    get needsConsent() {
      return isObfuscating(safeStorage, platform);
    },
    async encrypt(plain, binding) {
      if (!(await engine.isAvailable())) throw new BridgeError('storage-failed', UNAVAILABLE_MESSAGE);
      return new Uint8Array(await engine.encrypt(envelope(plain, binding)));
    },
    async decrypt(data, binding) {
      return openEnvelope(await engine.decrypt(Buffer.from(data)), binding);
    },
  };
}
