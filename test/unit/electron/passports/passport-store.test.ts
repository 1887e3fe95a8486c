import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PassportDocument } from '../../../../electron/passports/passport-model';
import { openPassportDocument, PASSPORT_DOCUMENT_FILE, PassportDocumentWriter } from '../../../../electron/passports/passport-store';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'cd-passport-store-'));
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const ledgerItem = (n: number): PassportDocument['downloaded'][number] => ({
  targetId: 'target',
  remoteFileId: `file-${n}`,
  path: `/passports/${n}.pdf`,
  at: new Date(Date.UTC(2024, 4, 7, 12, 0, n)).toISOString(),
});

describe('the passport document', () => {
  it('starts empty when there is none', async () => {
    expect(await openPassportDocument(stateDir)).toEqual({
      document: { version: 1, targets: [], entries: [], downloaded: [] },
      setAside: undefined,
    });
  });

  it('moves a document that is not valid aside and starts empty', async () => {
    await writeFile(path.join(stateDir, PASSPORT_DOCUMENT_FILE), '{"version":1,"targets":[{"id":7}]}');
    const opened = await openPassportDocument(stateDir);
    expect(opened.document.targets).toEqual([]);
    expect(path.basename(opened.setAside ?? '')).toMatch(/^passports\.json\.invalid-/);
    expect(await readFile(opened.setAside ?? '', 'utf8')).toBe('{"version":1,"targets":[{"id":7}]}');
  });

  it('writes every change, one write at a time, the last state last', async () => {
    const document: PassportDocument = { version: 1, targets: [], entries: [], downloaded: [] };
    const writer = new PassportDocumentWriter(stateDir, () => document);
    const saves: Promise<void>[] = [];
    for (let n = 0; n < 20; n += 1) {
      document.downloaded.push(ledgerItem(n));
      saves.push(writer.save());
    }
    await Promise.all(saves);
    const reopened = await openPassportDocument(stateDir);
    expect(reopened.document.downloaded).toHaveLength(20);
    // A save made after a write finished is written too.
    document.downloaded.push(ledgerItem(20));
    await writer.save();
    expect((await openPassportDocument(stateDir)).document.downloaded).toHaveLength(21);
    expect(await readdir(stateDir)).toEqual([PASSPORT_DOCUMENT_FILE]);
  });
});
