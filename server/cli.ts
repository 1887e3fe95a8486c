import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { Level } from './auth/principal';
import { createToken, MIN_BOOTSTRAP_KEY_LENGTH } from './auth/tokens';
import { openDatabase, type DatabaseLocation } from './store/store';
import { isPostgresUrl } from './store/dialect';
import { migrateWorkspace } from './store/migrate-workspace';
import { seedSystemData } from './store/seed/system-data';
import { ensureLocalAccount, type AccountNaming } from './store/seed/local-account';
import { prepareServer, startServer } from './server';
import type { ScopeKind } from './store/tables';
import { parentChannel } from './parent-channel';
import { BOOTSTRAP_KEY_ENV } from '../shared/embedded-server';
import { BLOB_STORE_URL_ENV, DATABASE_URL_ENV, type MigrationDone, type MigrationProgress } from '../shared/workspace-migration';
import { assertNever } from '../shared/api/enums';


const usage = `Usage:
  serve [--port <n>] [--host <addr>] [--data <dir>] [--database <postgres://…> (or env ${DATABASE_URL_ENV})]
        [--blobs <s3://bucket?endpoint=…&region=…&forcePathStyle=true | folder> (or env ${BLOB_STORE_URL_ENV})]
        [--bootstrap-key <key> (or env CIRCULARITY_BOOTSTRAP_KEY) [--replace-bootstrap-keys]] [--demo] [--public-url <url>]
        [--api-only | --worker-only] [--rate-limit <requests per key and minute, 0: none>] [--account-name <name>]
        starts the API and the job worker (default 127.0.0.1:8080, SQLite and blobs in ./.data); --api-only answers
        HTTP without running jobs (also --no-worker), --worker-only runs jobs without answering HTTP; a key that sends
        more than --rate-limit requests a minute (default 3000, per API process) is answered 429 with Retry-After, and
        so is an address after 20 requests within a minute without a valid key, before any key it sends is looked up;
        --replace-bootstrap-keys: a new bootstrap key deletes the keys earlier bootstrap keys made (revokes a lost one);
        --account-name names the server's account, as GET /accounts/current answers it (default on its first start:
        "Circularity Desk on <host name>"; given, it also renames the account)
  token create --scope account|portfolio:<id>|building:<id> --level 50|70|90 [--expires <iso>] [--name <name>]
        [--data <dir> | --database <postgres://…>]
        prints a new API key for the local account
  migrate-to --from <local data dir> --database <postgres://…> [--blobs <s3://…>] [--data <dir>] [--json]
        copies a local workspace (SQLite and blob folder) into an empty PostgreSQL database and blob store
        (default blob store: the folder blobs in --data); --json prints progress as one JSON object per line`;

/** Requests per key and minute `serve` allows unless told otherwise. */
const DEFAULT_RATE_LIMIT = 3000;

/** How `serve` and `token create` name the account: as told (renaming it), else a new account after this computer. */
function accountNaming(given: string | undefined): AccountNaming {
  const name = nonEmpty(given?.trim());
  return name === undefined ? { name: `Circularity Desk on ${hostname()}`, rename: false } : { name, rename: true };
}

/** Fails the command with a message and the usage. */
function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

/** The PostgreSQL address of `--database` or `DATABASE_URL`, checked; undefined for SQLite in the data folder. */
function databaseUrlOf(given: string | undefined): string | undefined {
  const url = nonEmpty(given) ?? nonEmpty(process.env[DATABASE_URL_ENV]);
  if (url !== undefined && !isPostgresUrl(url)) {
    fail(`--database takes a postgres://user:password@host:port/database address, not '${url}' (SQLite lives in --data).`);
  }
  return url;
}

/** Parses `account`, `portfolio:<id>` or `building:<id>`. */
function parseScope(scope: string): { scopeKind: ScopeKind; scopeId: string | null } {
  if (scope === 'account') return { scopeKind: 'account', scopeId: null };
  const match = /^(portfolio|building):([0-9a-fA-F-]{36})$/.exec(scope);
  if (match === null) fail(`--scope must be account, portfolio:<uuid> or building:<uuid>, not '${scope}'.`);
  return { scopeKind: match[1] as ScopeKind, scopeId: (match[2] ?? '').toLowerCase() };
}

