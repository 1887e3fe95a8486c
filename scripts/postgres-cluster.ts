/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 for tests, benchmarks and trying the team server: `initdb` into a
 * temporary folder, `pg_ctl start` on a free port with trust authentication, stopped and removed by `stop()`.
 * As root (CI containers), initdb refuses to run, so the cluster belongs to the `postgres` user and every command runs
 * through `runuser -u postgres`.
 *
 * `npx tsx scripts/postgres-cluster.ts` starts one, prints its address and keeps it until Ctrl-C.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Environment variable naming the folder of `initdb` and `pg_ctl` when they are not found by themselves. */
export const POSTGRES_BIN_ENV = 'POSTGRES_BIN';

/** A running cluster: the address of its `postgres` database as the superuser, and how to get rid of it. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

/** Whether a folder holds the two programs a cluster needs. */
function hasClusterTools(folder: string): boolean {
  return existsSync(path.join(folder, 'initdb')) && existsSync(path.join(folder, 'pg_ctl'));
}

/** Version-numbered folders (`/usr/lib/postgresql/15`), newest first. */
function versionFolders(parent: string): string[] {
  if (!existsSync(parent)) return [];
  return readdirSync(parent)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((name) => path.join(parent, name));
}

/**
 * The folder of `initdb` and `pg_ctl`: `$POSTGRES_BIN`, the PATH, Debian's and Ubuntu's `/usr/lib/postgresql/<n>/bin`,
 * the PGDG RPMs' `/usr/pgsql-<n>/bin`, Homebrew's; undefined when PostgreSQL is not installed.
 */
export function findPostgresBin(): string | undefined {
  const given = process.env[POSTGRES_BIN_ENV];
  if (given !== undefined && given !== '') return hasClusterTools(given) ? given : undefined;
  const candidates = [
    ...(process.env['PATH'] ?? '').split(path.delimiter).filter((folder) => folder !== ''),
    ...versionFolders('/usr/lib/postgresql').map((folder) => path.join(folder, 'bin')),
    ...(existsSync('/usr') ? readdirSync('/usr').filter((name) => /^pgsql-\d+$/.test(name)).map((name) => path.join('/usr', name, 'bin')) : []),
    '/opt/homebrew/bin',
    '/usr/local/bin',
  ];
  return candidates.find(hasClusterTools);
}

/** A port that was free a moment ago on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The uid and gid of the `postgres` user, which must own the cluster when we are root. */
function postgresUser(): { uid: number; gid: number } {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('Running as root, initdb needs the postgres user (created by the postgresql package), which does not exist.');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Settings for a cluster whose data may be lost: no fsync, room for many test connections. */
const serverSettings = [
  'listen_addresses=127.0.0.1',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'max_connections=400',
  'shared_buffers=128MB',
];

/** Starts a cluster; `log` receives progress lines. */
export async function startPostgresCluster(options: { bin?: string; log?: (line: string) => void } = {}): Promise<PostgresCluster> {
  const bin = options.bin ?? findPostgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL is not installed (no initdb and pg_ctl found; set ${POSTGRES_BIN_ENV}).`);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];

  const folder = await mkdtemp(path.join(tmpdir(), 'cd-pg-'));
  if (owner !== undefined) await chown(folder, owner.uid, owner.gid);
  const dataDir = path.join(folder, 'data');
  try {
    // Like most production databases, a linguistic default collation (ICU English, PostgreSQL 15+), under which the
    // store must still sort by code point; else a UTF-8 locale, so lower()/upper() fold all of Unicode; else plain C.
    const initdb = ['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-sync'];
    const locales = [['--locale-provider=icu', '--icu-locale=en', '--locale=C.UTF-8'], ['--locale=C.UTF-8'], ['--no-locale']];
    for (const [index, locale] of locales.entries()) {
      try {
        await run(...command('initdb', [...initdb, ...locale]));
        break;
      } catch (error) {
        await rm(dataDir, { recursive: true, force: true });
        if (index === locales.length - 1) throw error;
      }
    }
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const settings = [...serverSettings, `port=${port}`, `unix_socket_directories=${folder}`].map((setting) => `-c ${setting}`).join(' ');
      try {
        await run(...command('pg_ctl', ['-D', dataDir, '-o', settings, '-l', path.join(folder, 'server.log'), '-w', '-t', '60', 'start']));
      } catch (error) {
        // Another process took the port between the probe and the start: try another.
        if (attempt < 3) continue;
        throw error;
      }
      options.log?.(`PostgreSQL (${bin}) listening on 127.0.0.1:${port}, data in ${dataDir}`);
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        stop: async () => {
          await run(...command('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop'])).catch(() => undefined);
          await rm(folder, { recursive: true, force: true });
        },
      };
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const cluster = await startPostgresCluster({ log: console.log });
  console.log(`Database address: ${cluster.url}\nCtrl-C stops the server and removes its data.`);
  const stop = (): void => {
    cluster.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
