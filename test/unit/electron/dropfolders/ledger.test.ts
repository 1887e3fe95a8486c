import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canTransition, LEDGER_FILE_NAME, LedgerTransitionError, LedgerVersionError, UploadLedger } from '../../../../electron/dropfolders/ledger';
import type { LedgerState } from '../../../../shared/dropfolders';

const KEY = { mappingId: 'mapping-1', path: 'Building A/model.ifc' };
const STATES: LedgerState[] = ['detected', 'hashing', 'uploading', 'processing', 'mapped', 'stored', 'failed'];

let stateDir: string;
let ledger: UploadLedger;
let clock: number;

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'cd-ledger-'));
  clock = Date.UTC(2026, 0, 1);
  ledger = UploadLedger.open(stateDir, () => new Date((clock += 1000)));
});
afterEach(async () => {
  ledger.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe('UploadLedger', () => {
  it('takes a file from detected through hashing, uploading and processing to mapped', () => {
    const detected = ledger.insert(KEY, { kind: 'source', size: 10, mtimeMs: 1.5 });
    expect(detected).toMatchObject({ ...KEY, state: 'detected', size: 10, mtimeMs: 1.5, attempts: 0, sha256: null, fileId: null, progress: null, result: null });
    ledger.transition(KEY, 'hashing');
    ledger.transition(KEY, 'uploading', { sha256: 'abc', buildingId: 'b', fileId: 'f', remoteStamp: 'stamp' });
    ledger.update(KEY, { attempts: 1, progress: { step: 'upload', done: 5, total: 10 } });
    expect(ledger.get(KEY)).toMatchObject({ state: 'uploading', attempts: 1, progress: { step: 'upload', done: 5, total: 10 } });
    ledger.transition(KEY, 'processing', { deliveredSha256: 'abc', progress: null });
    const mapped = ledger.transition(KEY, 'mapped', { result: 'mapped', remoteStatus: 3, remoteMessage: '7 elements imported.' });
    expect(mapped).toMatchObject({ state: 'mapped', sha256: 'abc', deliveredSha256: 'abc', result: 'mapped', fileId: 'f', progress: null, remoteStatus: 3 });
    expect(mapped.updatedAt).toBe(new Date(clock).toISOString());
  });

  it('refuses a move the state machine does not have, and leaves the row as it was', () => {
    ledger.insert(KEY, { kind: 'source', size: 10, mtimeMs: 1 });
    expect(() => ledger.transition(KEY, 'processing', { fileId: 'f' })).toThrow(LedgerTransitionError);
    expect(ledger.get(KEY)).toMatchObject({ state: 'detected', fileId: null });
    ledger.transition(KEY, 'hashing');
    ledger.transition(KEY, 'uploading');
    ledger.transition(KEY, 'processing');
    // Processing ends on the server; a local change waits for that end.
    expect(() => ledger.transition(KEY, 'detected')).toThrow(LedgerTransitionError);
    expect(() => ledger.transition(KEY, 'uploading')).toThrow(LedgerTransitionError);
  });

  it('lets every end start again only from detected', () => {
    for (const end of ['mapped', 'stored', 'failed'] as const) {
      expect(STATES.filter((to) => canTransition(end, to))).toEqual(['detected']);
    }
    expect(STATES.filter((to) => canTransition('processing', to))).toEqual(['processing', 'mapped', 'failed']);
    expect(canTransition('hashing', 'mapped')).toBe(true);
    expect(canTransition('detected', 'uploading')).toBe(false);
  });

  it('keeps every state change on disk, in WAL mode, across a reopen', () => {
    ledger.insert(KEY, { kind: 'information', size: 3, mtimeMs: 2 });
    ledger.transition(KEY, 'hashing');
    ledger.transition(KEY, 'uploading', { fileId: 'remote-1' });
    // A second connection sees the change at once: each call is a committed transaction.
    const reader = new Database(path.join(stateDir, LEDGER_FILE_NAME), { readonly: true });
    try {
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(reader.prepare('SELECT state, fileId FROM files').get()).toEqual({ state: 'uploading', fileId: 'remote-1' });
    } finally {
      reader.close();
    }
    ledger.close();
    ledger = UploadLedger.open(stateDir);
    expect(ledger.get(KEY)).toMatchObject({ state: 'uploading', kind: 'information', fileId: 'remote-1' });
  });

  it('knows which row uploads into a remote file, and the buildings of portfolio subfolders', () => {
    ledger.insert(KEY, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.update(KEY, { fileId: 'remote-1' });
    expect(ledger.claimOf('remote-1')).toEqual(KEY);
    expect(ledger.claimOf('remote-2')).toBeUndefined();

    ledger.rememberBuilding('mapping-1', 'Building A', 'building-a');
    expect(ledger.buildingOf('mapping-1', 'Building A')).toBe('building-a');
    expect(ledger.buildingOf('mapping-2', 'Building A')).toBeUndefined();
    ledger.forgetBuilding('mapping-1', 'Building A');
    expect(ledger.buildingOf('mapping-1', 'Building A')).toBeUndefined();
  });

  it('forgets a file, or a whole mapping', () => {
    ledger.insert(KEY, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.insert({ mappingId: 'mapping-1', path: 'b.ifc' }, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.insert({ mappingId: 'mapping-2', path: 'c.ifc' }, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.rememberBuilding('mapping-1', 'Building A', 'building-a');
    ledger.remove({ mappingId: 'mapping-1', path: 'b.ifc' });
    expect(ledger.list('mapping-1').map((row) => row.path)).toEqual([KEY.path]);
    ledger.removeMapping('mapping-1');
    expect(ledger.list().map((row) => row.path)).toEqual(['c.ifc']);
    expect(ledger.buildingOf('mapping-1', 'Building A')).toBeUndefined();
  });

  it('keeps its schema version, and takes a ledger made before it was kept with every row', () => {
    ledger.insert(KEY, { kind: 'source', size: 10, mtimeMs: 1.5 });
    ledger.close();
    const file = new Database(path.join(stateDir, LEDGER_FILE_NAME));
    expect(file.pragma('user_version', { simple: true })).toBe(1);
    file.pragma('user_version = 0');
    file.close();

    ledger = UploadLedger.open(stateDir);
    expect(ledger.get(KEY)).toMatchObject({ ...KEY, state: 'detected', size: 10 });
    ledger.close();
    const reopened = new Database(path.join(stateDir, LEDGER_FILE_NAME));
    expect(reopened.pragma('user_version', { simple: true })).toBe(1);
    reopened.close();
    ledger = UploadLedger.open(stateDir);
  });

  it('refuses a ledger of a newer version with the reason, and leaves it as it was', () => {
    ledger.insert(KEY, { kind: 'source', size: 10, mtimeMs: 1.5 });
    ledger.close();
    const newer = new Database(path.join(stateDir, LEDGER_FILE_NAME));
    newer.pragma('user_version = 7');
    newer.close();

    expect(() => UploadLedger.open(stateDir)).toThrow(LedgerVersionError);
    expect(() => UploadLedger.open(stateDir)).toThrow(/of version 7, made by a newer Circularity Desk; this one reads up to version 1/);
    const untouched = new Database(path.join(stateDir, LEDGER_FILE_NAME));
    expect(untouched.pragma('user_version', { simple: true })).toBe(7);
    expect(untouched.prepare('SELECT count(*) AS count FROM files').get()).toEqual({ count: 1 });
    untouched.prepare('PRAGMA user_version = 1').run();
    untouched.close();
    ledger = UploadLedger.open(stateDir);
  });

  it('counts the files of all mappings by state', () => {
    expect(ledger.countsByState()).toEqual({});
    ledger.insert(KEY, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.insert({ mappingId: 'mapping-1', path: 'b.ifc' }, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.insert({ mappingId: 'mapping-2', path: 'c.ifc' }, { kind: 'source', size: 1, mtimeMs: 1 });
    ledger.transition({ mappingId: 'mapping-1', path: 'b.ifc' }, 'hashing');
    ledger.transition({ mappingId: 'mapping-2', path: 'c.ifc' }, 'failed', { result: 'failed' });
    expect(ledger.countsByState()).toEqual({ detected: 1, hashing: 1, failed: 1 });
  });
});
