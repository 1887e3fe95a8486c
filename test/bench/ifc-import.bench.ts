/**
 * IFC import benchmark on synthetic IFC4 models (test/bench/synthetic-ifc.ts), in two parts. Every measurement runs
 * in a process of its own (the server is one, the others are this file with `--measure`, see measure-in-child.ts), so
 * each peak RSS is its own: `maxRSS` of a measuring process, `VmHWM` of the server; both include the import's worker
 * thread.
 *
 * 1. The import step. Files of 10,000 and 100,000 walls (`BENCH_IFC_WALLS=10000,100000` replaces the sizes), each read
 *    by `importIfc` (check, worker, the STEP reader, extraction, batches to a sink that only counts), by the same
 *    extraction through web-ifc's reader (Init, the model opened from disk as the import did before it had a reader of
 *    its own, raw lines from web-ifc) and by the bare pass: web-ifc alone (Init, OpenModel on the file's bytes, GetLine
 *    of every IfcWall). `BENCH_IFC_MB=100` adds a case of
 *    that many MiB, judged against the goal: a 100 MiB file reaches Mapped in ≤ 20 s with peak RSS ≤ 1.5 GiB (this
 *    part measures the import step of that budget; part 2 and pipeline.bench.ts measure all of it).
 * 2. The whole pipeline against web-ifc's own pass over the same file. The file is uploaded to the server and the time
 *    from the end of the upload to Mapped (import, refinement, validation) is taken as pipeline.bench.ts takes it
 *    (time-to-mapped.ts), with the server's peak RSS, then set against a pass of web-ifc alone as a ratio:
 *    - WITH quantity sets, `BENCH_IFC_QUANTITIES_MB` MiB (default 120), against the property walk through web-ifc's
 *      reader (part 1's second reading: every wall with its property sets), with the bare pass of part 1 beside it.
 *      Every wall has its volume in Qto_WallBaseQuantities, so no geometry is computed and web-ifc is never started.
 *      Goal: ≤ ½ of the walk's time, server peak RSS ≤ 600 MiB (with web-ifc's reader: 18.7 s against 14.7 s, 955 MiB).
 *    - WITHOUT quantity sets, `BENCH_IFC_NO_QUANTITIES_MB` MiB (default 50), against web-ifc's mesh streaming
 *      (mesh-streaming.ts: open the model as the import's worker does, then StreamAllMeshes touching every mesh's
 *      geometry; open plus streaming, Init not counted). Every wall's volume comes from its geometry. Goal: ≤ 3×.
 *    A size of 0 leaves a case out. A table closes the run: file size, elements, time to Mapped, the web-ifc pass's
 *    time, the ratio, the server's and the web-ifc pass's peak RSS.
 *
 * Three of the four synthetic wall types have three layers, so a file of N walls imports as `syntheticElementCount(N)`
 * elements (2.5 N): the extraction, through either reader, splits them into their layers (server/imports/README.md,
 * "Layered and composite elements split"); the bare pass reads the walls.
 *
 * Never fails on time; exits non-zero only when a measurement fails, an import delivers a wrong number of elements,
 * or a file does not reach Mapped with every wall's elements.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeSync, openSync, readSync } from 'node:fs';
import { importIfc } from '../../server/imports/ifc';
import { extractElements } from '../../server/imports/ifc/extract';
import { ElementGeometry } from '../../server/imports/ifc/geometry';
import { LineReader } from '../../server/imports/ifc/raw';
import { WebIfc } from '../../server/imports/ifc/web-ifc';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { measureInChild, peakRss, runMeasureChild } from './measure-in-child';
import { measureMeshStreaming, type MeshPass } from './mesh-streaming';
import { syntheticElementCount, writeSyntheticIfc, writeSyntheticIfcOfSize } from './synthetic-ifc';
import { timeToMapped, type TimeToMapped } from './time-to-mapped';

const MIB = 1024 * 1024;
const GOAL = { megabytes: 100, seconds: 20, rssBytes: 1.5 * 1024 * MIB };
/** Part 2, with quantities: time to Mapped within this share of web-ifc's property walk, with the server's peak RSS at most. */
const GOAL_QUANTITIES = { ratio: 0.5, rssBytes: 600 * MIB };
/** Part 2, without quantities: time to Mapped within this many times web-ifc's mesh streaming. */
const GOAL_NO_QUANTITIES_RATIO = 3;
const self = fileURLToPath(import.meta.url);

