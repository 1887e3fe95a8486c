/**
 * Starts a worker thread whose entry module sits beside the module that starts it. From TypeScript sources (tsx,
 * vitest) the entry is `<entry>.ts` and registers tsx itself before loading it: on Node 20 a worker started with
 * `execArgv: ['--import', 'tsx']` still rejects `.ts` entry files. Compiled, it is `<entry>.js` beside the bundle,
 * where scripts/build-desktop.ts writes it.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts `<entry>.ts` or `<entry>.js` beside `here` (the caller's `import.meta.url`). */
export function startWorkerBeside(here: string, entry: string, options: WorkerOptions): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, here), options);
  const workerUrl = new URL(`./${entry}.ts`, here).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