/** `token create`: a new key, printed once. */
async function createTokenCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      scope: { type: 'string' },
      level: { type: 'string' },
      expires: { type: 'string' },
      name: { type: 'string' },
      data: { type: 'string', default: './.data' },
      database: { type: 'string' },
    },
  });
  if (values.scope === undefined || values.level === undefined) fail('token create needs --scope and --level.');
  const databaseUrl = databaseUrlOf(values.database);
  const location: DatabaseLocation = databaseUrl === undefined ? values.data : { url: databaseUrl };
  const level = Number(values.level);
  if (level !== Level.Read && level !== Level.Write && level !== Level.Administrator) fail('--level must be 50, 70 or 90.');
  let expiresAt: string | null = null;
  if (values.expires !== undefined) {
    const time = Date.parse(values.expires);
    if (Number.isNaN(time)) fail(`--expires is not an ISO 8601 date-time: '${values.expires}'.`);
    expiresAt = new Date(time).toISOString();
  }
  const scope = parseScope(values.scope);
  const database = await openDatabase(location);
  try {
    const { accountId } = await database.dialect.exclusively(database.db, 'server-start', async (db) => {
      await seedSystemData(db);
      return ensureLocalAccount(db, accountNaming(undefined));
    });
    if (scope.scopeKind === 'portfolio' || scope.scopeKind === 'building') {
      const table = scope.scopeKind === 'portfolio' ? 'portfolios' : 'buildings';
      const found = await database.db
        .selectFrom(table)
        .select('id')
        .where('id', '=', scope.scopeId ?? '')
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      if (found === undefined) fail(`No ${scope.scopeKind} '${scope.scopeId}' in this ${databaseUrl === undefined ? 'data folder' : 'database'}.`);
    }
    const token = await createToken(database.db, {
      accountId,
      name: values.name ?? `${values.scope} key`,
      ...scope,
      level,
      expiresAt,
    });
    console.log(token.key);
  } finally {
    await database.close();
  }
}

/** What `serve` stores where: the data folder, and the database and blob store when they are elsewhere. */
interface StoreOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  blobs: string | undefined;
}

/** Where the store is, in words (never with the database password). */
function describeStore(store: StoreOptions): string {
  const database = store.databaseUrl === undefined ? `data in ${store.dataDir}` : `database ${withoutPassword(store.databaseUrl)}`;
  return store.blobs === undefined ? database : `${database}, blobs in ${store.blobs.split('?')[0] ?? ''}`;
}

/** An address with its password masked, for messages. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an address that is not a URL)';
  }
}

/** `serve --worker-only`: runs jobs against the store without answering HTTP, until SIGTERM/SIGINT. */
async function workerOnly(store: StoreOptions, logger: boolean): Promise<void> {
  const server = await prepareServer({
    dataDir: store.dataDir,
    ...(store.databaseUrl === undefined ? {} : { databaseUrl: store.databaseUrl }),
    ...(store.blobs === undefined ? {} : { blobs: store.blobs }),
    logger,
    worker: true,
  });
  console.log(`Circularity Desk worker running (${describeStore(store)})`);
  stopOnSignals(server.close);
}