/** What a measuring process of part 1 reports. */
interface Measurement {
  elements: number;
  seconds: number;
  /** Peak resident set size of the measuring process, bytes. */
  peakRss: number;
  /** Bare pass only: OpenModel alone. */
  openSeconds?: number;
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

/** The extraction through web-ifc's reader: the model opened from disk in the chunks web-ifc asks for. */
async function measureWebIfcReader(file: string): Promise<Measurement> {
  const started = performance.now();
  const api = new WebIfc.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  const descriptor = openSync(file, 'r');
  let modelId: number;
  try {
    modelId = api.OpenModelFromCallback((offset, size) => {
      const chunk = Buffer.allocUnsafe(size);
      return chunk.subarray(0, readSync(descriptor, chunk, 0, size, offset));
    });
  } finally {
    closeSync(descriptor);
  }
  if (modelId < 0) throw new Error('web-ifc could not open the file');
  let elements = 0;
  await extractElements(new LineReader(api, modelId), async () => new ElementGeometry(api, modelId), {
    start: () => undefined,
    batch: async (batch) => {
      elements += batch.length;
    },
  }, 500);
  api.CloseModel(modelId);
  return { elements, seconds: (performance.now() - started) / 1000, peakRss: peakRss() };
}

/** The bare pass, web-ifc alone: Init, OpenModel on the file's bytes, GetLine of every IfcWall. */
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

const mib = (bytes: number): string => (bytes / MIB).toFixed(1);
const megabytesFrom = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : 0;
};

/** Part 1: one file of `walls` walls through importIfc, the extraction through web-ifc's reader, and the bare pass. */
interface ImportCase {
  label: string;
  walls: number;
  judge: boolean;
}

