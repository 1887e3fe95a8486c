import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/ipc';
import { openLocalKeyCipher, type KeyringLike } from '../../../electron/local-key-cipher';
import { safeStorageCipher, type SafeStorageLike } from '../../../electron/safe-storage-cipher';
import { FileVault, MemoryVault, type VaultCipher } from '../../../electron/vault';

const posix = process.platform !== 'win32';
const KEY_A = 'api-key-of-a-7f3e';
const KEY_B = 'api-key-of-b-19c2';
const ORIGIN = 'https://server.example';

/** Reversible stand-in for the OS's encryption, with the Linux backend it reports. */
function fakeSafeStorage(backend: string): SafeStorageLike {
  const mark = Buffer.from('fake-os:');
  return {
    isEncryptionAvailable: () => true,
    encryptString: (plain) => Buffer.concat([mark, Buffer.from(plain, 'utf8').map((byte) => byte ^ 0x33)]),
    decryptString: (data) => {
      if (!data.subarray(0, mark.length).equals(mark)) throw new Error('not ours');
      return Buffer.from(data.subarray(mark.length).map((byte) => byte ^ 0x33)).toString('utf8');
    },
    getSelectedStorageBackend: () => backend,
  };
}

function memoryKeyring(): KeyringLike {
  let password: string | null = null;
  return {
    getPassword: () => password,
    setPassword: (value) => {
      password = value;
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

async function readDocument(file: string): Promise<{ insecureStorageConsent: boolean; keys: Record<string, string> }> {
  return JSON.parse(await readFile(file, 'utf8')) as { insecureStorageConsent: boolean; keys: Record<string, string> };
}

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vault-'));
  file = path.join(dir, 'vault.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('MemoryVault', () => {
  it('stores, answers and forgets keys in memory', async () => {
    const vault = new MemoryVault();
    expect(await vault.status()).toEqual({ protection: 'memory', needsConsent: false });
    expect(await vault.has('a')).toBe(false);
    await vault.set('a', ORIGIN, KEY_A);
    expect(await vault.has('a')).toBe(true);
    expect(await vault.get('a', ORIGIN)).toBe(KEY_A);
    expect(await vault.get('a', 'https://elsewhere.example')).toBeUndefined();
    await vault.clear('a');
    expect(await vault.get('a', ORIGIN)).toBeUndefined();
  });
});

describe('FileVault', () => {
  let cipher: VaultCipher;

  beforeEach(async () => {
    cipher = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
  });

  it('keeps v1-tagged ciphertexts in a file only the user can read, never the key itself', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(KEY_A);
    expect((await readDocument(file)).keys['a']).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    if (posix) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('says whether its file holds keys before it is opened', async () => {
    expect(await FileVault.holdsKeys(file)).toBe(false);
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    expect(await FileVault.holdsKeys(file)).toBe(true);
    await vault.clear('a');
    expect(await FileVault.holdsKeys(file)).toBe(false);
    await writeFile(file, 'not json');
    expect(await FileVault.holdsKeys(file)).toBe(false);
  });

  it('answers has, get and clear, and keeps keys across a restart', async () => {
    const vault = await FileVault.open(file, cipher);
    expect(await vault.status()).toEqual({ protection: 'os-keyring', needsConsent: false });
    expect(await vault.has('a')).toBe(false);
    expect(await vault.get('a', ORIGIN)).toBeUndefined();
    await vault.set('a', ORIGIN, KEY_A);
    await vault.set('b', ORIGIN, KEY_B);
    await vault.clear('b');
    const reopened = await FileVault.open(file, cipher);
    expect(reopened.setAside).toBeUndefined();
    expect(await reopened.has('a')).toBe(true);
    expect(await reopened.get('a', ORIGIN)).toBe(KEY_A);
    expect(await reopened.has('b')).toBe(false);
  });

  it('keeps every key of calls made at the same time', async () => {
    const vault = await FileVault.open(file, cipher);
    await Promise.all([vault.set('a', ORIGIN, KEY_A), vault.set('b', ORIGIN, KEY_B), vault.set('c', ORIGIN, 'key-c')]);
    const reopened = await FileVault.open(file, cipher);
    expect([await reopened.get('a', ORIGIN), await reopened.get('b', ORIGIN), await reopened.get('c', ORIGIN)]).toEqual([KEY_A, KEY_B, 'key-c']);
  });

  it('hands a key out only for calls to the origin it was entered for, also after a restart', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    expect(await vault.get('a', 'https://elsewhere.example')).toBeUndefined();
    expect(await vault.get('a', 'http://server.example')).toBeUndefined();
    const reopened = await FileVault.open(file, cipher);
    expect(await reopened.get('a', 'https://server.example:8443')).toBeUndefined();
    expect(await reopened.get('a', ORIGIN)).toBe(KEY_A);
  });

  it('refuses a key whose stored origin was rewritten in the file', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    const document = (await readDocument(file)) as { origins?: Record<string, string> };
    await writeFile(file, JSON.stringify({ ...document, origins: { a: 'https://attacker.example' } }));
    const reopened = await FileVault.open(file, cipher);
    expect((await failureOf(reopened.get('a', 'https://attacker.example'))).code).toBe('storage-failed');
  });

  it('binds a key stored before keys had an origin to its connection’s address at start, never to the first origin that asks', async () => {
    const legacyCipher = await openLocalKeyCipher(path.join(dir, 'legacy'), { keyring: memoryKeyring() });
    const legacy = async (connectionId: string, key: string): Promise<string> =>
      `v1:${Buffer.from(await legacyCipher.encrypt(key, connectionId)).toString('base64')}`;
    await writeFile(file, JSON.stringify({ insecureStorageConsent: false, keys: { a: await legacy('a', KEY_A), gone: await legacy('gone', KEY_B) } }));
    const vault = await FileVault.open(file, legacyCipher);
    // Asked before it is bound, by an origin that is not its connection's: it goes nowhere, and stays unbound.
    expect(await vault.get('a', 'https://elsewhere.example')).toBeUndefined();
    await vault.bindLegacyKeys((connectionId) => (connectionId === 'a' ? ORIGIN : undefined));
    expect(await vault.get('a', 'https://elsewhere.example')).toBeUndefined();
    expect(await vault.get('a', ORIGIN)).toBe(KEY_A);
    expect(await vault.has('gone')).toBe(false);
    const reopened = await FileVault.open(file, legacyCipher);
    expect(await reopened.get('a', ORIGIN)).toBe(KEY_A);
    expect(await reopened.get('a', 'https://elsewhere.example')).toBeUndefined();
    expect(await readDocument(file)).toMatchObject({ keys: { a: expect.stringMatching(/^v1:/) }, origins: { a: ORIGIN } });
  });

  it('forgets the origin with the key', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    await vault.clear('a');
    expect(await readDocument(file)).toMatchObject({ keys: {}, origins: {} });
    await vault.set('a', 'https://elsewhere.example', KEY_B);
    expect(await vault.get('a', 'https://elsewhere.example')).toBe(KEY_B);
  });

  it('writes nothing when clearing a key that is not there', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.clear('a');
    expect(await readdir(dir)).not.toContain('vault.json');
  });

  it('refuses a ciphertext swapped between connections', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    await vault.set('b', ORIGIN, KEY_B);
    const document = await readDocument(file);
    await writeFile(file, JSON.stringify({ ...document, keys: { a: document.keys['b'], b: document.keys['a'] } }));
    const reopened = await FileVault.open(file, cipher);
    expect(await reopened.has('a')).toBe(true);
    const failure = await failureOf(reopened.get('a', ORIGIN));
    expect(failure.code).toBe('storage-failed');
    expect(failure.message).not.toContain(KEY_B);
  });

  it('refuses a ciphertext swapped between connections with safeStorage too', async () => {
    const osCipher = safeStorageCipher(fakeSafeStorage('gnome_libsecret'), 'linux');
    const vault = await FileVault.open(file, osCipher);
    await vault.set('a', ORIGIN, KEY_A);
    await vault.set('b', ORIGIN, KEY_B);
    const document = await readDocument(file);
    await writeFile(file, JSON.stringify({ ...document, keys: { a: document.keys['b'], b: document.keys['a'] } }));
    const reopened = await FileVault.open(file, osCipher);
    expect((await failureOf(reopened.get('b', ORIGIN))).code).toBe('storage-failed');
  });

  it.each([
    ['an unknown version tag', 'v2:AAAA'],
    ['no version tag', 'AAAA'],
    ['data it cannot decrypt', `v1:${Buffer.alloc(40, 7).toString('base64')}`],
  ])('has the key but asks for it again when the stored value has %s', async (_case, stored) => {
    await writeFile(file, JSON.stringify({ insecureStorageConsent: false, keys: { a: stored } }));
    const vault = await FileVault.open(file, cipher);
    // Bound at start like any key from before keys had an origin, it stays what it was: unreadable.
    await vault.bindLegacyKeys(() => ORIGIN);
    expect(await vault.has('a')).toBe(true);
    const failure = await failureOf(vault.get('a', ORIGIN));
    expect(failure.code).toBe('storage-failed');
    expect(failure.message).toMatch(/enter the key again/i);
  });

  it('cannot read keys written with another vault key, and says to enter them again', async () => {
    const vault = await FileVault.open(file, cipher);
    await vault.set('a', ORIGIN, KEY_A);
    // Another user-data folder's vault key: this folder's keyring note would refuse a keyring that lost its key.
    const otherCipher = await openLocalKeyCipher(path.join(dir, 'elsewhere'), { keyring: memoryKeyring() });
    const elsewhere = await FileVault.open(file, otherCipher);
    expect((await failureOf(elsewhere.get('a', ORIGIN))).message).toMatch(/enter the key again/i);
    await elsewhere.set('a', ORIGIN, KEY_B);
    expect(await elsewhere.get('a', ORIGIN)).toBe(KEY_B);
  });

  it('sets a corrupted vault file aside and starts empty', async () => {
    await writeFile(file, '{"keys": {"a": "v1:AAAA"');
    const vault = await FileVault.open(file, cipher);
    expect(vault.setAside).toBeDefined();
    expect(await readFile(vault.setAside ?? '', 'utf8')).toBe('{"keys": {"a": "v1:AAAA"');
    expect(await vault.has('a')).toBe(false);
    await vault.set('a', ORIGIN, KEY_A);
    expect(await (await FileVault.open(file, cipher)).get('a', ORIGIN)).toBe(KEY_A);
  });

  it('sets a vault file of the wrong shape aside', async () => {
    await writeFile(file, JSON.stringify({ keys: ['v1:AAAA'] }));
    const vault = await FileVault.open(file, cipher);
    expect(path.basename(vault.setAside ?? '')).toMatch(/^vault\.json\.invalid-/);
  });

  it('reports a failed write without the key and keeps the previous state', async () => {
    const vault = await FileVault.open(file, cipher);
    // The file's place is taken by a folder, so the atomic rename fails.
    await mkdir(file);
    const failure = await failureOf(vault.set('a', ORIGIN, KEY_A));
    expect(failure.code).toBe('storage-failed');
    expect(failure.message).not.toContain(KEY_A);
    expect(await vault.has('a')).toBe(false);
    await rm(file, { recursive: true });
    await vault.set('b', ORIGIN, KEY_B);
    expect(await vault.get('b', ORIGIN)).toBe(KEY_B);
  });

  it('passes on why the cipher could not encrypt', async () => {
    const failing: VaultCipher = {
      protection: 'os-encryption',
      needsConsent: false,
      encrypt: async () => {
        throw new BridgeError('storage-failed', 'The key store is locked.');
      },
      decrypt: async () => '',
    };
    const vault = await FileVault.open(file, failing);
    expect((await failureOf(vault.set('a', ORIGIN, KEY_A))).message).toBe('The key store is locked.');
    expect(await vault.has('a')).toBe(false);
  });
});

