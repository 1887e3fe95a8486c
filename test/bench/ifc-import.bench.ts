/**
 * IFC import benchmark: synthetic IFC4 files (test/bench/synthetic-ifc.ts) of 10,000 and 100,000 walls, each read by
 * `importIfc` (check, worker, web-ifc, extraction, batches to a sink that only counts) and, for comparison, by a bare
 * web-ifc pass over the same file (OpenModel, then GetLine of every IfcWall). Each measurement runs in its own Node
 * process, so its peak RSS (`process.resourceUsage().maxRSS`, which includes the import's worker thread) is its own.
 *
 * `BENCH_IFC_MB=100` adds a case of that many MiB, judged against the goal: a 100 MiB file reaches Mapped in ≤ 20 s
 * with peak RSS ≤ 1.5 GiB; this measures the import step of that budget (storing, refinement and mapping come on top).
 * `BENCH_IFC_WALLS=10000,100000` replaces the default sizes. Never fails on time; exits non-zero when an import fails
 * or delivers a wrong number of elements.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importIfc } from '../../server/imports/ifc';
import { WebIfc } from '../../server/imports/ifc/web-ifc';
import { writeSyntheticIfc } from './synthetic-ifc';

const MIB = 1024 * 1024;
const GOAL = { megabytes: 100, seconds: 20, rssBytes: 1.5 * 1024 * MIB };

/** What one measuring process reports. */
interface Measurement {
  elements: number;
  seconds: number;
  /** Peak resident set size of the measuring process, bytes. */
  peakRss: number;
  /** Bare pass only: OpenModel alone. */
  openSeconds?: number;
}

/** Tracks the peak RSS while a measurement runs (maxRSS covers it too; sampling shows it is not a start-up spike). */
function peakRss(): number {
  return Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage().rss);
}

/** `importIfc` with a sink that only counts. */
async function measureImport(file: string): Promise<Measurement> {
  const started = performance.now();
  let elements = 0;
  const outcome = await importIfc(file, {
    elements: async (batch) => {
      elements += batch.length;
    },
    progress: () => undefined,
  });
  if (outcome.imported !== elements) throw new Error(`imported ${outcome.imported}, delivered ${elements}`);
  return { elements, seconds: (performance.now() - started) / 1000, peakRss: peakRss() };
}

/** web-ifc alone: Init, OpenModel on the file's bytes, GetLine of every IfcWall. */
async function measureBare(file: string): Promise<Measurement> {
  const started = performance.now();
  const api = new WebIfc.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  const modelId = api.OpenModel(readFileSync(file));
  if (modelId < 0) throw new Error('web-ifc could not open the file');
  const openSeconds = (performance.now() - started) / 1000;
  const walls = api.GetLineIDsWithType(modelId, WebIfc.IFCWALL);
  let elements = 0;
  for (let index = 0; index < walls.size(); index++) {
    const wall = api.GetLine(modelId, walls.get(index), false) as { GlobalId?: { value?: unknown } };
    if (typeof wall.GlobalId?.value === 'string') elements++;
  }
  api.CloseModel(modelId);
  return { elements, seconds: (performance.now() - started) / 1000, openSeconds, peakRss: peakRss() };
}

/** Runs one measurement in a fresh process (this file with `--measure`). */
function measureInChild(kind: 'import' | 'bare', file: string): Promise<Measurement> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', self, '--measure', kind, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`${kind} measurement exited with ${code}: ${output}`));
      else resolve(JSON.parse(line) as Measurement);
    });
  });
}

const mib = (bytes: number): string => (bytes / MIB).toFixed(1);

interface Case {
  label: string;
  walls: number;
  judge: boolean;
}

async function runCase(folder: string, benchCase: Case): Promise<boolean> {
  const file = path.join(folder, `walls-${benchCase.walls}.ifc`);
  const generated = performance.now();
  const { bytes } = await writeSyntheticIfc(file, { walls: benchCase.walls });
  const generateSeconds = (performance.now() - generated) / 1000;
  console.log(`\n${benchCase.label}${benchCase.walls.toLocaleString('en')} walls, ${mib(bytes)} MiB (written in ${generateSeconds.toFixed(1)} s)`);
  const imported = await measureInChild('import', file);
  const bare = await measureInChild('bare', file);
  const row = (name: string, m: Measurement, extra = ''): void =>
    console.log(
      `  ${name.padEnd(16)} ${m.seconds.toFixed(2).padStart(7)} s  ${(bytes / MIB / m.seconds).toFixed(1).padStart(6)} MiB/s  ` +
        `peak RSS ${mib(m.peakRss).padStart(7)} MiB  ${m.elements.toLocaleString('en')} elements${extra}`,
    );
  row('importIfc', imported);
  row('bare web-ifc', bare, bare.openSeconds === undefined ? '' : `  (OpenModel ${bare.openSeconds.toFixed(2)} s)`);
  let ok = true;
  if (imported.elements !== benchCase.walls || bare.elements !== benchCase.walls) {
    console.error(`  FAILED: expected ${benchCase.walls} elements from both`);
    ok = false;
  }
  if (benchCase.judge) {
    const inTime = imported.seconds <= GOAL.seconds;
    const inMemory = imported.peakRss <= GOAL.rssBytes;
    console.log(
      `  goal for a ${GOAL.megabytes} MiB file (import step): ≤ ${GOAL.seconds} s → ${inTime ? 'met' : 'NOT met'} (${imported.seconds.toFixed(1)} s); ` +
        `peak RSS ≤ 1.5 GiB → ${inMemory ? 'met' : 'NOT met'} (${mib(imported.peakRss)} MiB). Informative; never fails the run.`,
    );
  }
  await rm(file, { force: true });
  return ok;
}

async function main(): Promise<number> {
  const sizes = (process.env['BENCH_IFC_WALLS'] ?? '10000,100000')
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);
  const cases: Case[] = sizes.map((walls) => ({ label: '', walls, judge: false }));
  const targetMb = Number(process.env['BENCH_IFC_MB'] ?? 0);
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-ifc-bench-'));
  try {
    if (targetMb > 0) {
      // Size the walls from a sample, then once more from a file of about the right size (express ids grow longer).
      const sample = path.join(folder, 'sample.ifc');
      const small = await writeSyntheticIfc(sample, { walls: 1_000 });
      let walls = Math.ceil((targetMb * MIB) / (small.bytes / 1_000));
      const estimate = await writeSyntheticIfc(sample, { walls });
      walls = Math.round((walls * targetMb * MIB) / estimate.bytes);
      await rm(sample, { force: true });
      cases.push({ label: `${targetMb} MiB: `, walls, judge: targetMb === GOAL.megabytes });
    }
    console.log(`IFC import: synthetic IFC4 walls, ${availableParallelism()} CPU(s), Node ${process.version}; each measurement in its own process.`);
    let ok = true;
    for (const benchCase of cases) ok = (await runCase(folder, benchCase)) && ok;
    return ok ? 0 : 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const measureIndex = process.argv.indexOf('--measure');
if (measureIndex >= 0) {
  const kind = process.argv[measureIndex + 1];
  const file = process.argv[measureIndex + 2] ?? '';
  (kind === 'bare' ? measureBare(file) : measureImport(file)).then(
    (measurement) => {
      console.log(JSON.stringify(measurement));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
