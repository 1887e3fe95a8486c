import { mkdtemp, readdir, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalKeyCipher, VaultKeyUnavailableError, type KeyringLike } from '../../../electron/local-key-cipher';

const posix = process.platform !== 'win32';

/** A keyring that works, kept in memory. */
function memoryKeyring(): KeyringLike & { password: string | null } {
  return {
    password: null,
    getPassword() {
      return this.password;
    },
    setPassword(password: string) {
      this.password = password;
    },
  };
}

/** A keyring that cannot be reached at all (no session bus). */
const unreachableKeyring: KeyringLike = {
  getPassword: () => {
    throw new Error('Platform failure: DBus error');
  },
  setPassword: () => {
    throw new Error('Platform failure: DBus error');
  },
};

/** A keyring that reads nothing and refuses writes, as the kernel keyring does on a headless machine. */
const deniedKeyring: KeyringLike = {
  getPassword: () => null,
  setPassword: () => {
    throw new Error("Couldn't access platform storage: AccessDenied");
  },
};

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-key-cipher-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openLocalKeyCipher with a keyring', () => {
  it('keeps a random 32-byte vault key in the keyring, writes no key file and notes where the key is', async () => {
    const keyring = memoryKeyring();
    const cipher = await openLocalKeyCipher(dir, { keyring });
    expect(cipher.protection).toBe('os-keyring');
    expect(cipher.needsConsent).toBe(false);
    expect(Buffer.from(keyring.password ?? '', 'base64')).toHaveLength(32);
    expect(await readdir(dir)).toEqual(['vault-key.json']);
    expect(JSON.parse(await readFile(path.join(dir, 'vault-key.json'), 'utf8'))).toEqual({ keptIn: 'os-keyring' });
  });

  it('finds the same key on the next start', async () => {
    const keyring = memoryKeyring();
    const first = await openLocalKeyCipher(dir, { keyring });
    const data = await first.encrypt('my-api-key', 'conn-a');
    const second = await openLocalKeyCipher(dir, { keyring });
    await expect(second.decrypt(data, 'conn-a')).resolves.toBe('my-api-key');
  });

  it('moves the key of an existing key file into the keyring, so earlier keys stay readable', async () => {
    const before = await openLocalKeyCipher(dir, { keyring: null });
    const data = await before.encrypt('stored-earlier', 'conn-a');
    const keyring = memoryKeyring();
    const after = await openLocalKeyCipher(dir, { keyring });
    expect(after.protection).toBe('os-keyring');
    await expect(after.decrypt(data, 'conn-a')).resolves.toBe('stored-earlier');
    expect(await readdir(dir)).not.toContain('vault.key');
  });

  it('notes a key the keyring held before the note existed', async () => {
    const keyring = memoryKeyring();
    keyring.password = Buffer.alloc(32, 7).toString('base64');
    await openLocalKeyCipher(dir, { keyring });
    expect(await readdir(dir)).toEqual(['vault-key.json']);
  });

  it('replaces a keyring entry that is not a vault key', async () => {
    const keyring = memoryKeyring();
    keyring.password = 'not a key';
    const cipher = await openLocalKeyCipher(dir, { keyring });
    expect(cipher.protection).toBe('os-keyring');
    expect(Buffer.from(keyring.password, 'base64')).toHaveLength(32);
  });
});

describe('openLocalKeyCipher when the keyring that holds the vault key fails', () => {
  it.each([
    ['cannot be reached', unreachableKeyring, /but it cannot be used now \(Platform failure: DBus error\)\./],
    ['is gone', null, /but it cannot be used now \(no keyring is installed\)\./],
    ['forgot the key', memoryKeyring(), /but the keyring no longer holds it\./],
  ])('says so when the keyring %s, instead of making a key file that reads none of the stored keys', async (_case, failing, reason) => {
    const keyring = memoryKeyring();
    await (await openLocalKeyCipher(dir, { keyring })).encrypt('stored-earlier', 'conn-a');
    const opening = openLocalKeyCipher(dir, { keyring: failing });
    await expect(opening).rejects.toThrow(VaultKeyUnavailableError);
    await expect(opening).rejects.toThrow(reason);
    await expect(opening).rejects.toThrow(/start with --new-vault-key: the keys of all connections must then be entered again\./);
    expect(await readdir(dir)).toEqual(['vault-key.json']);
  });

  it('says so too for keys stored under a keyring key before the note existed', async () => {
    await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    await rm(path.join(dir, 'vault-key.json'));
    await expect(openLocalKeyCipher(dir, { keyring: unreachableKeyring, keysStored: true })).rejects.toThrow(VaultKeyUnavailableError);
    await expect(openLocalKeyCipher(dir, { keyring: memoryKeyring(), keysStored: true })).rejects.toThrow(/the keyring no longer holds it/);
    // Nothing stored yet: a first start without a keyring takes a key file.
    expect((await openLocalKeyCipher(dir, { keyring: unreachableKeyring, keysStored: false })).protection).toBe('key-file');
  });

  it('starts with a new key when the user says the old one is gone for good, and the keyring works again after', async () => {
    const keyring = memoryKeyring();
    const data = await (await openLocalKeyCipher(dir, { keyring })).encrypt('stored-earlier', 'conn-a');
    const log: string[] = [];
    const fresh = await openLocalKeyCipher(dir, { keyring: null, newVaultKey: true, log: (message) => log.push(message) });
    expect(fresh.protection).toBe('key-file');
    await expect(fresh.decrypt(data, 'conn-a')).rejects.toThrow();
    expect(log).toEqual(['The OS keyring cannot keep the vault key, so a key file only this user can read keeps it']);
    expect(await readdir(dir)).toEqual(['vault.key']);
    // Back with a keyring, the key file's key moves into it.
    const moved = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    const again = await fresh.encrypt('after', 'conn-a');
    await expect(moved.decrypt(again, 'conn-a')).resolves.toBe('after');
  });
});

