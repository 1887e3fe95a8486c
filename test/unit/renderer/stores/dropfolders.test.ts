import { describe, expect, it, vi } from 'vitest';
import type { DropFolderFile, DropFolderStatus } from '../../../../shared/dropfolders';
import { BridgeError } from '../../../../shared/ipc';
import { useDropFoldersStore } from '../../../../renderer/stores/dropfolders';
import { storeContext, testBridge } from '../harness';

const FOLDER: DropFolderStatus = {
  id: 'm1',
  folder: '/srv/exports',
  target: { kind: 'building', buildingId: '11111111-1111-4111-8111-111111111111' },
  connectionId: 'team',
  activate: true,
  fileTypes: ['.ifc'],
  informationFiles: false,
  polling: false,
  paused: false,
  watch: 'watching',
  problem: null,
};

function file(path: string, changes: Partial<DropFolderFile> = {}): DropFolderFile {
  return {
    mappingId: 'm1',
    path,
    kind: 'source',
    state: 'detected',
    size: 10,
    mtimeMs: 1,
    sha256: null,
    buildingId: null,
    fileId: null,
    attempts: 0,
    lastError: null,
    remoteStatus: null,
    remoteMessage: null,
    progress: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...changes,
  };
}

describe('the drop folders store', () => {
  it('follows the service: folders, file states, progress and removed files', async () => {
    const bridge = testBridge({
      'dropfolders:list': async () => [FOLDER],
      'dropfolders:files': async () => [file('a.ifc')],
    });
    storeContext(bridge.handle);
    const store = useDropFoldersStore();
    await store.load();
    await store.loadFiles('m1');
    expect(store.files.get('m1')?.map((each) => each.path)).toEqual(['a.ifc']);

    bridge.emit('dropfolders:changed', { kind: 'file', file: file('b.ifc', { state: 'uploading' }), detail: null });
    bridge.emit('dropfolders:changed', { kind: 'progress', mappingId: 'm1', path: 'b.ifc', progress: { step: 'upload', done: 5, total: 10 } });
    bridge.emit('dropfolders:changed', { kind: 'file', file: file('a.ifc', { state: 'mapped' }), detail: null });
    expect(store.files.get('m1')?.map((each) => [each.path, each.state, each.progress?.done ?? null])).toEqual([
      ['a.ifc', 'mapped', null],
      ['b.ifc', 'uploading', 5],
    ]);

    bridge.emit('dropfolders:changed', { kind: 'file-removed', mappingId: 'm1', path: 'a.ifc' });
    bridge.emit('dropfolders:changed', { kind: 'folders', folders: [{ ...FOLDER, paused: true, watch: 'paused' }] });
    expect(store.files.get('m1')?.map((each) => each.path)).toEqual(['b.ifc']);
    expect(store.folders[0]?.watch).toBe('paused');
  });

  it('reads the files of every folder on loadAll, and of folders added later', async () => {
    const bridge = testBridge({
      'dropfolders:list': async () => [FOLDER, { ...FOLDER, id: 'm2' }],
      'dropfolders:files': async ({ mappingId }) => [{ ...file(`${mappingId}.ifc`), mappingId }],
    });
    storeContext(bridge.handle);
    const store = useDropFoldersStore();
    await store.loadAll();
    expect([...store.files.keys()]).toEqual(['m1', 'm2']);

    bridge.emit('dropfolders:changed', { kind: 'folders', folders: [FOLDER, { ...FOLDER, id: 'm2' }, { ...FOLDER, id: 'm3' }] });
    await vi.waitFor(() => expect(store.files.get('m3')?.map((each) => each.path)).toEqual(['m3.ifc']));
    expect(bridge.requestsOf('dropfolders:files').map((request) => request.mappingId)).toEqual(['m1', 'm2', 'm3']);
  });

  it('falls back to a typed path when the host has no folder dialog', async () => {
    const bridge = testBridge({
      'dialog:choose-folder': async () => {
        throw new BridgeError('unavailable', 'Type the folder’s full path instead.');
      },
    });
    storeContext(bridge.handle);
    const store = useDropFoldersStore();
    expect(store.dialogAvailable).toBe(true);
    expect(await store.chooseFolder('Choose')).toBeNull();
    expect(store.dialogAvailable).toBe(false);
  });
});
