import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInsideFolder, readInsideFolder, UnsafeFileError } from '../../../../electron/dropfolders/file-access';

let root: string;
let drop: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cd-file-access-'));
  drop = path.join(root, 'drop');
  outside = path.join(root, 'outside');
  await mkdir(path.join(drop, 'Building A'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.ifc'), 'not for the server');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function contentOf(relativeKey: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of readInsideFolder(drop, relativeKey, 4)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function reasonOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'opened',
    (error: unknown) => (error instanceof UnsafeFileError ? error.reason : ((error as NodeJS.ErrnoException).code ?? String(error))),
  );
}

describe('files of a drop folder', () => {
  it('reads a file of the folder itself, in a subfolder too', async () => {
    await writeFile(path.join(drop, 'Building A', 'model.ifc'), 'ISO-10303-21;');
    expect(await contentOf('Building A/model.ifc')).toBe('ISO-10303-21;');
  });

  it('refuses a hard link to a file outside the folder, after opening it', async () => {
    await link(path.join(outside, 'secret.ifc'), path.join(drop, 'model.ifc'));
    expect(await reasonOf(openInsideFolder(drop, 'model.ifc'))).toBe('hard-link');
    expect(await reasonOf(contentOf('model.ifc'))).toBe('hard-link');
  });

  // Creating symbolic links on Windows needs an administrator or developer mode, which a test cannot assume.
  it.skipIf(process.platform === 'win32')('refuses a file below a folder that is a symbolic link, which O_NOFOLLOW lets through', async () => {
    await symlink(outside, path.join(drop, 'Building B'), 'dir');
    expect(await reasonOf(openInsideFolder(drop, 'Building B/secret.ifc'))).toBe('linked-folder');
  });

  // As above: a symbolic link cannot be made on Windows without an administrator or developer mode.
  it.skipIf(process.platform === 'win32')('never opens a symbolic link in the file’s place', async () => {
    await symlink(path.join(outside, 'secret.ifc'), path.join(drop, 'model.ifc'));
    expect(await reasonOf(openInsideFolder(drop, 'model.ifc'))).toBe('ELOOP');
  });
});
