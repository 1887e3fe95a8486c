import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The server under test: its process and address. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/**
 * How the server runs: as `npm run serve` runs it (the sources through tsx as a loader, not the tsx command, so the
 * pid is the server's own, for memory readings), or with `BENCH_SERVER=bundle` as the desktop app runs its Local
 * workspace, the bundle `npm run build:desktop` writes to `dist/server/cli.mjs`.
 */
function serverEntry(repoRoot: string): string[] {
  if (process.env['BENCH_SERVER'] !== 'bundle') return ['--import', 'tsx', path.join(repoRoot, 'server/cli.ts')];
  const bundle = path.join(repoRoot, 'dist/server/cli.mjs');
  if (!existsSync(bundle)) throw new Error(`BENCH_SERVER=bundle runs ${bundle}: build it first with npm run build:desktop.`);
  return [bundle];
}

/** Starts `serve` in its own process and resolves once it prints its address. */
export function startServerProcess(dataDir: string, key: string): Promise<ServerProcess> {
  const repoRoot = path.resolve(import.meta.dirname, '../..');
  // Benchmarks measure throughput: no limit on requests per key.
  const child = spawn(
    process.execPath,
    [...serverEntry(repoRoot), 'serve', '--port', '0', '--data', dataDir, `--bootstrap-key=${key}`, '--quiet', '--rate-limit=0'],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match !== null) resolve({ child, url: match[0] });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', (code) => reject(new Error(`The server exited with ${code}: ${output}`)));
  });
}

/** Stops the server with SIGTERM (its graceful shutdown) and waits for it. */
export function stopServerProcess(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The peak resident memory of the server process so far (Linux `VmHWM`), in bytes; undefined where unknown. */
export async function serverPeakRss(server: ServerProcess): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time the server process has used so far (Linux `/proc/<pid>/stat`: user and system time of all its threads,
 * the import's worker among them), in seconds; undefined where unknown. A shared machine stretches wall time, far less
 * this.
 */
export async function serverCpuSeconds(server: ServerProcess): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${server.child.pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
