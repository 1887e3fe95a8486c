import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisioningRequestOf, readKeyFile } from '../../../electron/provisioning';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'provisioning-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('provisioningRequestOf', () => {
  it('takes both options or neither', () => {
    expect(provisioningRequestOf({})).toBeUndefined();
    expect(provisioningRequestOf({ connect: 'https://api.example.org', 'key-file': '/k' })).toEqual({
      baseUrl: 'https://api.example.org',
      keyFile: '/k',
    });
    expect(() => provisioningRequestOf({ connect: 'https://api.example.org' })).toThrow(/go together/);
    expect(() => provisioningRequestOf({ 'key-file': '/k' })).toThrow(/go together/);
  });
});

describe('readKeyFile', () => {
  it('reads the key without the line break editors add', async () => {
    const file = path.join(dir, 'key');
    await writeFile(file, '  abc-DEF_123\n');
    expect(await readKeyFile(file)).toBe('abc-DEF_123');
  });

  it('refuses an empty, missing or multi-key file with a message naming the file', async () => {
    const empty = path.join(dir, 'empty');
    await writeFile(empty, '\n');
    await expect(readKeyFile(empty)).rejects.toThrow(`${empty} is empty`);
    await expect(readKeyFile(path.join(dir, 'missing'))).rejects.toThrow(/cannot be read \(ENOENT\)/);
    const two = path.join(dir, 'two');
    await writeFile(two, 'first\nsecond\n');
    await expect(readKeyFile(two)).rejects.toThrow(/more than one key/);
  });
});
