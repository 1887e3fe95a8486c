/**
 * Runs every `*.bench.ts` of this folder in turn, each in its own Node process (a benchmark must not inherit another's
 * warmed-up JIT, open handles or heap). Exits non-zero when any benchmark does; timings alone never fail a run.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = path.dirname(fileURLToPath(import.meta.url));

/** Runs one benchmark file under tsx and resolves with its exit code. */
function runBenchmark(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

const files = (await readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort();
if (files.length === 0) {
  console.error(`No *.bench.ts files in ${folder}.`);
  process.exit(1);
}
const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const code = await runBenchmark(path.join(folder, file));
  if (code !== 0) failed.push(`${file} (exit ${code})`);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\nAll ${files.length} benchmark(s) ran without request errors.`);
