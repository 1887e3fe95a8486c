/**
 * Builds the renderer for browser mode when the built copy is missing or older than its sources, so `npm run web`
 * on a fresh clone or after a pull serves what is in the tree.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Sources whose change makes the built renderer stale. */
const SOURCES = ['renderer', 'shared', 'vite.config.ts', 'tsconfig.renderer.json', 'tsconfig.base.json', 'package-lock.json'];

async function newestChange(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => undefined);
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newestChange(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** Whether `<outDir>/index.html` is missing or older than any renderer source under `root`. */
export async function rendererIsStale(root: string, outDir: string): Promise<boolean> {
  const built = await stat(path.join(outDir, 'index.html')).catch(() => undefined);
  if (built === undefined) return true;
  const sources = await Promise.all(SOURCES.map((source) => newestChange(path.join(root, source))));
  return Math.max(...sources) > built.mtimeMs;
}

/** Builds the renderer with the repository's Vite configuration into `outDir` when it is stale; says whether it built. */
export async function ensureRendererBuilt(root: string, outDir: string): Promise<boolean> {
  if (!(await rendererIsStale(root, outDir))) return false;
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return true;
}
