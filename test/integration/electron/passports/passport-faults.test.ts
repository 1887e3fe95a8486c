import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueuedClient } from '../../../../electron/http/queued-client';
import type { PassportDocument } from '../../../../electron/passports/passport-model';
import { startPassportService } from '../../../../electron/passports/passport-service';
import { placeExclusively, type PlaceFunction } from '../../../../electron/passports/save-into-folder';
import type { BuildingFileResponse } from '../../../../shared/api/schemas';
import {
  CONNECTION,
  createBuilding,
  importIfc,
  queuedClient,
  scratchFolder,
  startPassportServer,
  startService,
  until,
  type PassportServer,
  type ServiceUnderTest,
} from './harness';

let server: PassportServer;
let scratch: string;
let buildingId: string;
const running: ServiceUnderTest[] = [];

beforeAll(async () => {
  server = await startPassportServer();
  scratch = await scratchFolder('cd-passport-faults-');
  ({ buildingId } = await createBuilding(server, 'Gebouw Slot'));
  await importIfc(server, buildingId);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.close()));
});

afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

async function started(stateDir: string, options: Parameters<typeof startService>[2] = {}): Promise<ServiceUnderTest> {
  const under = await startService(server, stateDir, options);
  running.push(under);
  return under;
}

async function addPdfTarget(under: ServiceUnderTest, folder: string): Promise<string> {
  const target = await under.service.addTarget({
    connectionId: CONNECTION,
    subject: { kind: 'building', id: buildingId },
    folder,
    formats: ['pdf'],
    language: 'en',
    requestOnMapped: false,
  });
  return target.id;
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: resource busy or locked`), { code });
}

/** Every file under `folder`, as paths relative to it. */
async function allFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name))).sort();
}

describe('a placement that a lock blocks', () => {
  it('is retried with growing waits until the lock is gone', async () => {
    let calls = 0;
    const lockedThrice: PlaceFunction = async (from, to) => {
      calls += 1;
      if (calls <= 3) throw errno('EBUSY');
      await placeExclusively(from, to);
    };
    const waits: number[] = [];
    const folder = path.join(scratch, 'busy');
    const under = await started(path.join(scratch, 'state-busy'), {
      place: lockedThrice,
      sleep: async (ms) => void waits.push(ms),
    });
    await under.service.request(await addPdfTarget(under, folder));
    const [entry] = await under.settled(1);
    expect(entry).toMatchObject({ state: 'downloaded', error: null });
    expect(calls).toBe(4);
    expect(waits).toEqual([100, 200, 400]);
    expect(await allFiles(folder)).toEqual([path.basename(entry?.filePath ?? '')]);
  });

  it('fails with a clear message when the lock stays, leaves no temporary file, and can be retried', async () => {
    let locked = true;
    let calls = 0;
    const lockable: PlaceFunction = async (from, to) => {
      calls += 1;
      if (locked) throw errno('EBUSY');
      await placeExclusively(from, to);
    };
    const folder = path.join(scratch, 'locked');
    const under = await started(path.join(scratch, 'state-locked'), {
      place: lockable,
      placeRetry: { attempts: 5, firstDelayMs: 1, maxDelayMs: 1 },
    });
    await under.service.request(await addPdfTarget(under, folder));
    const [entry] = await under.settled(1);
    expect(entry?.state).toBe('failed');
    expect(entry?.error).toMatch(
      /^The passport could not be moved into place as .+\.pdf: the file or its folder stayed locked by another program \(EBUSY\) through 5 attempts\./,
    );
    expect(calls).toBe(5);
    expect(await allFiles(folder)).toEqual([]);

    locked = false;
    await under.service.retry(entry?.id ?? '');
    const [again] = await under.settled(1);
    expect(again).toMatchObject({ id: entry?.id, state: 'downloaded', error: null });
    expect(await allFiles(folder)).toEqual([path.basename(again?.filePath ?? '')]);
  });
});

describe('a passport over the size cap', () => {
  it('is cut off and fails with a clear message, leaving no file behind', async () => {
    const folder = path.join(scratch, 'capped');
    const under = await started(path.join(scratch, 'state-capped'), { maxDownloadBytes: 1024 });
    await under.service.request(await addPdfTarget(under, folder));
    const [entry] = await under.settled(1);
    expect(entry).toMatchObject({
      state: 'failed',
      error: 'The passport is larger than 1024 bytes, the most the app downloads: its download was stopped and nothing was saved.',
    });
    expect(await allFiles(folder)).toEqual([]);
  });
});

describe('a folder that cannot be written', () => {
  it('fails with a clear message and nothing half-written, and works once the folder can be made', async () => {
    // Root may write anywhere, so the folder is made impossible instead: a part of its path is a file.
    const blocker = path.join(scratch, 'not-a-folder');
    await writeFile(blocker, 'a file where a folder should be');
    const folder = path.join(blocker, 'passports');
    const under = await started(path.join(scratch, 'state-unwritable'));
    await under.service.request(await addPdfTarget(under, folder));
    const [entry] = await under.settled(1);
    expect(entry?.state).toBe('failed');
    expect(entry?.error).toBe(`${folder} cannot be used as a folder (ENOTDIR): a part of that path is a file, not a folder.`);
    expect(await readFile(blocker, 'utf8')).toBe('a file where a folder should be');
    expect((await allFiles(scratch)).filter((file) => file.endsWith('.part'))).toEqual([]);

    await rm(blocker);
    await under.service.retry(entry?.id ?? '');
    const [again] = await under.settled(1);
    expect(again?.state).toBe('downloaded');
    expect(await allFiles(folder)).toEqual([path.basename(again?.filePath ?? '')]);
  });
});

describe('a crash in the middle of a download', () => {
  it('leaves nothing under the final name, and the next start downloads the passport again, once', async () => {
    const stateDir = path.join(scratch, 'state-crash');
    const folder = path.join(scratch, 'crash');
    const client = queuedClient(server);
    // The process "dies" halfway through writing the passport: half of it reaches the disk, then nothing happens.
    const dying: QueuedClient = {
      ...client,
      download: async (url, destination) => {
        const chunks: Buffer[] = [];
        const memory = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
        await client.download(url, memory);
        const content = Buffer.concat(chunks);
        destination.write(content.subarray(0, content.length >> 1));
        return new Promise(() => undefined);
      },
    };
    const dead = await startPassportService({ stateDir, clientFor: () => dying, pollIntervalMs: 100 });
    const target = await dead.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: false,
    });
    await dead.request(target.id);
    const documentFile = path.join(stateDir, 'passports.json');
    let temporary = '';
    await until(async () => {
      const document = JSON.parse(await readFile(documentFile, 'utf8')) as PassportDocument;
      temporary = document.entries[0]?.temporaryPath ?? '';
      return temporary !== '' && existsSync(temporary) && (await stat(temporary)).size > 0;
    }, 'half of the passport on disk');
    expect(path.dirname(temporary)).toBe(folder);
    expect(await readdir(folder)).toEqual([path.basename(temporary)]);

    const restarted = await started(stateDir);
    const [entry] = await restarted.settled(1);
    expect(entry).toMatchObject({ state: 'downloaded', remoteFileId: expect.any(String) });
    expect(await readdir(folder)).toEqual([path.basename(entry?.filePath ?? '')]);
    const pdf = await readFile(entry?.filePath ?? '');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    // The passport was asked for once: the restart downloaded the same one.
    const files = await server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
    expect(files.json.filter((file) => file.id === entry?.remoteFileId)).toHaveLength(1);
    expect(restarted.states().get(entry?.id ?? '')).toEqual(['downloading', 'downloaded']);
    await client.close();
  });
});

/** A 16 KiB tmpfs where root may mount one (the passport does not fit), else undefined and the test is skipped. */
function smallDisk(mountPoint: string): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return mountPoint;
  } catch {
    return undefined;
  }
}

describe('a full disk', () => {
  let disk: string | undefined;

  beforeAll(async () => {
    await mkdir(path.join(scratch, 'small-disk'), { recursive: true });
    disk = smallDisk(path.join(scratch, 'small-disk'));
  });

  afterAll(() => {
    if (disk !== undefined) execFileSync('umount', [disk], { stdio: 'ignore' });
  });

  it('fails the passport with a clear message and leaves the disk as it was', async (context) => {
    if (disk === undefined) context.skip('no tmpfs could be mounted here (it needs root on Linux)');
    const folder = disk ?? '';
    const under = await started(path.join(scratch, 'state-full'));
    await under.service.request(await addPdfTarget(under, folder));
    const [entry] = await under.settled(1);
    expect(entry?.state).toBe('failed');
    expect(entry?.error).toBe(`The disk that holds ${folder} is full (ENOSPC); the passport was not saved.`);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('closing the service', () => {
  it('stops a download under way without leaving a file, and the next start finishes it', async () => {
    const stateDir = path.join(scratch, 'state-close');
    const folder = path.join(scratch, 'close');
    const client = queuedClient(server);
    let downloading = false;
    // The transfer streams bytes until the service stops it, so writes are still under way when the file is discarded.
    const slow: QueuedClient = {
      ...client,
      download: async (url, destination, options) => {
        destination.write('%PDF-1.7 the first bytes');
        downloading = true;
        while (options?.signal?.aborted !== true) {
          destination.write(Buffer.alloc(16 * 1024, 0x20));
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        return client.download(url, destination, options);
      },
    };
    const service = await startPassportService({ stateDir, clientFor: () => slow, pollIntervalMs: 100 });
    const target = await service.addTarget({
      connectionId: CONNECTION,
      subject: { kind: 'building', id: buildingId },
      folder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: false,
    });
    await service.request(target.id);
    await until(() => downloading, 'the download to begin');
    await service.close();
    await client.close();
    expect(await readdir(folder)).toEqual([]);
    const document = JSON.parse(await readFile(path.join(stateDir, 'passports.json'), 'utf8')) as PassportDocument;
    expect(document.entries.map((entry) => [entry.state, entry.temporaryPath])).toEqual([['generating', null]]);

    const restarted = await started(stateDir);
    const [entry] = await restarted.settled(1);
    expect(entry?.state).toBe('downloaded');
    expect(await readdir(folder)).toEqual([path.basename(entry?.filePath ?? '')]);
  });
});