describe('FileVault on Linux without a keyring (safeStorage basic_text)', () => {
  const obfuscating = (): VaultCipher => safeStorageCipher(fakeSafeStorage('basic_text'), 'linux');

  it('refuses to store a key without consent, and says why', async () => {
    const vault = await FileVault.open(file, obfuscating());
    expect(await vault.status()).toEqual({ protection: 'basic-text', needsConsent: true });
    const failure = await failureOf(vault.set('a', ORIGIN, KEY_A));
    expect(failure.code).toBe('insecure-storage');
    expect(failure.message).toMatch(/no keyring/);
    expect(failure.message).toMatch(/obfuscated/);
    expect(failure.message).toMatch(/GNOME Keyring or KWallet/);
    expect(failure.message).not.toContain(KEY_A);
    expect(await vault.has('a')).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });

  it('stores the key with consent and remembers the consent, also after a restart', async () => {
    const vault = await FileVault.open(file, obfuscating());
    await vault.set('a', ORIGIN, KEY_A, { allowInsecureStorage: true });
    expect(await vault.get('a', ORIGIN)).toBe(KEY_A);
    expect(await vault.status()).toEqual({ protection: 'basic-text', needsConsent: false });
    await vault.set('b', ORIGIN, KEY_B);
    const reopened = await FileVault.open(file, obfuscating());
    expect(await reopened.status()).toEqual({ protection: 'basic-text', needsConsent: false });
    await reopened.set('c', ORIGIN, 'key-c');
    expect(await reopened.get('b', ORIGIN)).toBe(KEY_B);
  });

  it('stores a key the app made itself without taking it as the consent of the user', async () => {
    const vault = await FileVault.open(file, obfuscating());
    await vault.set('local', ORIGIN, 'generated', { allowInsecureStorage: true, rememberConsent: false });
    expect(await vault.get('local', ORIGIN)).toBe('generated');
    expect(await vault.status()).toEqual({ protection: 'basic-text', needsConsent: true });
    expect((await failureOf(vault.set('a', ORIGIN, KEY_A))).code).toBe('insecure-storage');
  });

  it('does not record a consent where none is needed', async () => {
    const vault = await FileVault.open(file, safeStorageCipher(fakeSafeStorage('kwallet5'), 'linux'));
    await vault.set('a', ORIGIN, KEY_A, { allowInsecureStorage: true });
    expect((await readDocument(file)).insecureStorageConsent).toBe(false);
    const downgraded = await FileVault.open(file, obfuscating());
    expect(await downgraded.status()).toEqual({ protection: 'basic-text', needsConsent: true });
  });
});
