/**
 * The Bridge handlers of the `local:*` channels: the Local workspace server's status, a restart, and moving the
 * workspace to a team server.
 */
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { MigrationProgress } from '../../shared/workspace-migration';
import type { BridgeHandlers } from '../bridge-dispatch';
import { keyOriginOf, LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN } from '../connections';
import type { HostConnections } from '../host-connections';
import { migrateLocalWorkspace } from '../local-migration';
import type { LocalServerLauncher, LocalWorkspace } from '../local-server';
import { migrationTargetsOf, type ConfirmMigration } from '../migration-confirmation';
import type { Vault } from '../vault';

/** The channels these handlers answer. */
export type LocalChannel = Extract<IpcChannel, `local:${string}`>;

/** What the handlers need of the host. */
export interface LocalHandlerContext {
  local: LocalWorkspace;
  /** The Local workspace's data folder, which a move copies. */
  dataDir: string;
  launch: LocalServerLauncher;
  /** Absent where the host cannot ask (browser mode with no terminal): then the workspace is not moved. */
  confirmMigration: ConfirmMigration | undefined;
  connections: HostConnections;
  vault: Vault;
  onMigrationProgress(progress: MigrationProgress): void;
  log: (message: string, error?: unknown) => void;
}

/** The handlers of the Local workspace channels. */
export function localHandlers(context: LocalHandlerContext): Pick<BridgeHandlers, LocalChannel> {
  const { local, connections, vault } = context;
  let migrating = false;

  /**
   * Copies the Local workspace to a team server; with its address, adds a connection to it that holds the Local
   * workspace's key, which the copy made valid there too.
   */
  const migrate: BridgeHandlers['local:migrate'] = async ({ teamServerUrl, allowInsecureStorage, ...target }) => {
    if (migrating) throw new BridgeError('conflict', 'The Local workspace is being copied already; wait for that copy to end.');
    migrating = true;
    try {
      if (context.confirmMigration === undefined) {
        throw new BridgeError(
          'unavailable',
          'This host cannot ask you to confirm where the Local workspace goes, so it is not moved. Use the desktop app, or start browser mode from a terminal.',
        );
      }
      if (!(await context.confirmMigration(migrationTargetsOf(target.databaseUrl, target.blobs, teamServerUrl)))) {
        throw new BridgeError('conflict', 'The move was not confirmed; nothing was copied.');
      }
      const summary = await migrateLocalWorkspace({ dataDir: context.dataDir, launch: context.launch, target, onProgress: context.onMigrationProgress });
      if (teamServerUrl === undefined) return { summary, connection: null };
      const profile = await connections.remoteTo(teamServerUrl);
      const key = await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
      try {
        // A key the user keeps for that server stays: the Local workspace's key is stored only where there is none.
        if (key !== undefined && !(await vault.has(profile.id))) {
          await vault.set(profile.id, keyOriginOf(profile), key, { allowInsecureStorage: allowInsecureStorage === true });
        }
      } catch (error) {
        // Without the user's consent to an unencrypted key the connection is kept without one: the copy itself is done.
        if (!(error instanceof BridgeError && error.code === 'insecure-storage')) throw error;
      }
      connections.announce();
      return { summary, connection: await connections.withKey(profile) };
    } finally {
      migrating = false;
    }
  };

  return {
    'local:status': async () => local.status(),
    'local:restart': async () => {
      try {
        await local.restart();
      } catch (error) {
        context.log('Restarting the Local workspace server failed.', error);
      }
      return local.status();
    },
    'local:migrate': migrate,
  } satisfies Pick<BridgeHandlers, LocalChannel>;
}
