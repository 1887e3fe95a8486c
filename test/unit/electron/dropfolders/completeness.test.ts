import { appendFile, chmod, lstat, mkdtemp, open, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCheck, waitUntilComplete, type CompletenessFs } from '../../../../electron/dropfolders/completeness';
import { READ_WITHOUT_FOLLOWING } from '../../../../electron/dropfolders/file-access';

let folder: string;
let file: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-complete-'));
  file = path.join(folder, 'model.ifc');
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A sleep that plays what happens to the file while the check waits: one step per wait, then nothing. */
function scriptedSleep(steps: (() => Promise<void>)[]): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms) => {
      const step = steps[waits.length];
      waits.push(ms);
      await step?.();
    },
  };
}

/** The real file system, with an open that fails with `code` for the first `times` opens with `flags`. */
function lockingFs(flags: string | number, code: string, times: number): CompletenessFs & { opens: (string | number)[] } {
  const opens: (string | number)[] = [];
  let refused = 0;
  return {
    opens,
    lstat,
    open: async (target, requested) => {
      opens.push(requested);
      if (requested === flags && refused < times) {
        refused += 1;
        throw Object.assign(new Error(`${code}: held by another program`), { code });
      }
      return open(target, requested);
    },
  };
}

describe('waitUntilComplete', () => {
  it('waits while the file grows and answers its final size once it stayed the same over a wait', async () => {
    await writeFile(file, 'a');
    const { sleep, waits } = scriptedSleep([() => appendFile(file, 'bb'), () => appendFile(file, 'ccc'), () => appendFile(file, 'dddd')]);
    const result = await waitUntilComplete(file, { stableMs: 500, sleep, platform: 'linux' });
    expect(result).toMatchObject({ kind: 'complete', stamp: { size: 10 } });
    expect(waits).toEqual([500, 500, 500, 500]);
  });

  it('takes a new modification time at the same size for a change', async () => {
    await writeFile(file, 'same size');
    const later = async (): Promise<void> => {
      const { mtime } = await stat(file);
      await utimes(file, mtime, new Date(mtime.getTime() + 5_000));
    };
    const { sleep, waits } = scriptedSleep([later]);
    const result = await waitUntilComplete(file, { stableMs: 10, sleep, platform: 'linux' });
    expect(result.kind).toBe('complete');
    expect(waits).toHaveLength(2);
  });

  it('on Windows waits while another program holds the file open for writing', async () => {
    await writeFile(file, 'content');
    const fs = lockingFs('r+', 'EBUSY', 2);
    const { sleep, waits } = scriptedSleep([]);
    const result = await waitUntilComplete(file, { stableMs: 10, sleep, platform: 'win32', fs });
    expect(result.kind).toBe('complete');
    // Each refused open for writing is followed by one for reading, which tells a lock from a file that may not be read.
    expect(fs.opens).toEqual(['r+', READ_WITHOUT_FOLLOWING, 'r+', READ_WITHOUT_FOLLOWING, 'r+']);
    expect(waits).toHaveLength(3);
  });

  it('answers gone for a file removed during the wait, and empty for one that stays empty', async () => {
    await writeFile(file, 'soon gone');
    const removing = scriptedSleep([() => rm(file)]);
    expect(await waitUntilComplete(file, { stableMs: 10, sleep: removing.sleep, platform: 'linux' })).toEqual({ kind: 'gone' });
    expect(await waitUntilComplete(path.join(folder, 'never.ifc'), { stableMs: 10, sleep: removing.sleep })).toEqual({ kind: 'gone' });

    await writeFile(file, '');
    expect(await waitUntilComplete(file, { stableMs: 10, sleep: scriptedSleep([]).sleep, platform: 'linux' })).toEqual({ kind: 'empty' });
  });

  it('answers unreadable at once for a file this account may not read, instead of waiting for it as if it were locked', async (context) => {
    context.skip(process.getuid?.() === 0, 'root reads any file whatever its mode: there is nothing to refuse');
    await writeFile(file, 'secret');
    await chmod(file, 0o000);
    const { sleep, waits } = scriptedSleep([]);
    expect(await waitUntilComplete(file, { stableMs: 10, sleep, platform: process.platform })).toEqual({ kind: 'unreadable' });
    expect(waits).toHaveLength(1);
  });

  it('answers gone for a symbolic link, whatever it points to', async () => {
    await writeFile(file, 'content');
    const link = path.join(folder, 'link.ifc');
    await symlink(file, link);
    expect(await waitUntilComplete(link, { stableMs: 10, sleep: scriptedSleep([]).sleep, platform: 'linux' })).toEqual({ kind: 'gone' });
  });

  it('answers stopped when the wait is aborted', async () => {
    await writeFile(file, 'content');
    const controller = new AbortController();
    const sleep = async (): Promise<void> => controller.abort();
    expect(await waitUntilComplete(file, { stableMs: 10, sleep, signal: controller.signal })).toEqual({ kind: 'stopped' });
  });
});

describe('openCheck', () => {
  it('opens for reading only, outside Windows', async () => {
    await writeFile(file, 'content');
    const fs = lockingFs('r+', 'EBUSY', 99);
    expect(await openCheck(file, 'darwin', fs)).toBe('free');
    expect(fs.opens).toEqual([READ_WITHOUT_FOLLOWING]);
  });

  it('on Windows counts EBUSY, EPERM and EACCES of a writable file as locked', async () => {
    await writeFile(file, 'content');
    for (const code of ['EBUSY', 'EPERM', 'EACCES']) {
      expect(await openCheck(file, 'win32', lockingFs('r+', code, 1))).toBe('locked');
    }
  });

  it('on Windows reads a read-only file with a plain open instead', async () => {
    await writeFile(file, 'content');
    await chmod(file, 0o444);
    const fs = lockingFs('r+', 'EPERM', 99);
    expect(await openCheck(file, 'win32', fs)).toBe('free');
    expect(fs.opens).toEqual(['r+', READ_WITHOUT_FOLLOWING]);
  });

  it('answers unreadable, not locked, for a file this account may not open for reading', async () => {
    await writeFile(file, 'content');
    for (const code of ['EACCES', 'EPERM']) {
      expect(await openCheck(file, 'linux', lockingFs(READ_WITHOUT_FOLLOWING, code, 99))).toBe('unreadable');
      const windows = lockingFs(READ_WITHOUT_FOLLOWING, code, 99);
      windows.open = async (target, requested) => {
        windows.opens.push(requested);
        throw Object.assign(new Error(`${code}: access denied`), { code });
      };
      expect(await openCheck(file, 'win32', windows)).toBe('unreadable');
      expect(windows.opens).toEqual(['r+', READ_WITHOUT_FOLLOWING]);
    }
  });

  it('answers gone for a symbolic link, without opening what it points to', async () => {
    await writeFile(file, 'content');
    const link = path.join(folder, 'link.ifc');
    await symlink(file, link);
    expect(await openCheck(link, 'linux')).toBe('gone');
  });

  it('answers gone for a missing file', async () => {
    expect(await openCheck(path.join(folder, 'missing.ifc'), 'win32')).toBe('gone');
    expect(await openCheck(path.join(folder, 'missing.ifc'), 'linux')).toBe('gone');
  });
});
