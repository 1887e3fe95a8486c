import { appendFile, chmod, mkdtemp, open, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCheck, waitUntilComplete, type CompletenessFs } from '../../../../electron/dropfolders/completeness';

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
function lockingFs(flags: string, code: string, times: number): CompletenessFs & { opens: string[] } {
  const opens: string[] = [];
  let refused = 0;
  return {
    opens,
    stat,
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
    expect(fs.opens).toEqual(['r+', 'r+', 'r+']);
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
    expect(fs.opens).toEqual(['r']);
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
    expect(fs.opens).toEqual(['r+', 'r']);
  });

  it('answers gone for a missing file', async () => {
    expect(await openCheck(path.join(folder, 'missing.ifc'), 'win32')).toBe('gone');
    expect(await openCheck(path.join(folder, 'missing.ifc'), 'linux')).toBe('gone');
  });
});
