/**
 * The vault cipher of browser mode, where Electron's safeStorage is not at hand: AES-256-GCM with a random vault key
 * kept in the OS keyring when there is one, else in a key file only this user can read. Once the key is in the
 * keyring, a note in the user-data folder says so: a keyring that later fails or forgets the key is then an error
 * the user reads, never a new key that would leave every stored key unreadable.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'typebox';
import type { KeyProtection } from '../shared/ipc';
import { readJsonFile, readTextIfPresent, setAsideInvalidFile, writeJsonFile } from './json-file';
import type { VaultCipher } from './vault';

/** The part of a `@napi-rs/keyring` Entry the cipher uses: one password slot. */
export interface KeyringLike {
  getPassword(): string | null;
  setPassword(password: string): void;
}

const KEYRING_SERVICE = 'Circularity Desk';
const KEYRING_ACCOUNT = 'vault-key';
const KEY_FILE_NAME = 'vault.key';
/** The note that the vault key is kept in the OS keyring. */
const KEYRING_NOTE_NAME = 'vault-key.json';
const KeyringNote = Type.Object({ keptIn: Type.Literal('os-keyring') });
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The OS keyring's entry of the vault key, or why there is none. */
async function systemKeyring(): Promise<KeyringLike | { unavailable: unknown }> {
  try {
    const { Entry } = await import('@napi-rs/keyring');
    // Pinned to the Secret Service on Linux: the kernel keyring, the library's fallback, forgets keys at reboot.
    return new Entry(KEYRING_SERVICE, KEYRING_ACCOUNT, { linux: { store: 'secret-service' } });
  } catch (error) {
    return { unavailable: error };
  }
}

/** The keyring can no longer give the vault key it holds; starting anyway would need a new key. */
export class VaultKeyUnavailableError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(
      `The vault key of the stored API keys is kept in the OS keyring, but ${reason}. Unlock the keyring (or start ` +
        "your desktop session's keyring, such as GNOME Keyring or KWallet) and start again. If that keyring is gone " +
        'for good, start with --new-vault-key: the keys of all connections must then be entered again.',
      options,
    );
    this.name = 'VaultKeyUnavailableError';
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

/** Where the vault key was kept before: whether the note says the keyring, and whether that counts this time. */
interface KeyHistory {
  noted: boolean;
  keptInKeyring: boolean;
}

/**
 * The keyring's key, noted as kept there; the first time, a key file's key is moved into the keyring (so keys stored
 * before the keyring was there stay readable), else a new key is made, unless the keyring held the key before and
 * lost it. Throws when the keyring cannot be used.
 */
async function keyFromKeyring(keyring: KeyringLike, userDataDir: string, history: KeyHistory): Promise<Buffer> {
  const note = (): Promise<void> => writeJsonFile(path.join(userDataDir, KEYRING_NOTE_NAME), { keptIn: 'os-keyring' });
  const stored = decodeKey(keyring.getPassword());
  if (stored !== undefined) {
    // Keys kept in the keyring before the note existed are noted at their first start.
    if (!history.noted) await note();
    return stored;
  }
  if (history.keptInKeyring) throw new VaultKeyUnavailableError('the keyring no longer holds it');
  const file = path.join(userDataDir, KEY_FILE_NAME);
  const previous = await readKeyFile(file);
  const key = previous.kind === 'ok' ? previous.key : randomBytes(KEY_BYTES);
  keyring.setPassword(key.toString('base64'));
  await note();
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

/** How browser mode opens its cipher. */
export interface LocalKeyCipherOptions {
  /** Replaces the system keyring (tests); `null` means there is none. */
  keyring?: KeyringLike | null;
  /**
   * The user's choice to start without the vault key the keyring held (it is gone for good): a new key is made, and
   * the keys stored under the old one cannot be read any more.
   */
  newVaultKey?: boolean;
  /**
   * Whether keys are stored under the present vault key. With no key file, they were stored under a key the keyring
   * held, also before `vault-key.json` noted it: that key is then not replaced either.
   */
  keysStored?: boolean;
  /** Hears why the keyring was not used when the key goes to a key file. */
  log?: (message: string, error?: unknown) => void;
}

/**
 * The browser-mode cipher: `os-keyring` when the OS keyring holds the vault key, else `key-file` with the key in
 * `<userDataDir>/vault.key` (0600). A vault key that was in the keyring and cannot be had from it now throws a
 * `VaultKeyUnavailableError` unless `newVaultKey` is set.
 */
export async function openLocalKeyCipher(userDataDir: string, options: LocalKeyCipherOptions = {}): Promise<VaultCipher> {
  await mkdir(userDataDir, { recursive: true, mode: 0o700 });
  const note = path.join(userDataDir, KEYRING_NOTE_NAME);
  const noted = (await readJsonFile(note, KeyringNote)).kind !== 'missing';
  const keyFileFound = (await readTextIfPresent(path.join(userDataDir, KEY_FILE_NAME))) !== undefined;
  const keptInKeyring = noted || (options.keysStored === true && !keyFileFound);
  const history: KeyHistory = { noted, keptInKeyring: keptInKeyring && options.newVaultKey !== true };
  const found = options.keyring === undefined ? await systemKeyring() : (options.keyring ?? { unavailable: 'no keyring is installed' });
  let keyringFailure: unknown;
  if ('unavailable' in found) {
    keyringFailure = found.unavailable;
  } else {
    try {
      return aesGcmCipher(await keyFromKeyring(found, userDataDir, history), 'os-keyring');
    } catch (error) {
      if (error instanceof VaultKeyUnavailableError) throw error;
      // A keyring that cannot be read or written: no session bus, locked, denied.
      keyringFailure = error;
    }
  }
  if (history.keptInKeyring) throw new VaultKeyUnavailableError(`it cannot be used now (${reasonOf(keyringFailure)})`, { cause: keyringFailure });
  options.log?.('The OS keyring cannot keep the vault key, so a key file only this user can read keeps it', keyringFailure);
  await rm(note, { force: true });
  return aesGcmCipher(await keyFromFile(userDataDir), 'key-file');
}