/** Closes gracefully on the first SIGTERM or SIGINT (or shutdown request of a parent process), then exits. */
function stopOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received: finishing open requests and jobs, closing the database.`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  parentChannel()?.onShutdown(() => shutdown('Shutdown request'));
}

/** `serve`: listens until SIGTERM/SIGINT, then finishes in-flight requests and closes the database. */
async function serveCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: './.data' },
      database: { type: 'string' },
      blobs: { type: 'string' },
      'bootstrap-key': { type: 'string' },
      'replace-bootstrap-keys': { type: 'boolean', default: false },
      'public-url': { type: 'string' },
      demo: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      'no-worker': { type: 'boolean', default: false },
      'api-only': { type: 'boolean', default: false },
      'worker-only': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'account-name': { type: 'string' },
    },
  });
  const apiOnly = values['api-only'] || values['no-worker'];
  if (apiOnly && values['worker-only']) fail('--api-only and --worker-only exclude each other.');
  const store: StoreOptions = {
    dataDir: values.data,
    databaseUrl: databaseUrlOf(values.database),
    blobs: nonEmpty(values.blobs) ?? nonEmpty(process.env[BLOB_STORE_URL_ENV]),
  };
  if (values['worker-only']) {
    await workerOnly(store, !values.quiet);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, not '${values.port}'.`);
  const rateLimit = Number(values['rate-limit'] ?? DEFAULT_RATE_LIMIT);
  if (!Number.isInteger(rateLimit) || rateLimit < 0) fail(`--rate-limit must be a whole number of requests, not '${values['rate-limit']}'.`);
  const bootstrapKey = values['bootstrap-key'] ?? nonEmpty(process.env[BOOTSTRAP_KEY_ENV]);
  if (bootstrapKey !== undefined && bootstrapKey.length < MIN_BOOTSTRAP_KEY_LENGTH) {
    fail(`--bootstrap-key must be at least ${MIN_BOOTSTRAP_KEY_LENGTH} characters long: it opens the whole account.`);
  }
  const parent = parentChannel();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      dataDir: store.dataDir,
      ...(store.databaseUrl === undefined ? {} : { databaseUrl: store.databaseUrl }),
      ...(store.blobs === undefined ? {} : { blobs: store.blobs }),
      host: values.host,
      port,
      bootstrapKey,
      replaceEarlierBootstrapKeys: values['replace-bootstrap-keys'],
      demo: values.demo,
      accountNaming: accountNaming(values['account-name']),
      logger: !values.quiet,
      worker: !apiOnly,
      config: {
        publicBaseUrl: values['public-url'],
        rateLimit: rateLimit === 0 ? null : { max: rateLimit, windowMs: 60_000 },
      },
    });
  } catch (error) {
    parent?.send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  parent?.send({ type: 'listening', url: server.url });
  console.log(
    `Circularity Desk API listening on ${server.url} (${describeStore(store)}${apiOnly ? '; no job worker' : ''}; ` +
      `OpenAPI at ${server.url}/api/v2.3/openapi.json)`,
  );
  if (values.demo && bootstrapKey === undefined) {
    // A sample-data start without a chosen key gets a fresh administrator key, so the first request can be made at once.
    const token = await createToken(server.context.db, {
      accountId: server.localAccountId,
      name: 'Demo key',
      scopeKind: 'account',
      scopeId: null,
      level: Level.Administrator,
      expiresAt: null,
    });
    console.log(`Administrator key for this start: ${token.key}`);
  }
  stopOnSignals(server.close);
}

/** A progress line of `migrate-to` for people. */
function describeProgress(progress: MigrationProgress): string | undefined {
  switch (progress.step) {
    case 'table':
      return progress.copied === progress.total ? `  ${progress.table}: ${progress.copied} rows` : undefined;
    case 'blobs':
      return progress.copied === progress.total ? `  blobs: ${progress.copied} files, ${progress.bytes} bytes` : undefined;
    case 'committed':
      return 'Committed.';
    default:
      return assertNever(progress);
  }
}

/** `migrate-to`: copies a local workspace into a team server's PostgreSQL database and blob store. */
async function migrateCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      from: { type: 'string' },
      database: { type: 'string' },
      blobs: { type: 'string' },
      data: { type: 'string', default: './.data' },
      json: { type: 'boolean', default: false },
    },
  });
  if (values.from === undefined) fail('migrate-to needs --from <the local data folder>.');
  const databaseUrl = databaseUrlOf(values.database);
  if (databaseUrl === undefined) fail('migrate-to needs --database postgres://… (or DATABASE_URL).');
  const blobs = nonEmpty(values.blobs) ?? nonEmpty(process.env[BLOB_STORE_URL_ENV]);
  const json = values.json;
  if (!json) console.log(`Copying the workspace in ${values.from} to ${describeStore({ dataDir: values.data, databaseUrl, blobs })}…`);
  const summary = await migrateWorkspace({
    fromDataDir: values.from,
    databaseUrl,
    dataDir: values.data,
    ...(blobs === undefined ? {} : { blobs }),
    onProgress: (progress) => {
      if (json) {
        console.log(JSON.stringify(progress));
        return;
      }
      const line = describeProgress(progress);
      if (line !== undefined) console.log(line);
    },
  });
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  if (json) console.log(JSON.stringify({ step: 'done', ...summary } satisfies MigrationDone));
  else console.log(`Done: ${rows} rows in ${summary.tables.length} tables, ${summary.blobs.count} blobs (${summary.blobs.bytes} bytes).`);
}

const [command, ...rest] = process.argv.slice(2);
const run = async (): Promise<void> => {
  if (command === 'help' || command === '--help') {
    console.log(usage);
  } else if (command === 'token') {
    if (rest[0] !== 'create') fail(`Unknown token command '${rest[0] ?? ''}'.`);
    await createTokenCommand(rest.slice(1));
  } else if (command === 'serve') {
    await serveCommand(rest);
  } else if (command === 'migrate-to') {
    await migrateCommand(rest);
  } else if (command === undefined || command.startsWith('--')) {
    await serveCommand(process.argv.slice(2));
  } else {
    fail(`Unknown command '${command}'.`);
  }
};
run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
