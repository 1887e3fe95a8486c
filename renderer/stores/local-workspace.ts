/**
 * The state of the Local workspace's embedded server, as the host reports it at start and on every change, and the
 * copy of the workspace to a team server when the user asks for one.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { IpcError, IpcResult, LocalMigrationRequest, LocalMigrationResult, LocalWorkspaceStatus } from '../../shared/ipc';
import type { MigrationProgress } from '../../shared/workspace-migration';
import { useBridge } from '../bridge';

/** Where a copy to a team server is: not asked for, under way (with the last step reported), done, or failed. */
export type MigrationState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: MigrationProgress | null }
  | { kind: 'done'; result: LocalMigrationResult }
  | { kind: 'failed'; error: IpcError };

/** The embedded server's state. */
export const useLocalWorkspaceStore = defineStore('localWorkspace', () => {
  const bridge = useBridge();
  const status = shallowRef<LocalWorkspaceStatus | null>(null);
  const error = shallowRef<IpcError | null>(null);
  const restarting = ref(false);

  const migration = shallowRef<MigrationState>({ kind: 'idle' });

  bridge.on('local:migration-progress', (progress) => {
    if (migration.value.kind === 'running') migration.value = { kind: 'running', progress };
  });

  bridge.on('local:status-changed', (next) => {
    status.value = next;
    error.value = null;
  });

  /** Reads the current state. */
  async function load(): Promise<void> {
    const result = await bridge.local.status();
    if (result.ok) {
      status.value = result.value;
      error.value = null;
    } else {
      error.value = result.error;
    }
  }

  /** Restarts the embedded server. */
  async function restart(): Promise<IpcResult<LocalWorkspaceStatus>> {
    restarting.value = true;
    try {
      const result = await bridge.local.restart();
      if (result.ok) status.value = result.value;
      return result;
    } finally {
      restarting.value = false;
    }
  }

  /** Copies the workspace to a team server; the outcome is in `migration` too. */
  async function migrate(request: LocalMigrationRequest): Promise<MigrationState> {
    migration.value = { kind: 'running', progress: null };
    const result = await bridge.local.migrate(request);
    migration.value = result.ok ? { kind: 'done', result: result.value } : { kind: 'failed', error: result.error };
    return migration.value;
  }

  /** Forgets the last copy's outcome (the dialog was closed). */
  function resetMigration(): void {
    if (migration.value.kind !== 'running') migration.value = { kind: 'idle' };
  }

  return { status, error, restarting, migration, load, restart, migrate, resetMigration };
});
