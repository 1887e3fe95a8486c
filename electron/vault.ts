/**
 * The key vault: the API key of each connection, kept in the main process. The renderer may ask whether a
 * connection has a key, set it and clear it; only the main process reads a key, to add it to a request.
 * Each key is bound to the origin it was entered for and is handed out only for calls to that origin.
 */
import { Type, type Static } from 'typebox';
import { assertNever } from '../shared/api/enums';
import { BridgeError, type KeyProtection, type VaultStatus } from '../shared/ipc';
import { readJsonFile, setAsideInvalidFile, writeJsonFile } from './json-file';

/** How a key is stored: the user's consent to obfuscation-only storage, and whether to remember it. */
export interface VaultSetOptions {
  allowInsecureStorage?: boolean;
  rememberConsent?: boolean;
}

/** Where the host keeps connection keys. */
export interface Vault {
  /** How keys are protected, and whether storing one needs the user's consent first. */
  status(): Promise<VaultStatus>;
  /** Whether a key is stored for the connection (even one that can no longer be decrypted). */
  has(connectionId: string): Promise<boolean>;
  /**
   * The connection's key for a call to `origin`, for the main process only; never exposed to the renderer. A key
   * entered for another origin is not handed out.
   */
  get(connectionId: string, origin: string): Promise<string | undefined>;
  /**
   * Stores the connection's key, bound to `origin`. `allowInsecureStorage` is the user's consent when the vault needs
   * one; it is remembered for later keys unless `rememberConsent` is false (for keys the app makes itself, not the user).
   */
  set(connectionId: string, origin: string, key: string, options?: VaultSetOptions): Promise<void>;
  /** Forgets the connection's key. */
  clear(connectionId: string): Promise<void>;
  /**
   * Binds every key stored before keys carried their origin to the origin of its connection's address as the
   * connections file holds it (`originOf`), and forgets one whose connection is gone; run at start, before any key is
   * asked for, so such a key never goes to whichever origin asks first.
   */
  bindLegacyKeys(originOf: (connectionId: string) => string | undefined): Promise<void>;
}

/** A vault that keeps keys in memory only, for tests and for hosts that must not write secrets. */
export class MemoryVault implements Vault {
  readonly #keys = new Map<string, { origin: string; key: string }>();

  async status(): Promise<VaultStatus> {
    return { protection: 'memory', needsConsent: false };
  }

  async has(connectionId: string): Promise<boolean> {
    return this.#keys.has(connectionId);
  }

  async get(connectionId: string, origin: string): Promise<string | undefined> {
    const stored = this.#keys.get(connectionId);
    return stored?.origin === origin ? stored.key : undefined;
  }

  async set(connectionId: string, origin: string, key: string): Promise<void> {
    this.#keys.set(connectionId, { origin, key });
  }

  async clear(connectionId: string): Promise<void> {
    this.#keys.delete(connectionId);
  }

  async bindLegacyKeys(): Promise<void> {
    // Every key it holds was set with its origin.
  }
}

/**
 * Encrypts keys for a file vault. The binding (connection id and origin) is bound to the ciphertext, so a ciphertext
 * copied to another connection or origin does not decrypt there (the key of one server must never be sent to another).
 */
export interface VaultCipher {
  readonly protection: KeyProtection;
  /** True when the cipher only obfuscates, so storing a key needs the user's consent. */
  readonly needsConsent: boolean;
  encrypt(plain: string, binding: string): Promise<Uint8Array>;
  /** Throws when the data was not encrypted by this cipher for this binding. */
  decrypt(data: Uint8Array, binding: string): Promise<string>;
}

/** What a key's ciphertext is bound to: its connection and, for keys stored since keys have one, its origin. */
function bindingOf(connectionId: string, origin: string | undefined): string {
  return origin === undefined ? connectionId : `${connectionId}\n${origin}`;
}

const CIPHERTEXT_TAG = 'v1:';

const VaultDocument = Type.Object({
  insecureStorageConsent: Type.Boolean(),
  keys: Type.Record(Type.String(), Type.String()),
  /** The origin each key was entered for; a key without one was stored before keys had one. */
  origins: Type.Optional(Type.Record(Type.String(), Type.String())),
});
type VaultDocument = Static<typeof VaultDocument>;

const INSECURE_STORAGE_MESSAGE =
  'This system offers no keyring, so the key would be stored only obfuscated, not encrypted: anyone who can read ' +
  'your files could recover it. Allow storing it anyway, or install and enable a keyring such as GNOME Keyring or ' +
  'KWallet and restart the app.';

const UNREADABLE_KEY_MESSAGE =
  'The stored key of this connection cannot be read: it was stored by another version of the app, on another system, ' +
  'or with a keyring that is no longer available. Enter the key again.';

function storageFailure(action: string, error: unknown): BridgeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = typeof code === 'string' ? ` (${code})` : '';
  return new BridgeError('storage-failed', `The key vault could not be ${action}${reason}.`);
}

/** One vault for both hosts: ciphertexts `v1:<base64>` per connection in `<userDataDir>/vault.json` (0600, written with writeJsonFile). */
export class FileVault implements Vault {
  readonly #file: string;
  readonly #cipher: VaultCipher;
  #document: VaultDocument;
  // Mutations run one after another, each writing the whole document from the state the previous one left.
  #queue: Promise<void> = Promise.resolve();

  /** Path of an unreadable vault file that was moved aside at open, if any (its keys must be entered again). */
  readonly setAside: string | undefined;

  private constructor(file: string, cipher: VaultCipher, document: VaultDocument, setAside: string | undefined) {
    this.#file = file;
    this.#cipher = cipher;
    this.#document = document;
    this.setAside = setAside;
  }

