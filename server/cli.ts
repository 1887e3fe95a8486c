import { parseArgs } from 'node:util';
import { Level } from './auth/principal';
import { createToken } from './auth/tokens';
import { openDatabase } from './store/store';
import { seedSystemData } from './store/seed/system-data';
import { ensureLocalAccount } from './store/seed/local-account';
import { prepareServer, startServer } from './server';
import type { ScopeKind } from './store/tables';
import { parentChannel } from './parent-channel';
import { BOOTSTRAP_KEY_ENV } from '../shared/embedded-server';

const usage = `Usage:
  serve [--port <n>] [--host <addr>] [--data <dir>] [--bootstrap-key <key> (or env CIRCULARITY_BOOTSTRAP_KEY)] [--demo] [--public-url <url>] [--no-worker | --worker-only]
        starts the API and the job worker (default 127.0.0.1:8080, data in ./.data)
  token create --scope account|portfolio:<id>|building:<id> --level 50|70|90 [--expires <iso>] [--name <name>] [--data <dir>]
        prints a new API key for the local account`;

/** Fails the command with a message and the usage. */
function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
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
    },
  });
  if (values.scope === undefined || values.level === undefined) fail('token create needs --scope and --level.');
  const level = Number(values.level);
  if (level !== Level.Read && level !== Level.Write && level !== Level.Administrator) fail('--level must be 50, 70 or 90.');
  let expiresAt: string | null = null;
  if (values.expires !== undefined) {
    const time = Date.parse(values.expires);
    if (Number.isNaN(time)) fail(`--expires is not an ISO 8601 date-time: '${values.expires}'.`);
    expiresAt = new Date(time).toISOString();
  }
  const scope = parseScope(values.scope);
  const database = await openDatabase(values.data);
  try {
    await seedSystemData(database.db);
    const { accountId } = await ensureLocalAccount(database.db);
    if (scope.scopeKind === 'portfolio' || scope.scopeKind === 'building') {
      const table = scope.scopeKind === 'portfolio' ? 'portfolios' : 'buildings';
      const found = await database.db
        .selectFrom(table)
        .select('id')
        .where('id', '=', scope.scopeId ?? '')
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      if (found === undefined) fail(`No ${scope.scopeKind} '${scope.scopeId}' in this data folder.`);
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

/** `serve --worker-only`: runs jobs against the data folder without answering HTTP, until SIGTERM/SIGINT. */
async function workerOnly(dataDir: string, logger: boolean): Promise<void> {
  const server = await prepareServer({ dataDir, logger, worker: true });
  console.log(`Circularity Desk worker running on ${dataDir}`);
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

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

/** `serve`: listens until SIGTERM/SIGINT, then finishes in-flight requests and closes the database. */
async function serveCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: './.data' },
      'bootstrap-key': { type: 'string' },
      'public-url': { type: 'string' },
      demo: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      'no-worker': { type: 'boolean', default: false },
      'worker-only': { type: 'boolean', default: false },
    },
  });
  if (values['worker-only']) {
    await workerOnly(values.data, !values.quiet);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, not '${values.port}'.`);
  const bootstrapKey = values['bootstrap-key'] ?? nonEmpty(process.env[BOOTSTRAP_KEY_ENV]);
  const parent = parentChannel();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      dataDir: values.data,
      host: values.host,
      port,
      bootstrapKey,
      demo: values.demo,
      logger: !values.quiet,
      worker: !values['no-worker'],
      config: { publicBaseUrl: values['public-url'] },
    });
  } catch (error) {
    parent?.send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  parent?.send({ type: 'listening', url: server.url });
  console.log(`Circularity Desk API listening on ${server.url} (data in ${values.data}; OpenAPI at ${server.url}/api/v2.3/openapi.json)`);
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

const [command, ...rest] = process.argv.slice(2);
const run = async (): Promise<void> => {
  if (command === 'help' || command === '--help') {
    console.log(usage);
  } else if (command === 'token') {
    if (rest[0] !== 'create') fail(`Unknown token command '${rest[0] ?? ''}'.`);
    await createTokenCommand(rest.slice(1));
  } else if (command === 'serve') {
    await serveCommand(rest);
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