describe('openLocalKeyCipher without a keyring', () => {
  it.each([
    ['is unreachable', unreachableKeyring],
    ['refuses writes', deniedKeyring],
    ['is absent', null],
  ])('uses a key file readable only by the user when the keyring %s', async (_case, keyring) => {
    const cipher = await openLocalKeyCipher(dir, { keyring });
    expect(cipher.protection).toBe('key-file');
    expect(cipher.needsConsent).toBe(false);
    const file = path.join(dir, 'vault.key');
    expect(Buffer.from(await readFile(file, 'utf8'), 'base64')).toHaveLength(32);
    if (posix) expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('finds the same key file on the next start', async () => {
    const first = await openLocalKeyCipher(dir, { keyring: null });
    const data = await first.encrypt('my-api-key', 'conn-a');
    const second = await openLocalKeyCipher(dir, { keyring: unreachableKeyring });
    await expect(second.decrypt(data, 'conn-a')).resolves.toBe('my-api-key');
  });

  it('gives two hosts starting at once the same key', async () => {
    const [one, two] = await Promise.all([
      openLocalKeyCipher(dir, { keyring: null }),
      openLocalKeyCipher(dir, { keyring: null }),
    ]);
    const data = await one.encrypt('shared', 'conn-a');
    await expect(two.decrypt(data, 'conn-a')).resolves.toBe('shared');
    expect((await readdir(dir)).sort()).toEqual(['vault.key']);
  });

  // Windows has no permission bits to loosen or tighten: the key file's ACL is the user's profile's.
  it.runIf(posix)('makes a key file that others could read private again', async () => {
    await openLocalKeyCipher(dir, { keyring: null });
    const file = path.join(dir, 'vault.key');
    await chmod(file, 0o644);
    await openLocalKeyCipher(dir, { keyring: null });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('sets an unreadable key file aside and makes a new key', async () => {
    await writeFile(path.join(dir, 'vault.key'), 'garbage');
    const cipher = await openLocalKeyCipher(dir, { keyring: null });
    expect(cipher.protection).toBe('key-file');
    const names = await readdir(dir);
    expect(names).toContain('vault.key');
    const aside = names.find((name) => name.startsWith('vault.key.invalid-'));
    expect(aside).toBeDefined();
    expect(await readFile(path.join(dir, aside ?? ''), 'utf8')).toBe('garbage');
  });

  it('creates the user-data folder when it does not exist yet', async () => {
    const nested = path.join(dir, 'a', 'b');
    const cipher = await openLocalKeyCipher(nested, { keyring: null });
    expect(cipher.protection).toBe('key-file');
    expect(await readdir(nested)).toEqual(['vault.key']);
  });
});

describe('the AES-256-GCM ciphertext', () => {
  it('is iv(12) || tag(16) || data and differs each time', async () => {
    const cipher = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    const one = await cipher.encrypt('abcdef', 'conn-a');
    const two = await cipher.encrypt('abcdef', 'conn-a');
    expect(one).toHaveLength(12 + 16 + 6);
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(false);
  });

  it('binds the connection id, so a ciphertext cannot be moved to another connection', async () => {
    const cipher = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    const data = await cipher.encrypt('key-of-a', 'conn-a');
    await expect(cipher.decrypt(data, 'conn-b')).rejects.toThrow();
  });

  it('refuses tampered or truncated data', async () => {
    const cipher = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    const data = await cipher.encrypt('key-of-a', 'conn-a');
    const tampered = Uint8Array.from(data);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    await expect(cipher.decrypt(tampered, 'conn-a')).rejects.toThrow();
    await expect(cipher.decrypt(data.subarray(0, 20), 'conn-a')).rejects.toThrow();
  });

  it('does not decrypt with another vault key', async () => {
    const mine = await openLocalKeyCipher(dir, { keyring: memoryKeyring() });
    const theirs = await openLocalKeyCipher(path.join(dir, 'other'), { keyring: memoryKeyring() });
    const data = await mine.encrypt('key-of-a', 'conn-a');
    await expect(theirs.decrypt(data, 'conn-a')).rejects.toThrow();
  });
});
