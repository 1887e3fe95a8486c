import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { closeConnectionsWhenIdle } from './closing-connections';
import { jobHandlers } from './jobs/handlers';
import { defaultWorkerOptions, startWorker, type WorkerOptions } from './jobs/worker';
import { ensureBootstrapToken } from './auth/tokens';
import { Level } from './auth/principal';
import { defaultServerConfig, type ServerConfig, type ServerContext } from './context';
import { loadDownloadSigner } from './downloads';
import { openBlobStore, FsBlobStore, type BlobStore } from './store/blobs';
import { openDatabase, type Database } from './store/store';
import { seedSystemData } from './store/seed/system-data';
import { ensureLocalAccount, type AccountNaming } from './store/seed/local-account';
import { seedDemo } from './store/seed/demo';
import { seedDemoModel } from './store/seed/demo-model';
import { removeLeftoverImportFolders } from './imports/import-temp';

/** How to start a server. */
export interface StartOptions {
  /**
   * Folder of the SQLite database and the blob folder, or `:memory:` (blobs then go to `blobDir`). With `databaseUrl`
   * only the default blob folder is here.
   */
  dataDir: string;
  /** A PostgreSQL database (`postgres://user:password@host:port/database`) instead of SQLite in the data folder. */
  databaseUrl?: string;
  /** Blob folder when it is not `<dataDir>/blobs`. */
  blobDir?: string;
  /** A blob store by address (`s3://bucket?endpoint=…`, a folder), instead of the blob folder. */
  blobs?: string;
  host?: string;
  port?: number;
  /** Makes sure an account-scope Administrator token with exactly this key exists. */
  bootstrapKey?: string;
  /** A bootstrap key that is new deletes the tokens of earlier bootstrap keys (the Local workspace's replaced key). */
  replaceEarlierBootstrapKeys?: boolean;
  /** Creates the sample portfolio and building. */
  demo?: boolean;
  /** The account's name (default: created as "Local workspace", an existing name kept). */
  accountNaming?: AccountNaming;
  logger?: boolean;
  /** Runs the job worker in this process (processing, refinement, figures, passports). */
  worker?: boolean | Partial<Omit<WorkerOptions, 'log'>>;
  config?: Partial<ServerConfig>;
  now?: () => Date;
}

/** A prepared server: the store opened, migrated and seeded, the app built but not listening. */
export interface PreparedServer {
  app: FastifyInstance;
  context: ServerContext;
  localAccountId: string;
  close(): Promise<void>;
}

/** Opens the store, seeds system data and the local account, and builds the app. */
export async function prepareServer(options: StartOptions): Promise<PreparedServer> {
  const database: Database = await openDatabase(options.databaseUrl === undefined ? options.dataDir : { url: options.databaseUrl });
  let blobs: BlobStore | undefined;
  try {
    // Every process of a team server runs this at its start; one at a time, so the seed data is written once.
    const { accountId, signer } = await database.dialect.exclusively(database.db, 'server-start', async (db) => {
      await seedSystemData(db);
      const local = await ensureLocalAccount(db, options.accountNaming);
      if (options.bootstrapKey !== undefined) {
        await ensureBootstrapToken(db, local.accountId, options.bootstrapKey, Level.Administrator, options.replaceEarlierBootstrapKeys === true);
      }
      if (options.demo === true) await seedDemo(db, local.accountId);
      return { accountId: local.accountId, signer: await loadDownloadSigner(db) };
    });
    blobs =
      options.blobs === undefined
        ? new FsBlobStore(options.blobDir ?? path.join(options.dataDir, 'blobs'))
        : await openBlobStore(options.blobs, options.dataDir);
    const context: ServerContext = {
      db: database.db,
      dialect: database.dialect,
      blobs,
      signer,
      config: {
        ...defaultServerConfig,
        ...(options.dataDir === ':memory:' ? {} : { importTempDir: path.join(options.dataDir, 'import-temp') }),
        ...options.config,
      },
      now: options.now ?? (() => new Date()),
    };
    if (options.demo === true) await seedDemoModel(context, accountId);
    const app = await buildApp(context, { logger: options.logger ?? false });
    // What imports of a process that was killed left behind; a folder that cannot be removed does not stop the start.
    await removeLeftoverImportFolders(context.config.importTempDir).catch((error: unknown) =>
      app.log.warn({ err: error }, 'removing temporary folders of earlier imports failed'),
    );
    const connections = closeConnectionsWhenIdle(app.server);
    const worker =
      options.worker === undefined || options.worker === false
        ? undefined
        : startWorker(context, jobHandlers, {
            ...defaultWorkerOptions,
            ...(options.worker === true ? {} : options.worker),
            log: (message, error) => app.log.error({ err: error }, message),
          });
    const openedBlobs = blobs;
    return {
      app,
      context,
      localAccountId: accountId,
      close: async () => {
        await worker?.stop();
        const closed = app.close();
        connections.closing();
        await closed;
        await openedBlobs.close();
        await database.close();
      },
    };
  } catch (error) {
    await blobs?.close();
    await database.close();
    throw error;
  }
}

/** A listening server with its address. */
export interface RunningServer extends PreparedServer {
  url: string;
}

/** Prepares the server and listens on host:port (port 0 = a free port). */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const prepared = await prepareServer(options);
  const host = options.host ?? '127.0.0.1';
  try {
    await prepared.app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await prepared.close();
    throw error;
  }
  const address = prepared.app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { ...prepared, url: `http://${shownHost}:${port}` };
}
