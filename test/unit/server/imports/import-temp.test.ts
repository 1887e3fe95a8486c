/**
 * Temporary folders of imports (import-temp.ts): one per import under a root, removed on demand; at a start, the
 * folders of dead processes go and those of live ones stay.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportTempFolder, folderBytes, removeLeftoverImportFolders } from '../../../../server/imports/import-temp';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'import-temp-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const host = hostname().replace(/[^A-Za-z0-9.-]/gu, '_') || 'host';

/** The pid of a process that ran and ended. */
function deadPid(): number {
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(ended.stdout);
}

describe('import temporary folders', () => {
  it('are made one per import and removed with their files', async () => {
    const first = await createImportTempFolder(root);
    const second = await createImportTempFolder(root);
    expect(first.path).not.toBe(second.path);
    await mkdir(path.join(first.path, 'nested'));
    await writeFile(path.join(first.path, 'nested', 'part'), Buffer.alloc(3000));
    await writeFile(path.join(first.path, 'spool'), Buffer.alloc(1000));
    expect(await folderBytes(first.path)).toBe(4000);
    await first.remove();
    await second.remove();
    expect(await readdir(root)).toEqual([]);
    expect(await folderBytes(first.path)).toBe(0);
  });

  it("left by a dead process are removed at a start; a live process's and other names stay", async () => {
    const dead = path.join(root, `${host}~${deadPid()}~abc123-x1`);
    const live = path.join(root, `${host}~${process.ppid}~abc123-x2`);
    const otherHost = path.join(root, `elsewhere-host~${deadPid()}~abc123-x3`);
    const samePidEarlierProcess = path.join(root, `${host}~${process.pid}~0000000000-x4`);
    const unrelated = path.join(root, 'notes');
    for (const folder of [dead, live, otherHost, samePidEarlierProcess, unrelated]) await mkdir(folder);
    await writeFile(path.join(dead, 'tmp-spool'), Buffer.alloc(1000));
    const running = await createImportTempFolder(root);

    expect(await removeLeftoverImportFolders(root)).toBe(2);
    expect((await readdir(root)).sort()).toEqual([path.basename(live), path.basename(otherHost), path.basename(running.path), 'notes'].sort());
    await running.remove();
  });

  it('a missing root has nothing to remove', async () => {
    expect(await removeLeftoverImportFolders(path.join(root, 'absent'))).toBe(0);
  });
});
