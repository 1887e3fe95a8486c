import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PassportDocument } from '../../../../electron/passports/passport-model';
import type { PassportEvent, PassportTargetDraft } from '../../../../shared/passports';
import { fileIdFromLocation } from '../../../../electron/passports/passport-remote';
import { startPassportService, type PassportService } from '../../../../electron/passports/passport-service';
import { BridgeError } from '../../../../shared/ipc';

const BUILDING = '9804b68f-25b5-4224-a408-1eca54aaa5bc';
let stateDir: string;
let services: PassportService[] = [];

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'cd-passport-service-'));
});

afterEach(async () => {
  await Promise.all(services.map((service) => service.close()));
  services = [];
  await rm(stateDir, { recursive: true, force: true });
});

/** A service whose connection is gone: every check fails before reaching a server, so nothing is ever sent. */
async function offline(log: string[] = [], events: PassportEvent[] = []): Promise<PassportService> {
  const service = await startPassportService({
    stateDir,
    clientFor: () => {
      throw new BridgeError('not-found', 'This connection no longer exists.');
    },
    onEvent: (event) => events.push(event),
    log: (message) => log.push(message),
    pollIntervalMs: 60_000,
  });
  services.push(service);
  return service;
}

function draft(overrides: Partial<PassportTargetDraft> = {}): PassportTargetDraft {
  return {
    connectionId: 'remote-1',
    subject: { kind: 'building', id: BUILDING },
    folder: path.join(stateDir, 'out'),
    formats: ['pdf', 'xlsx'],
    language: 'nl',
    requestOnMapped: false,
    ...overrides,
  };
}

async function storedDocument(): Promise<PassportDocument> {
  return JSON.parse(await readFile(path.join(stateDir, 'passports.json'), 'utf8')) as PassportDocument;
}

describe('targets', () => {
  it('refuses settings that cannot work', async () => {
    const service = await offline();
    const invalid = { code: 'invalid-request' };
    await expect(service.addTarget(draft({ folder: 'passports' }))).rejects.toMatchObject(invalid);
    await expect(service.addTarget(draft({ subject: { kind: 'portfolio', id: BUILDING } }))).rejects.toMatchObject(invalid);
    await expect(service.addTarget({ ...draft(), language: 'pt' } as unknown as PassportTargetDraft)).rejects.toMatchObject(invalid);
    await expect(service.addTarget(draft({ formats: [] }))).rejects.toMatchObject(invalid);
    await expect(service.addTarget(draft({ formats: ['pdf', 'pdf'] }))).rejects.toMatchObject(invalid);
    expect(service.targets()).toEqual([]);
  });

  it('refuses a system folder, a folder of keys and the app’s own data, also as a new folder of a target', async () => {
    const appData = path.join(stateDir, 'user-data');
    const service = await startPassportService({
      stateDir,
      clientFor: () => {
        throw new BridgeError('not-found', 'This connection no longer exists.');
      },
      pollIntervalMs: 60_000,
      folderSafety: { appDataFolder: appData, home: path.join(stateDir, 'home') },
    });
    services.push(service);
    for (const folder of ['/etc/cron.d', '/usr/local/bin', path.join(stateDir, 'home', '.ssh'), path.join(appData, 'passports')]) {
      await expect(service.addTarget(draft({ folder }))).rejects.toMatchObject({ code: 'invalid-request', message: expect.stringContaining('passports cannot be saved there') });
    }
    const target = await service.addTarget(draft());
    await expect(service.updateTarget(target.id, { folder: '/etc/cron.d' })).rejects.toMatchObject({ code: 'invalid-request' });
    expect(service.targets()).toMatchObject([{ folder: path.join(stateDir, 'out') }]);
  });

  it('shows why a target cannot be checked', async () => {
    const events: PassportEvent[] = [];
    const service = await offline([], events);
    const target = await service.addTarget(draft());
    await service.checkNow();
    expect(service.targets()).toEqual([{ ...target, lastError: 'This connection no longer exists.' }]);
    expect(events.at(-1)).toEqual({ type: 'targets-changed', targets: service.targets() });
  });

  it('keeps targets and requests across a restart, and forgets a removed target entirely', async () => {
    const first = await offline();
    const kept = await first.addTarget(draft());
    const removed = await first.addTarget(draft({ folder: path.join(stateDir, 'other'), formats: ['pdf'] }));
    const requested = await first.request(kept.id, { formats: ['xlsx'], language: 'de' });
    expect(requested).toEqual([
      expect.objectContaining({ targetId: kept.id, format: 'xlsx', language: 'de', origin: 'request', state: 'requested', remoteFileId: null }),
    ]);
    await first.request(removed.id);
    const updated = await first.updateTarget(kept.id, { language: 'it', requestOnMapped: true });
    expect(updated).toMatchObject({ language: 'it', requestOnMapped: true, formats: ['pdf', 'xlsx'] });
    await first.removeTarget(removed.id);
    await first.close();
    await expect(first.request(kept.id)).rejects.toMatchObject({ code: 'unavailable' });

    const second = await offline();
    expect(second.targets().map((target) => target.id)).toEqual([kept.id]);
    expect(second.targets()[0]).toMatchObject({ language: 'it', requestOnMapped: true });
    expect(second.history().map((entry) => entry.id)).toEqual(requested.map((entry) => entry.id));
    const stored = await storedDocument();
    expect(stored.entries.every((entry) => entry.targetId === kept.id)).toBe(true);
    // What the renderer sees never carries the bookkeeping.
    expect(Object.keys(second.history()[0] ?? {})).not.toContain('idempotencyKey');
    expect(Object.keys(second.targets()[0] ?? {})).not.toContain('preexisting');
  });

  it('answers not-found and conflict for what cannot be done', async () => {
    const service = await offline();
    await expect(service.request('nope')).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.updateTarget('nope', { language: 'en' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.retry('nope')).rejects.toMatchObject({ code: 'not-found' });
    const target = await service.addTarget(draft());
    const [entry] = await service.request(target.id, { formats: ['pdf'] });
    await expect(service.retry(entry?.id ?? '')).rejects.toMatchObject({ code: 'conflict' });
    await expect(service.request(target.id, { formats: ['docx'] } as never)).rejects.toMatchObject({ code: 'invalid-request' });
  });

  it('starts empty, keeping an unreadable state file aside', async () => {
    await writeFile(path.join(stateDir, 'passports.json'), 'not json');
    const log: string[] = [];
    const service = await offline(log);
    expect(service.targets()).toEqual([]);
    expect(log).toEqual([expect.stringMatching(/^The passports state could not be read and was moved aside to .+passports\.json\.invalid-/)]);
  });
});

describe('fileIdFromLocation', () => {
  it('takes the passport file from the Location of a 202', () => {
    const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    expect(fileIdFromLocation(`/api/v2.3/buildings/${BUILDING}/files/${id}/status`)).toBe(id);
    expect(fileIdFromLocation(`https://api.example.org/api/v2.3/buildings/${BUILDING}/files/${id}`)).toBe(id);
    expect(fileIdFromLocation(`/api/v2.3/buildings/${BUILDING}`)).toBeNull();
    expect(fileIdFromLocation(null)).toBeNull();
  });
});
