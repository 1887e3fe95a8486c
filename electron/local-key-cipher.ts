/**
 * The vault cipher of browser mode, where Electron's safeStorage is not at hand: AES-256-GCM with a random vault key
 * kept in the OS keyring when there is one, else in a key file only this user can read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyProtection } from '../shared/ipc';
import { readTextIfPresent, setAsideInvalidFile } from './json-file';
import type { VaultCipher } from './vault';

/** The part of a `@napi-rs/keyring` Entry the cipher uses: one password slot. */
export interface KeyringLike {
  getPassword(): string | null;
  setPassword(password: string): void;
}

const KEYRING_SERVICE = 'Circularity Desk';
const KEYRING_ACCOUNT = 'vault-key';
const KEY_FILE_NAME = 'vault.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function systemKeyring(): Promise<KeyringLike | null> {
  try {
    const { Entry } = await import('@napi-rs/keyring');
    // Pinned to the Secret Service on Linux: the kernel keyring, the library's fallback, forgets keys at reboot.
    return new Entry(KEYRING_SERVICE, KEYRING_ACCOUNT, { linux: { store: 'secret-service' } });
  } catch {
    return null;
  }
}

function decodeKey(text: string | null | undefined): Buffer | undefined {
  if (text === null || text === undefined) return undefined;
  const key = Buffer.from(text.trim(), 'base64');
  return key.length === KEY_BYTES && key.toString('base64') === text.trim() ? key : undefined;
}

async function readKeyFile(file: string): Promise<{ kind: 'ok'; key: Buffer } | { kind: 'missing' } | { kind: 'invalid' }> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return { kind: 'missing' };
  const key = decodeKey(text);
  return key === undefined ? { kind: 'invalid' } : { kind: 'ok', key };
}

/** The key file's key, created on first use; an unreadable key file is moved aside (its ciphertexts are lost anyway). */
async function keyFromFile(userDataDir: string): Promise<Buffer> {
  const file = path.join(userDataDir, KEY_FILE_NAME);
  const found = await readKeyFile(file);
  if (found.kind === 'ok') {
    // Mode bits mean nothing on Windows, where the user-data folder itself is private to the user.
    if (process.platform !== 'win32' && ((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return found.key;
  }
  if (found.kind === 'invalid') await setAsideInvalidFile(file);
  const key = randomBytes(KEY_BYTES);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    // link() never replaces an existing file: when another process created the key first, its key wins.
    await link(temporary, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readKeyFile(file);
    if (winner.kind !== 'ok') throw new Error(`${KEY_FILE_NAME} is not a valid key file.`, { cause: error });
    return winner.key;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * The keyring's key; the first time, a key file's key is moved into the keyring (so keys stored before the keyring
 * was there stay readable), else a new key is made. Throws when the keyring cannot be used.
 */
async function keyFromKeyring(keyring: KeyringLike, userDataDir: string): Promise<Buffer> {
  const stored = decodeKey(keyring.getPassword());
  if (stored !== undefined) return stored;
  const file = path.join(userDataDir, KEY_FILE_NAME);
  const previous = await readKeyFile(file);
  const key = previous.kind === 'ok' ? previous.key : randomBytes(KEY_BYTES);
  keyring.setPassword(key.toString('base64'));
  if (previous.kind === 'ok') await rm(file, { force: true });
  return key;
}

function aesGcmCipher(key: Buffer, protection: KeyProtection): VaultCipher {
  return {
    protection,
    needsConsent: false,
    // Layout: iv(12) || tag(16) || data; the connection id is the associated data, so ciphertexts cannot be swapped.
    async encrypt(plain, connectionId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(connectionId, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), data]));
    },
    async decrypt(bytes, connectionId) {
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('The ciphertext is too short.');
      const all = Buffer.from(bytes);
      const decipher = createDecipheriv('aes-256-gcm', key, all.subarray(0, IV_BYTES));
      decipher.setAuthTag(all.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      decipher.setAAD(Buffer.from(connectionId, 'utf8'));
      return Buffer.concat([decipher.update(all.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The browser-mode cipher: `os-keyring` when the OS keyring holds the vault key, else `key-file` with the key in
 * `<userDataDir>/vault.key` (0600). `keyring` replaces the system keyring (tests); `null` means there is none.
 */
export async function openLocalKeyCipher(
  userDataDir: string,
  options: { keyring?: KeyringLike | null } = {},
): Promise<VaultCipher> {
  await mkdir(userDataDir, { recursive: true, mode: 0o700 });
  const keyring = options.keyring === undefined ? await systemKeyring() : options.keyring;
  if (keyring !== null) {
    try {
      return aesGcmCipher(await keyFromKeyring(keyring, userDataDir), 'os-keyring');
    } catch {
      // A keyring that cannot be read or written (no session bus, locked, denied) leaves the key file.
    }
  }
  return aesGcmCipher(await keyFromFile(userDataDir), 'key-file');
}
