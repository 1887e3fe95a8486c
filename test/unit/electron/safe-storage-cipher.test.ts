import type { SafeStorage } from 'electron';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BridgeError } from '../../../shared/ipc';
import { safeStorageCipher, type SafeStorageLike } from '../../../electron/safe-storage-cipher';

const MARK = Buffer.from('fake-os:');

/** Reversible stand-in for the OS: XOR with a fixed byte behind a marker; refuses data without the marker. */
function scramble(plain: string): Buffer {
  return Buffer.concat([MARK, Buffer.from(plain, 'utf8').map((byte) => byte ^ 0x5a)]);
}

function unscramble(data: Buffer): string {
  if (!data.subarray(0, MARK.length).equals(MARK)) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  return Buffer.from(data.subarray(MARK.length).map((byte) => byte ^ 0x5a)).toString('utf8');
}

/** A synchronous-only safeStorage, as before Electron's asynchronous API. */
function fakeSafeStorage(backend?: string, available = true): SafeStorageLike & { backend?: string } {
  const fake: SafeStorageLike & { backend?: string } = {
    backend,
    isEncryptionAvailable: () => available,
    encryptString: scramble,
    decryptString: unscramble,
  };
  if (backend !== undefined) fake.getSelectedStorageBackend = () => fake.backend ?? 'unknown';
  return fake;
}

describe('safeStorageCipher', () => {
  it('accepts the safeStorage object of Electron 45 as it is', () => {
    expectTypeOf<SafeStorage>().toExtend<SafeStorageLike>();
  });

  it.each<[NodeJS.Platform, string | undefined]>([
    ['win32', undefined],
    ['darwin', undefined],
    ['linux', 'gnome_libsecret'],
    ['linux', 'kwallet6'],
  ])('encrypts with the OS on %s (backend %s) without asking for consent', (platform, backend) => {
    const cipher = safeStorageCipher(fakeSafeStorage(backend), platform);
    expect(cipher.protection).toBe('os-encryption');
    expect(cipher.needsConsent).toBe(false);
  });

  it.each([['basic_text'], ['unknown']])('only obfuscates on Linux with the %s backend, so it needs consent', (backend) => {
    const cipher = safeStorageCipher(fakeSafeStorage(backend), 'linux');
    expect(cipher.protection).toBe('basic-text');
    expect(cipher.needsConsent).toBe(true);
  });

  it('does not vouch for a Linux safeStorage that cannot name its backend', () => {
    const cipher = safeStorageCipher(fakeSafeStorage(undefined), 'linux');
    expect(cipher.protection).toBe('basic-text');
  });

  it('reads the backend when asked, so a cipher made before the app is ready reports the real one', () => {
    const safeStorage = fakeSafeStorage('unknown');
    const cipher = safeStorageCipher(safeStorage, 'linux');
    expect(cipher.needsConsent).toBe(true);
    safeStorage.backend = 'kwallet5';
    expect(cipher.protection).toBe('os-encryption');
    expect(cipher.needsConsent).toBe(false);
  });

  it('round-trips a key through the synchronous API and never stores it in the clear', async () => {
    const cipher = safeStorageCipher(fakeSafeStorage('gnome_libsecret'), 'linux');
    const data = await cipher.encrypt('secret-key-123', 'conn-a');
    expect(Buffer.from(data).toString('utf8')).not.toContain('secret-key-123');
    await expect(cipher.decrypt(data, 'conn-a')).resolves.toBe('secret-key-123');
  });

  it('prefers the asynchronous API when Electron offers it', async () => {
    const calls: string[] = [];
    const safeStorage: SafeStorageLike = {
      isEncryptionAvailable: () => {
        throw new Error('deprecated method used');
      },
      encryptString: () => {
        throw new Error('deprecated method used');
      },
      decryptString: () => {
        throw new Error('deprecated method used');
      },
      isAsyncEncryptionAvailable: async () => {
        calls.push('available');
        return true;
      },
      encryptStringAsync: async (plain) => {
        calls.push('encrypt');
        return scramble(plain);
      },
      decryptStringAsync: async (data) => {
        calls.push('decrypt');
        return { shouldReEncrypt: false, result: unscramble(data) };
      },
    };
    const cipher = safeStorageCipher(safeStorage, 'win32');
    const data = await cipher.encrypt('async-key', 'conn-a');
    await expect(cipher.decrypt(data, 'conn-a')).resolves.toBe('async-key');
    expect(calls).toEqual(['available', 'encrypt', 'decrypt']);
  });

  it('refuses a ciphertext that was made for another connection', async () => {
    const cipher = safeStorageCipher(fakeSafeStorage(), 'darwin');
    const data = await cipher.encrypt('key-of-a', 'conn-a');
    await expect(cipher.decrypt(data, 'conn-b')).rejects.toThrow();
  });

  it('refuses data the OS cannot decrypt', async () => {
    const cipher = safeStorageCipher(fakeSafeStorage(), 'darwin');
    await expect(cipher.decrypt(new Uint8Array([1, 2, 3]), 'conn-a')).rejects.toThrow();
  });

  it('says so when the OS cannot encrypt right now', async () => {
    const cipher = safeStorageCipher(fakeSafeStorage('gnome_libsecret', false), 'linux');
    const failure = await cipher.encrypt('the-key', 'conn-a').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BridgeError);
    expect((failure as BridgeError).code).toBe('storage-failed');
    expect((failure as BridgeError).message).not.toContain('the-key');
  });
});
