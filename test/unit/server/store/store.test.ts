import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileIn } from '../../../../server/store/store';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const created = await mkdtemp(path.join(tmpdir(), 'cd-store-'));
  folders.push(created);
  return created;
}

async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

// Windows has no POSIX modes (NTFS ACLs guard the folder), so there is nothing to read there.
describe.skipIf(process.platform === 'win32')('openDatabase in a data folder', () => {
  it('creates the folder 0700 and the database with its journal files 0600: the signing secret is in it', async () => {
    const dataDir = path.join(await folder(), 'data');
    const database = await openDatabase(dataDir);
    try {
      await sql`select 1`.execute(database.db);
      expect(await modeOf(dataDir)).toBe(0o700);
      const files = await readdir(dataDir);
      expect(files).toContain(path.basename(sqliteFileIn(dataDir)));
      for (const file of files) expect([file, await modeOf(path.join(dataDir, file))]).toEqual([file, 0o600]);
    } finally {
      await database.close();
    }
  });

  it('makes a data folder and a database of an earlier start private', async () => {
    const dataDir = path.join(await folder(), 'data');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(sqliteFileIn(dataDir), '', { mode: 0o644 });
    await chmod(sqliteFileIn(dataDir), 0o644);
    const database = await openDatabase(dataDir);
    await database.close();
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(sqliteFileIn(dataDir))).toBe(0o600);
  });
});
