import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEDGER_VERSION, UploadLedger, upgradeDocument, type UploadRecord } from '../../../../electron/uploads/ledger';

let folder: string;
let file: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-upload-ledger-'));
  file = path.join(folder, 'uploads.json');
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function record(id: string, state: UploadRecord['entry']['state'] = 'waiting'): UploadRecord {
  return {
    entry: {
      id,
      connectionId: 'local',
      target: { kind: 'portfolio-file', portfolioId: '3f2b8a4e-4c1d-4e8f-9a6b-0c5d7e9f1a2b' },
      fileName: `${id}.pdf`,
      size: 10,
      state,
      remoteFileId: null,
      sentBytes: 0,
      bytesPerSecond: null,
      secondsLeft: null,
      problem: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      doneAt: null,
    },
    source: { kind: 'spool', spoolId: `spool-${id}` },
    createdRemote: false,
    createKey: id,
    remoteStamp: null,
  };
}

describe('upgradeDocument', () => {
  it('takes an older document forward step by step, and refuses one of a newer app', () => {
    const steps = [
      (document: Record<string, unknown>) => ({ ...document, renamed: document['old'] }),
      (document: Record<string, unknown>) => ({ ...document, added: true }),
    ];
    expect(upgradeDocument({ version: 1, old: 'x' }, steps)).toEqual({ kind: 'ok', document: { version: 3, old: 'x', renamed: 'x', added: true } });
    expect(upgradeDocument({ version: 2, renamed: 'y' }, steps)).toEqual({ kind: 'ok', document: { version: 3, renamed: 'y', added: true } });
    expect(upgradeDocument({ version: 3 }, steps)).toEqual({ kind: 'ok', document: { version: 3 } });
    expect(upgradeDocument({ version: 4 }, steps)).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('newer version') });
    expect(upgradeDocument({ version: 'one' }, steps)).toMatchObject({ kind: 'invalid' });
    expect(upgradeDocument([], steps)).toMatchObject({ kind: 'invalid' });
  });

  it('reaches this app’s version with its own steps', () => {
    expect(upgradeDocument({ version: 1, uploads: [] })).toEqual({ kind: 'ok', document: { version: LEDGER_VERSION, uploads: [] } });
  });
});

describe('UploadLedger', () => {
  it('starts empty without a file, and reads back what it wrote, in order', async () => {
    const { ledger, setAside } = await UploadLedger.open(file);
    expect(setAside).toBeUndefined();
    expect(ledger.list()).toEqual([]);
    ledger.put(record('a'));
    ledger.put(record('b'));
    ledger.put({ ...record('a'), createKey: 'changed' });
    await ledger.save();
    const reopened = (await UploadLedger.open(file)).ledger;
    expect(reopened.list().map((each) => [each.entry.id, each.createKey])).toEqual([['a', 'changed'], ['b', 'b']]);
    reopened.remove('a');
    await reopened.save();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: LEDGER_VERSION, uploads: [{ entry: { id: 'b' } }] });
  });

  it('sets aside a ledger that is not JSON, not valid, or from a newer app, and starts empty', async () => {
    for (const [text, reason] of [
      ['{"version": 1, "uploads": [', 'it is not JSON'],
      ['{"version": 1, "uploads": [{"entry": {}}]}', '/uploads/0'],
      ['{"version": 99, "uploads": []}', 'newer version'],
    ] as const) {
      await writeFile(file, text);
      const opened = await UploadLedger.open(file);
      expect(opened.ledger.list()).toEqual([]);
      expect(opened.reason).toContain(reason);
      expect(opened.setAside).toMatch(/uploads\.json\.invalid-/);
      expect(await readFile(opened.setAside as string, 'utf8')).toBe(text);
      await rm(opened.setAside as string);
    }
    expect(await readdir(folder)).toEqual([]);
  });

  it('writes a burst of changes in two writes at most, the last one holding all of them', async () => {
    const { ledger } = await UploadLedger.open(file);
    const saves: Promise<void>[] = [];
    for (const id of ['a', 'b', 'c', 'd']) {
      ledger.put(record(id));
      saves.push(ledger.save());
    }
    await Promise.all(saves);
    expect((await UploadLedger.open(file)).ledger.list().map((each) => each.entry.id)).toEqual(['a', 'b', 'c', 'd']);
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
