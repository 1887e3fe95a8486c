/**
 * The processes of a team server, as it is deployed: `server/cli.ts serve --api-only` and `serve --worker-only`, each
 * its own Node process, all on one PostgreSQL database and one blob store. Used by the scale benchmark and by the
 * integration test of API and worker processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What a process of the team server does. */
export type TeamRole = 'api' | 'worker';

/** A started process: its role, the child, and for an API process its address. */
export interface TeamProcess {
  role: TeamRole;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` of an API process; empty for a worker. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
}

/** Where every process of one team server keeps its data. */
export interface TeamStore {
  databaseUrl: string;
  /** The data folder: the shared blob folder when `blobs` is absent. */
  dataDir: string;
  blobs?: string;
  /** The administrator key API processes make sure exists. */
  key: string;
  /** Environment besides this process's own (without its DATABASE_URL and BLOB_STORE_URL). */
  env?: Record<string, string>;
}

/** The environment of a server process: this one's, without store addresses that would override the arguments. */
function processEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, BLOB_STORE_URL: _blobs, ...rest } = process.env;
  return { ...rest, ...extra };
}

/**
 * Starts one process and resolves once it is ready: an API process when it prints its address, a worker when it says
 * it runs. Node with tsx as a loader (not the tsx command, which would run the server in a child of its own), so a
 * signal sent to `child` reaches the server itself.
 */
export function startTeamProcess(role: TeamRole, store: TeamStore): Promise<TeamProcess> {
  const args = [
    '--import',
    'tsx',
    path.join(repoRoot, 'server/cli.ts'),
    'serve',
    role === 'api' ? '--api-only' : '--worker-only',
    '--database',
    store.databaseUrl,
    '--data',
    store.dataDir,
    ...(store.blobs === undefined ? [] : ['--blobs', store.blobs]),
    // Benchmarks measure throughput: no limit on requests per key.
    ...(role === 'api' ? ['--port', '0', '--bootstrap-key', store.key, '--rate-limit=0'] : []),
    '--quiet',
  ];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: processEnvironment(store.env ?? {}) });
  let output = '';
  return new Promise((resolve, reject) => {
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = role === 'api' ? /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output) : /worker running/.exec(output);
      if (ready !== null) resolve({ role, child, url: role === 'api' ? (ready[1] ?? '') : '', output: () => output });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code, signal) => reject(new Error(`The ${role} process exited (${code ?? signal}): ${output}`)));
  });
}

/** Stops a process (SIGTERM: finish requests and jobs; SIGKILL: die mid-job) and waits until it is gone. */
export function stopTeamProcess(member: TeamProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (member.child.exitCode !== null || member.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    member.child.removeAllListeners('exit');
    member.child.once('exit', () => resolve());
    member.child.kill(signal);
  });
}
