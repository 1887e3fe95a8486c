/**
 * What needs the user, counted from the stores' live state and the cache: changes the server refused or that collide
 * with its own, failed uploads, imports and passports, drop folders that cannot be read, a Local workspace that
 * failed, connections without a key. The Activity screen's summary lists it; the navigation shows its total as a badge.
 */
import { computed, type ComputedRef } from 'vue';
import type { DropFolderFile, DropFolderStatus } from '../../../shared/dropfolders';
import type { Connection, LocalWorkspaceStatus } from '../../../shared/ipc';
import type { PassportEntry } from '../../../shared/passports';
import { useCacheQuery } from '../../components/use-cache-query';
import { useConnectionsStore } from '../../stores/connections';
import { useDropFoldersStore } from '../../stores/dropfolders';
import { useLocalWorkspaceStore } from '../../stores/local-workspace';
import { usePassportsStore } from '../../stores/passports';
import { useSyncStore } from '../../stores/sync';
import { unsettledPassportFailures, uploadLists } from './activity-lists';
import { failedImports, type FailedImport } from './failed-imports';

/** A kind of thing that needs the user, in the order the summary lists them. */
export type AttentionKind = 'parked' | 'uploads' | 'imports' | 'passports' | 'folders' | 'local' | 'keys';

/**
 * One kind of thing that needs the user: how many, the names the summary shows (files, connections, folders, a
 * reason), and for failed imports the building of the first, where its file can be fixed.
 */
export interface AttentionItem {
  kind: AttentionKind;
  count: number;
  names: string[];
  buildingId?: string;
}

/** The state the summary is computed from. */
export interface AttentionFacts {
  /** Parked outbox entries of the active connection: refused changes and conflicts. */
  parkedCount: number;
  folders: readonly DropFolderStatus[];
  files: ReadonlyMap<string, readonly DropFolderFile[]>;
  /** Source files of the active connection whose import failed. */
  imports: readonly FailedImport[];
  passports: readonly PassportEntry[];
  local: LocalWorkspaceStatus | null;
  connections: readonly Connection[];
}

/** What needs the user, only the kinds with something in them. */
export function attentionItems(facts: AttentionFacts): AttentionItem[] {
  const unavailable = facts.folders.filter((folder) => folder.watch === 'unavailable');
  const keyless = facts.connections.filter((connection) => connection.kind === 'remote' && !connection.hasKey);
  const localFailed = facts.local?.state === 'failed';
  const firstImport = facts.imports[0];
  const items: AttentionItem[] = [
    { kind: 'parked', count: facts.parkedCount, names: [] },
    { kind: 'uploads', count: uploadLists(facts.folders, facts.files).failedCount, names: [] },
    { kind: 'imports', count: facts.imports.length, names: facts.imports.map((file) => file.fileName), ...(firstImport === undefined ? {} : { buildingId: firstImport.buildingId }) },
    { kind: 'passports', count: unsettledPassportFailures(facts.passports).length, names: [] },
    { kind: 'folders', count: unavailable.length, names: unavailable.map((folder) => folder.folder) },
    { kind: 'local', count: localFailed ? 1 : 0, names: localFailed && facts.local?.message !== undefined ? [facts.local.message] : [] },
    { kind: 'keys', count: keyless.length, names: keyless.map((connection) => connection.name) },
  ];
  return items.filter((item) => item.count > 0);
}

/** The total of what needs the user. */
export function attentionTotal(items: readonly AttentionItem[]): number {
  return items.reduce((sum, item) => sum + item.count, 0);
}

/** What needs the user, live; `load` reads the drop folders (with every folder's files) and the passports. */
export function useAttention(): { items: ComputedRef<AttentionItem[]>; total: ComputedRef<number>; load: () => Promise<void> } {
  const sync = useSyncStore();
  const dropFolders = useDropFoldersStore();
  const passports = usePassportsStore();
  const local = useLocalWorkspaceStore();
  const connections = useConnectionsStore();
  const imports = useCacheQuery(() => null, failedImports, []);

  const items = computed(() =>
    attentionItems({
      parkedCount: sync.parkedCount,
      folders: dropFolders.folders,
      files: dropFolders.files,
      imports: imports.value.value,
      passports: passports.history,
      local: local.status,
      connections: connections.connections,
    }),
  );
  const total = computed(() => attentionTotal(items.value));

  async function load(): Promise<void> {
    await Promise.all([dropFolders.loadAll(), passports.load()]);
  }

  return { items, total, load };
}