  /** Reads the vault file; an unreadable one is moved aside and the vault starts empty. */
  /**
   * Whether the vault file holds any key; read before a cipher is chosen, since keys stored under a vault key mean
   * that key must not be replaced by a new one.
   */
  static async holdsKeys(file: string): Promise<boolean> {
    const read = await readJsonFile(file, VaultDocument).catch(() => undefined);
    return read?.kind === 'ok' && Object.keys(read.value.keys).length > 0;
  }

  static async open(file: string, cipher: VaultCipher): Promise<FileVault> {
    let read;
    try {
      read = await readJsonFile(file, VaultDocument);
    } catch (error) {
      throw storageFailure('read', error);
    }
    switch (read.kind) {
      case 'ok':
        return new FileVault(file, cipher, read.value, undefined);
      case 'missing':
        return new FileVault(file, cipher, { insecureStorageConsent: false, keys: {} }, undefined);
      case 'invalid': {
        let aside: string;
        try {
          aside = await setAsideInvalidFile(file);
        } catch (error) {
          throw storageFailure('read', error);
        }
        return new FileVault(file, cipher, { insecureStorageConsent: false, keys: {} }, aside);
      }
      default:
        return assertNever(read);
    }
  }

  async status(): Promise<VaultStatus> {
    return {
      protection: this.#cipher.protection,
      needsConsent: this.#cipher.needsConsent && !this.#document.insecureStorageConsent,
    };
  }

  async has(connectionId: string): Promise<boolean> {
    return Object.hasOwn(this.#document.keys, connectionId);
  }

  async get(connectionId: string, origin: string): Promise<string | undefined> {
    if (!Object.hasOwn(this.#document.keys, connectionId)) return undefined;
    const stored = this.#document.keys[connectionId] ?? '';
    const boundTo = this.#document.origins !== undefined && Object.hasOwn(this.#document.origins, connectionId)
      ? this.#document.origins[connectionId]
      : undefined;
    // A key without an origin was not bound at start (`bindLegacyKeys`): it goes nowhere.
    if (boundTo !== origin) return undefined;
    try {
      return await this.#decrypt(stored, bindingOf(connectionId, boundTo));
    } catch {
      throw new BridgeError('storage-failed', UNREADABLE_KEY_MESSAGE);
    }
  }

  async set(connectionId: string, origin: string, key: string, options: VaultSetOptions = {}): Promise<void> {
    await this.#mutate(async (current) => {
      const consentGiven = options.allowInsecureStorage === true;
      if (this.#cipher.needsConsent && !current.insecureStorageConsent && !consentGiven) {
        throw new BridgeError('insecure-storage', INSECURE_STORAGE_MESSAGE);
      }
      const remember = this.#cipher.needsConsent && consentGiven && options.rememberConsent !== false;
      let encrypted: Uint8Array;
      try {
        encrypted = await this.#cipher.encrypt(key, bindingOf(connectionId, origin));
      } catch (error) {
        if (error instanceof BridgeError) throw error;
        throw new BridgeError('storage-failed', "The key could not be encrypted with the system's key store. Try again.");
      }
      return {
        insecureStorageConsent: current.insecureStorageConsent || remember,
        keys: { ...current.keys, [connectionId]: CIPHERTEXT_TAG + Buffer.from(encrypted).toString('base64') },
        origins: { ...current.origins, [connectionId]: origin },
      };
    });
  }

  async bindLegacyKeys(originOf: (connectionId: string) => string | undefined): Promise<void> {
    await this.#mutate(async (current) => {
      const origins = { ...current.origins };
      const unbound = Object.keys(current.keys).filter((connectionId) => !Object.hasOwn(origins, connectionId));
      if (unbound.length === 0) return undefined;
      const keys = { ...current.keys };
      for (const connectionId of unbound) {
        const origin = originOf(connectionId);
        if (origin === undefined) {
          delete keys[connectionId];
          continue;
        }
        origins[connectionId] = origin;
        const stored = keys[connectionId] ?? '';
        // One that cannot be read stays unreadable under its origin: the user is asked to enter it again.
        const key = await this.#decrypt(stored, bindingOf(connectionId, undefined)).catch(() => undefined);
        if (key === undefined) continue;
        keys[connectionId] = CIPHERTEXT_TAG + Buffer.from(await this.#cipher.encrypt(key, bindingOf(connectionId, origin))).toString('base64');
      }
      return { ...current, keys, origins };
    });
  }

  /** The key of a stored ciphertext under its binding; throws when it is not one of this cipher's. */
  async #decrypt(stored: string, binding: string): Promise<string> {
    if (!stored.startsWith(CIPHERTEXT_TAG)) throw new BridgeError('storage-failed', UNREADABLE_KEY_MESSAGE);
    return this.#cipher.decrypt(Buffer.from(stored.slice(CIPHERTEXT_TAG.length), 'base64'), binding);
  }

  async clear(connectionId: string): Promise<void> {
    await this.#mutate(async (current) => {
      if (!Object.hasOwn(current.keys, connectionId)) return undefined;
      const keys = { ...current.keys };
      delete keys[connectionId];
      const origins = { ...current.origins };
      delete origins[connectionId];
      return { ...current, keys, origins };
    });
  }

  /** Runs a change after the ones before it; `undefined` means nothing changed. Memory follows only a written file. */
  #mutate(change: (current: VaultDocument) => Promise<VaultDocument | undefined>): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = await change(this.#document);
      if (next === undefined) return;
      try {
        await writeJsonFile(this.#file, next);
      } catch (error) {
        throw storageFailure('saved', error);
      }
      this.#document = next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
