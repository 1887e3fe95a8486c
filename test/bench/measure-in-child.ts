/**
 * One measurement per Node process, for the benchmarks that compare peak memory: a bench file starts itself again
 * with `--measure <kind> <args…>` (`measureInChild`), the fresh process runs that one measurement and prints it as a
 * JSON line (`runMeasureChild`), so its peak RSS, heap and JIT are its own and not the parent's or a previous
 * measurement's.
 */
import { spawn } from 'node:child_process';

/** This process's peak resident set size so far, bytes (maxRSS includes worker threads; rss covers a late peak). */
export function peakRss(): number {
  return Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage().rss);
}

/** Runs measurement `kind` of `script` (a bench file that calls `runMeasureChild`) in a fresh process. */
export function measureInChild<T>(script: string, kind: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--measure', kind, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`the ${kind} measurement exited with ${code ?? signal}: ${output}`));
      else {
        try {
          resolve(JSON.parse(line) as T);
        } catch {
          reject(new Error(`the ${kind} measurement printed no result: ${output}`));
        }
      }
    });
  });
}

/**
 * In a process started by `measureInChild`: runs the measurement it names, prints its result and exits (non-zero when
 * it throws or is unknown). Returns false, doing nothing, in any other process: the caller then runs its bench.
 */
export function runMeasureChild(measurements: Readonly<Record<string, (...args: string[]) => Promise<unknown>>>): boolean {
  const index = process.argv.indexOf('--measure');
  if (index < 0) return false;
  const kind = process.argv[index + 1] ?? '';
  const measure = measurements[kind];
  const run = measure === undefined ? Promise.reject(new Error(`unknown measurement ${kind}`)) : measure(...process.argv.slice(index + 2));
  run.then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
  return true;
}
