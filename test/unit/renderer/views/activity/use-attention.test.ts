import { describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import type { Connection } from '../../../../../shared/ipc';
import { useConnectionsStore } from '../../../../../renderer/stores/connections';
import { attentionItems, attentionTotal, useAttention, type AttentionFacts } from '../../../../../renderer/views/activity/use-attention';
import { storeContext, testBridge } from '../../harness';
import { dropFile, folder, passport } from './activity-fixtures';

const NOTHING: AttentionFacts = { parkedCount: 0, folders: [], files: new Map(), imports: [], passports: [], local: null, connections: [] };

function connection(id: string, changes: Partial<Connection> = {}): Connection {
  return { id, name: id, baseUrl: `https://${id}.example.com`, apiVersion: 'v2.3', kind: 'remote', hasKey: true, ...changes };
}

describe('attentionItems', () => {
  it('is empty when all is well', () => {
    const items = attentionItems({
      ...NOTHING,
      folders: [folder('a')],
      files: new Map([['a', [dropFile('a', 'x.ifc', { state: 'mapped' })]]]),
      passports: [passport('p', { state: 'downloaded' })],
      local: { state: 'running' },
      connections: [connection('local', { kind: 'local' }), connection('team')],
    });
    expect(items).toEqual([]);
    expect(attentionTotal(items)).toBe(0);
  });

  it('counts every kind that needs the user, in the summary’s order, with the names to show', () => {
    const items = attentionItems({
      parkedCount: 3,
      folders: [folder('a'), folder('b', { watch: 'unavailable', folder: '/mnt/share' })],
      files: new Map([
        ['a', [dropFile('a', 'x.ifc', { state: 'failed' }), dropFile('a', 'y.ifc', { state: 'failed' }), dropFile('a', 'z.ifc', { state: 'uploading' })]],
      ]),
      imports: [
        { fileId: 'f1', buildingId: 'b1', fileName: 'broken.ifc' },
        { fileId: 'f2', buildingId: 'b2', fileName: 'truncated.ifc' },
      ],
      passports: [passport('p', { state: 'failed' })],
      local: { state: 'failed', message: 'Port 4010 is in use.' },
      // The Local workspace's key is the host's own: only a remote connection can lack one.
      connections: [connection('local', { kind: 'local', hasKey: false }), connection('Team', { hasKey: false }), connection('Other')],
    });
    expect(items).toEqual([
      { kind: 'parked', count: 3, names: [] },
      { kind: 'uploads', count: 2, names: [] },
      { kind: 'imports', count: 2, names: ['broken.ifc', 'truncated.ifc'], buildingId: 'b1' },
      { kind: 'passports', count: 1, names: [] },
      { kind: 'folders', count: 1, names: ['/mnt/share'] },
      { kind: 'local', count: 1, names: ['Port 4010 is in use.'] },
      { kind: 'keys', count: 1, names: ['Team'] },
    ]);
    expect(attentionTotal(items)).toBe(11);
  });
});

describe('useAttention', () => {
  it('follows the stores: the first reads, then the services’ events', async () => {
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [connection('Team', { hasKey: false })], activeId: null }),
      'dropfolders:list': async () => [folder('a')],
      'dropfolders:files': async ({ mappingId }) => [dropFile(mappingId, 'x.ifc', { state: 'failed', lastError: 'The server refused the file.' })],
      'passports:targets': async () => [],
      'passports:history': async () => [passport('p1', { state: 'failed' })],
    });
    storeContext(bridge.handle);
    const scope = effectScope();
    const attention = scope.run(() => useAttention())!;
    await Promise.all([useConnectionsStore().refresh(), attention.load()]);

    const counts = () => attention.items.value.map((item) => [item.kind, item.count]);
    expect(counts()).toEqual([
      ['uploads', 1],
      ['passports', 1],
      ['keys', 1],
    ]);
    expect(attention.total.value).toBe(3);

    bridge.emit('local:status-changed', { state: 'failed', message: 'It stopped.' });
    bridge.emit('dropfolders:changed', { kind: 'file', file: dropFile('a', 'x.ifc', { state: 'mapped' }), detail: null });
    bridge.emit('passports:changed', {
      type: 'entry-changed',
      entry: passport('p2', { state: 'downloaded', requestedAt: '2026-02-01T00:00:00.000Z', filePath: '/srv/p.pdf' }),
    });
    expect(counts()).toEqual([
      ['local', 1],
      ['keys', 1],
    ]);

    // A folder added later is followed too: its failed file counts.
    bridge.emit('dropfolders:changed', { kind: 'folders', folders: [folder('a'), folder('b')] });
    await vi.waitFor(() => expect(attention.total.value).toBe(3));
    expect(bridge.requestsOf('dropfolders:files')).toEqual([{ mappingId: 'a' }, { mappingId: 'b' }]);
    scope.stop();
  });
});