async function runImportCase(folder: string, benchCase: ImportCase): Promise<boolean> {
  const file = path.join(folder, `walls-${benchCase.walls}.ifc`);
  const generated = performance.now();
  const { bytes } = await writeSyntheticIfc(file, { walls: benchCase.walls });
  const generateSeconds = (performance.now() - generated) / 1000;
  console.log(`\n${benchCase.label}${benchCase.walls.toLocaleString('en')} walls, ${mib(bytes)} MiB (written in ${generateSeconds.toFixed(1)} s)`);
  const imported = await measureInChild<Measurement>(self, 'import', [file]);
  const throughWebIfc = await measureInChild<Measurement>(self, 'webIfcReader', [file]);
  const bare = await measureInChild<Measurement>(self, 'bare', [file]);
  const row = (name: string, m: Measurement, extra = ''): void =>
    console.log(
      `  ${name.padEnd(16)} ${m.seconds.toFixed(2).padStart(7)} s  ${(bytes / MIB / m.seconds).toFixed(1).padStart(6)} MiB/s  ` +
        `peak RSS ${mib(m.peakRss).padStart(7)} MiB  ${m.elements.toLocaleString('en')} elements${extra}`,
    );
  row('importIfc (STEP)', imported);
  row('web-ifc reader', throughWebIfc, `  (${(imported.seconds / throughWebIfc.seconds).toFixed(2)}× of it for importIfc)`);
  row('bare web-ifc', bare, bare.openSeconds === undefined ? '' : `  (OpenModel ${bare.openSeconds.toFixed(2)} s)`);
  let ok = true;
  const expected = syntheticElementCount(benchCase.walls);
  if (imported.elements !== expected || throughWebIfc.elements !== expected || bare.elements !== benchCase.walls) {
    console.error(`  FAILED: expected ${expected} elements (their layers) from each extraction and ${benchCase.walls} walls from web-ifc`);
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

/** Part 2: one file uploaded to the server until Mapped, against a pass of web-ifc alone over the same file. */
interface PipelineCase {
  label: string;
  megabytes: number;
  quantitySets: boolean;
  /** The web-ifc pass: the property walk (with the bare pass beside it), or mesh streaming. */
  anchor: 'walk' | 'stream';
  /** How the ratio (and the server's peak RSS) compare with the figures the case is held to. */
  verdict: (ratio: number, peakRssBytes: number | undefined) => string;
}

/** A finished case of part 2, for the closing table. */
interface PipelineRow {
  label: string;
  bytes: number;
  walls: number;
  mapped: TimeToMapped;
  anchorName: string;
  anchorSeconds: number;
  anchorRss: number;
  ratio: number;
  verdict: string;
}

async function runPipelineCase(folder: string, benchCase: PipelineCase): Promise<PipelineRow | undefined> {
  const file = path.join(folder, `pipeline-${benchCase.quantitySets ? 'quantities' : 'no-quantities'}.ifc`);
  const generated = performance.now();
  const { walls, bytes } = await writeSyntheticIfcOfSize(file, benchCase.megabytes, { quantitySets: benchCase.quantitySets });
  const generateSeconds = (performance.now() - generated) / 1000;
  console.log(`\n${benchCase.label}: ${walls.toLocaleString('en')} walls, ${mib(bytes)} MiB (written in ${generateSeconds.toFixed(1)} s)`);
  try {
    const mapped = await timeToMapped(file);
    const reached = mapped.status === BuildingFileStatuses.Mapped;
    console.log(
      `  server           upload ${mapped.uploadSeconds.toFixed(2)} s, then ${reached ? 'Mapped' : `status ${mapped.status}`} after ${mapped.seconds.toFixed(2)} s  ` +
        `(server CPU ${mapped.cpuSeconds === undefined ? 'unknown' : `${mapped.cpuSeconds.toFixed(2)} s`})  ` +
        `peak RSS ${mapped.peakRss === undefined ? 'unknown' : `${mib(mapped.peakRss)} MiB`}  ${mapped.elementCount.toLocaleString('en')} elements`,
    );
    let anchorName: string;
    let anchorSeconds: number;
    let anchorRss: number;
    let anchorElements: number;
    if (benchCase.anchor === 'walk') {
      const bare = await measureInChild<Measurement>(self, 'bare', [file]);
      console.log(
        `  bare web-ifc     ${bare.seconds.toFixed(2)} s (OpenModel ${(bare.openSeconds ?? 0).toFixed(2)} s)  peak RSS ${mib(bare.peakRss)} MiB  ` +
          `${bare.elements.toLocaleString('en')} walls; to Mapped ${(mapped.seconds / bare.seconds).toFixed(2)}× of this bare pass`,
      );
      // The walk the import made through web-ifc before it had a reader of its own: every wall with its property sets.
      const walk = await measureInChild<Measurement>(self, 'webIfcReader', [file]);
      anchorName = 'property walk';
      anchorSeconds = walk.seconds;
      anchorRss = walk.peakRss;
      anchorElements = walk.elements;
      console.log(`  web-ifc reader   ${walk.seconds.toFixed(2)} s  peak RSS ${mib(walk.peakRss)} MiB  ${walk.elements.toLocaleString('en')} walls`);
    } else {
      const stream = await measureInChild<MeshPass>(self, 'stream', [file]);
      anchorName = 'mesh streaming';
      anchorSeconds = stream.openSeconds + stream.meshSeconds;
      anchorRss = stream.peakRss;
      anchorElements = stream.elements;
      console.log(
        `  web-ifc meshes   ${anchorSeconds.toFixed(2)} s (open ${stream.openSeconds.toFixed(2)} s, StreamAllMeshes ${stream.meshSeconds.toFixed(2)} s)  ` +
          `peak RSS ${mib(stream.peakRss)} MiB  ${stream.elements.toLocaleString('en')} meshes`,
      );
    }
    const ratio = mapped.seconds / anchorSeconds;
    const verdict = benchCase.verdict(ratio, mapped.peakRss);
    console.log(`  ratio            ${ratio.toFixed(2)}×; ${verdict}`);
    let ok = true;
    if (!reached) {
      console.error(`  FAILED: the file ended in status ${mapped.status}: ${mapped.statusMessage ?? ''}`);
      ok = false;
    } else if (mapped.elementCount !== syntheticElementCount(walls)) {
      console.error(`  FAILED: ${mapped.elementCount} elements Mapped, expected ${syntheticElementCount(walls)} (the walls' layers)`);
      ok = false;
    }
    if (anchorElements !== (benchCase.anchor === 'walk' ? syntheticElementCount(walls) : walls)) {
      console.error(`  FAILED: the ${anchorName} found ${anchorElements} walls, expected ${walls}`);
      ok = false;
    }
    return ok ? { label: benchCase.label, bytes, walls, mapped, anchorName, anchorSeconds, anchorRss, ratio, verdict } : undefined;
  } finally {
    await rm(file, { force: true });
  }
}

/** Prints the rows of part 2 as a table. */
function printTable(rows: readonly PipelineRow[]): void {
  const header = ['case', 'file', 'elements', 'to Mapped', 'web-ifc pass', 'its time', 'ratio', 'server peak RSS', 'its peak RSS'];
  const lines = rows.map((row) => [
    row.label,
    `${mib(row.bytes)} MiB`,
    row.mapped.elementCount.toLocaleString('en'),
    `${row.mapped.seconds.toFixed(2)} s`,
    row.anchorName,
    `${row.anchorSeconds.toFixed(2)} s`,
    `${row.ratio.toFixed(2)}×`,
    row.mapped.peakRss === undefined ? 'unknown' : `${mib(row.mapped.peakRss)} MiB`,
    `${mib(row.anchorRss)} MiB`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] ?? '').length)));
  // Text columns flush left, figures flush right.
  const format = (cells: readonly string[]): string =>
    cells.map((cell, column) => ([0, 4].includes(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(`\n  ${format(header)}`);
  console.log(`  ${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const line of lines) console.log(`  ${format(line)}`);
  for (const row of rows) console.log(`  ${row.label}: ${row.verdict}`);
}

async function main(): Promise<number> {
  const sizes = (process.env['BENCH_IFC_WALLS'] ?? '10000,100000')
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);
  const importCases: ImportCase[] = sizes.map((walls) => ({ label: '', walls, judge: false }));
  const targetMb = megabytesFrom('BENCH_IFC_MB', 0);
  const allPipelineCases: PipelineCase[] = [
    {
      label: 'with quantities',
      megabytes: megabytesFrom('BENCH_IFC_QUANTITIES_MB', 120),
      quantitySets: true,
      anchor: 'walk',
      verdict: (ratio, peakRssBytes) =>
        `goal ≤ ${GOAL_QUANTITIES.ratio}× → ${ratio <= GOAL_QUANTITIES.ratio ? 'met' : 'NOT met'}; server peak RSS ≤ ${mib(GOAL_QUANTITIES.rssBytes)} MiB → ` +
        `${peakRssBytes === undefined ? 'unknown' : peakRssBytes <= GOAL_QUANTITIES.rssBytes ? 'met' : 'NOT met'} (informative; never fails the run)`,
    },
    {
      label: 'without quantities',
      megabytes: megabytesFrom('BENCH_IFC_NO_QUANTITIES_MB', 50),
      quantitySets: false,
      anchor: 'stream',
      verdict: (ratio) =>
        `goal ≤ ${GOAL_NO_QUANTITIES_RATIO}× → ${ratio <= GOAL_NO_QUANTITIES_RATIO ? 'met' : 'NOT met'} (informative; never fails the run)`,
    },
  ];
  const pipelineCases = allPipelineCases.filter((benchCase) => benchCase.megabytes > 0);

  const folder = await mkdtemp(path.join(tmpdir(), 'cd-ifc-bench-'));
  try {
    if (targetMb > 0) {
      const sample = path.join(folder, 'sample.ifc');
      const { walls } = await writeSyntheticIfcOfSize(sample, targetMb);
      await rm(sample, { force: true });
      importCases.push({ label: `${targetMb} MiB: `, walls, judge: targetMb === GOAL.megabytes });
    }
    console.log(`IFC import: synthetic IFC4 walls, ${availableParallelism()} CPU(s), Node ${process.version}; each measurement in its own process.`);
    let ok = true;
    if (importCases.length > 0) console.log("\nPart 1: the import step (importIfc, STEP reader) against the extraction through web-ifc's reader and the bare web-ifc pass");
    for (const benchCase of importCases) {
      try {
        ok = (await runImportCase(folder, benchCase)) && ok;
      } catch (error) {
        console.error(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
        ok = false;
      }
    }
    if (pipelineCases.length > 0) console.log('\nPart 2: upload → Mapped (server in its own process) against web-ifc alone on the same file');
    const rows: PipelineRow[] = [];
    for (const benchCase of pipelineCases) {
      try {
        const row = await runPipelineCase(folder, benchCase);
        if (row === undefined) ok = false;
        else rows.push(row);
      } catch (error) {
        console.error(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
        ok = false;
      }
    }
    if (rows.length > 0) printTable(rows);
    return ok ? 0 : 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (!runMeasureChild({ import: measureImport, webIfcReader: measureWebIfcReader, bare: measureBare, stream: measureMeshStreaming })) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
