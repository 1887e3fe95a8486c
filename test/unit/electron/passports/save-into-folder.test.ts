import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeSaveError,
  placeExclusively,
  saveIntoFolder,
  SaveError,
  type PlaceFunction,
  type SaveIntoFolderOptions,
  type WriteOutcome,
} from '../../../../electron/passports/save-into-folder';

const NAME = 'Huis - passport - 2024-05-07.pdf';
let scratch: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'cd-save-'));
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A writer of `content` in two chunks, as a download writes it. */
function writing(content: string): SaveIntoFolderOptions<string>['write'] {
  return (destination) =>
    new Promise<WriteOutcome<string>>((resolve, reject) => {
      const half = Math.floor(content.length / 2);
      destination.write(content.slice(0, half), (error) => {
        if (error) return reject(error);
        destination.end(content.slice(half), () => resolve({ kind: 'written' }));
      });
    });
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** A placement that meets a lock `times` times, then places; it records every call. */
function lockedPlace(times: number, code = 'EBUSY'): PlaceFunction & { calls: number } {
  const fn = Object.assign(
    async (from: string, to: string) => {
      fn.calls += 1;
      if (fn.calls <= times) throw errno(code);
      await placeExclusively(from, to);
    },
    { calls: 0 },
  );
  return fn;
}

function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

describe('saveIntoFolder', () => {
  it('writes through a hidden temporary file that it links into place', async () => {
    const folder = path.join(scratch, 'deep', 'passports');
    let temporary = '';
    const result = await saveIntoFolder({
      folder,
      fileName: NAME,
      beforeCreate: async (file) => {
        temporary = file;
        expect(existsSync(file)).toBe(false);
      },
      write: writing('%PDF-1.7 content'),
    });
    expect(result).toEqual({ kind: 'saved', path: path.join(folder, NAME), bytes: 16, existing: false });
    expect(path.dirname(temporary)).toBe(folder);
    expect(path.basename(temporary)).toMatch(/^\.Huis - passport - 2024-05-07\.pdf\.[0-9a-f]{12}\.part$/);
    expect(await readdir(folder)).toEqual([NAME]);
    expect(await readFile(path.join(folder, NAME), 'utf8')).toBe('%PDF-1.7 content');
  });

  it('numbers the name when it holds other content, and reuses it when it holds the same', async () => {
    await writeFile(path.join(scratch, NAME), 'another passport');
    const second = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('this passport') });
    expect(second).toMatchObject({ kind: 'saved', path: path.join(scratch, 'Huis - passport - 2024-05-07 (2).pdf'), existing: false });
    const again = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('this passport') });
    expect(again).toMatchObject({ kind: 'saved', path: path.join(scratch, 'Huis - passport - 2024-05-07 (2).pdf'), existing: true });
    const third = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('a third one') });
    expect(third).toMatchObject({ path: path.join(scratch, 'Huis - passport - 2024-05-07 (3).pdf') });
    expect((await readdir(scratch)).sort()).toEqual(
      [NAME, 'Huis - passport - 2024-05-07 (2).pdf', 'Huis - passport - 2024-05-07 (3).pdf'].sort(),
    );
    expect(await readFile(path.join(scratch, NAME), 'utf8')).toBe('another passport');
  });

  it('never replaces a file: saves racing for one name each get their own', async () => {
    const contents = Array.from({ length: 12 }, (_, index) => `passport number ${index}`);
    const results = await Promise.all(contents.map((content) => saveIntoFolder({ folder: scratch, fileName: NAME, write: writing(content) })));
    const paths = results.map((result) => (result.kind === 'saved' ? result.path : ''));
    expect(new Set(paths).size).toBe(contents.length);
    for (const [index, file] of paths.entries()) expect(await readFile(file, 'utf8')).toBe(contents[index]);
    expect((await readdir(scratch)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('takes the next name when a file appears under the name just before it is placed', async () => {
    const appearing: PlaceFunction = async (from, to) => {
      if (to === path.join(scratch, NAME)) await writeFile(to, 'saved by the user meanwhile');
      await placeExclusively(from, to);
    };
    const result = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('the passport'), place: appearing });
    expect(result).toMatchObject({ kind: 'saved', path: path.join(scratch, 'Huis - passport - 2024-05-07 (2).pdf'), existing: false });
    expect(await readFile(path.join(scratch, NAME), 'utf8')).toBe('saved by the user meanwhile');
    expect(await readFile(path.join(scratch, 'Huis - passport - 2024-05-07 (2).pdf'), 'utf8')).toBe('the passport');
  });

  it('skips a name taken by a folder', async () => {
    await mkdir(path.join(scratch, NAME));
    const result = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('x') });
    expect(result).toMatchObject({ path: path.join(scratch, 'Huis - passport - 2024-05-07 (2).pdf') });
  });

  it('retries a placement blocked by a lock with growing waits, then succeeds', async () => {
    const place = lockedPlace(4, 'EBUSY');
    const { sleep, waits } = recordingSleep();
    const result = await saveIntoFolder({
      folder: scratch,
      fileName: NAME,
      write: writing('locked for a while'),
      place,
      sleep,
      placeRetry: { attempts: 6, firstDelayMs: 100, maxDelayMs: 500 },
    });
    expect(result).toMatchObject({ kind: 'saved', path: path.join(scratch, NAME) });
    expect(place.calls).toBe(5);
    expect(waits).toEqual([100, 200, 400, 500]);
    expect(await readdir(scratch)).toEqual([NAME]);
  });

  it('gives up on a lock that stays, with a message that says so, and removes the temporary file', async () => {
    const place = lockedPlace(Number.POSITIVE_INFINITY, 'EPERM');
    const { sleep } = recordingSleep();
    const saving = saveIntoFolder({
      folder: scratch,
      fileName: NAME,
      write: writing('never placed'),
      place,
      sleep,
      placeRetry: { attempts: 3, firstDelayMs: 1, maxDelayMs: 1 },
    });
    await expect(saving).rejects.toThrow(SaveError);
    await expect(saving).rejects.toMatchObject({ code: 'EPERM' });
    await expect(saving).rejects.toThrow(/stayed locked by another program \(EPERM\) through 3 attempts/);
    expect(place.calls).toBe(3);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('does not retry a placement that fails for another reason', async () => {
    const place = lockedPlace(Number.POSITIVE_INFINITY, 'EXDEV');
    await expect(saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('x'), place })).rejects.toMatchObject({ code: 'EXDEV' });
    expect(place.calls).toBe(1);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('stops waiting for a lock when aborted, leaving nothing behind', async () => {
    const controller = new AbortController();
    const place: PlaceFunction = async () => {
      controller.abort();
      throw errno('EBUSY');
    };
    const result = await saveIntoFolder({ folder: scratch, fileName: NAME, write: writing('x'), place, signal: controller.signal });
    expect(result).toEqual({ kind: 'aborted' });
    expect(await readdir(scratch)).toEqual([]);
  });

  it('removes the temporary file when the writer gives up', async () => {
    const result = await saveIntoFolder<string>({
      folder: scratch,
      fileName: NAME,
      write: async (destination) => {
        destination.write('half of it');
        return { kind: 'not-written', failure: 'offline' };
      },
    });
    expect(result).toEqual({ kind: 'not-written', failure: 'offline' });
    expect(await readdir(scratch)).toEqual([]);
  });

  it('turns a failed write into a SaveError and leaves nothing under the final name', async () => {
    const saving = saveIntoFolder({
      folder: scratch,
      fileName: NAME,
      write: async (destination) => {
        destination.write('some bytes');
        throw errno('ENOSPC');
      },
    });
    await expect(saving).rejects.toThrow(`The disk that holds ${scratch} is full (ENOSPC); the passport was not saved.`);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('says so when a part of the folder path is a file', async () => {
    const file = path.join(scratch, 'a-file');
    await writeFile(file, 'not a folder');
    const folder = path.join(file, 'passports');
    const saving = saveIntoFolder({ folder, fileName: NAME, write: writing('x') });
    await expect(saving).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(saving).rejects.toThrow(`${folder} cannot be used as a folder (ENOTDIR): a part of that path is a file, not a folder.`);
    await expect(saveIntoFolder({ folder: file, fileName: NAME, write: writing('x') })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readdir(scratch)).toEqual(['a-file']);
  });
});

describe('describeSaveError', () => {
  it('words each file-system failure for the user', () => {
    expect(describeSaveError(errno('EACCES'), '/srv/p')).toBe(
      '/srv/p cannot be written to (EACCES): the app has no permission to create files there.',
    );
    expect(describeSaveError(errno('EROFS'), '/srv/p')).toBe('/srv/p is on a read-only disk (EROFS); the passport was not saved.');
    expect(describeSaveError(errno('ENOENT'), 'Z:\\p')).toBe('Z:\\p cannot be reached (ENOENT): is its drive or network share connected?');
    expect(describeSaveError(new Error('odd'), '/srv/p')).toBe('Saving the passport in /srv/p failed (unknown error): odd');
  });
});
