/**
 * Quantities from geometry (server/imports/ifc/geometry.ts) benchmark.
 *
 * 1. Fixtures: the time per element of `ElementGeometry.quantities` on every model of test/fixtures/ifc, and what it
 *    gives (volumes, open, empty, failed).
 * 2. A synthetic IFC4 file of `BENCH_GEOMETRY_MB` MiB (default 50) whose walls carry no quantity sets
 *    (test/bench/synthetic-ifc.ts, `quantitySets: false`), read two ways, each in its own Node process
 *    (measure-in-child.ts):
 *    - web-ifc alone (mesh-streaming.ts): open the model as the import's worker does (`OpenModelFromCallback`), then
 *      `StreamAllMeshes`, touching every mesh's geometry;
 *    - ours: open the model the same way, then `quantities()` of every element.
 *    The goal: ours within 3× of web-ifc alone. The wasm heap is sampled after the first 1,000 elements and at the end:
 *    it must not grow with the element count. (ifc-import.bench.ts sets the whole pipeline's time to Mapped of such a
 *    model against the same mesh streaming.)
 *
 * Never fails on time; exits non-zero when a measurement fails or the walls' volumes are wrong.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ElementGeometry } from '../../server/imports/ifc/geometry';
import { type IfcAPI, WebIfc } from '../../server/imports/ifc/web-ifc';
import { IFC_FIXTURES, type IfcFixtureName } from '../fixtures/files';
import { measureInChild, peakRss, runMeasureChild } from './measure-in-child';
import { HEAP_SAMPLE_AFTER, measureMeshStreaming, openModel, startApi, wasmHeap, type MeshPass } from './mesh-streaming';
import { SYNTHETIC_WALL_TYPES, writeSyntheticIfcOfSize } from './synthetic-ifc';

const MIB = 1024 * 1024;
const GOAL_RATIO = 3;
const self = fileURLToPath(import.meta.url);

const FIXTURES: IfcFixtureName[] = [
  'AC20-FZK-Haus.ifc',
  'ISSUE_021_Mini_Project.ifc',
  'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc',
  'SampleHouse4.ifc',
  'duplex.ifc',
  'example.ifc',
];

/** The quantities pass: a mesh pass that also adds up the volumes it found. */
interface QuantitiesPass extends MeshPass {
  /** Sum of the volumes, m³. */
  volume: number;
}

/** Every IfcElement of an open model, ascending. */
function elementIds(api: IfcAPI, modelId: number): number[] {
  const vector = api.GetLineIDsWithType(modelId, WebIfc.IFCELEMENT, true);
  const ids: number[] = [];
  for (let index = 0; index < vector.size(); index++) ids.push(vector.get(index));
  return ids.sort((a, b) => a - b);
}

/** Ours: OpenModelFromCallback, then `quantities()` of every IfcElement. */
async function measureQuantities(file: string): Promise<QuantitiesPass> {
  const api = await startApi();
  const opened = performance.now();
  const modelId = openModel(api, file);
  const computed = performance.now();
  const geometry = new ElementGeometry(api, modelId);
  let elements = 0;
  let volume = 0;
  let heapEarly = 0;
  for (const [index, id] of elementIds(api, modelId).entries()) {
    const result = geometry.quantities(id);
    if (!('issue' in result)) {
      elements++;
      volume += result.volume;
    }
    if (index + 1 === HEAP_SAMPLE_AFTER) heapEarly = wasmHeap(api);
  }
  const done = performance.now();
  const heapEnd = wasmHeap(api);
  api.CloseModel(modelId);
  return { elements, openSeconds: (computed - opened) / 1000, meshSeconds: (done - computed) / 1000, volume, heapEarly, heapEnd, peakRss: peakRss() };
}

const mib = (bytes: number): string => (bytes / MIB).toFixed(1);

/** Part 1: time per element and outcomes on the fixtures. */
async function fixtures(): Promise<void> {
  const api = await startApi();
  console.log('\nFixtures: quantities() per element (model open not counted)');
  for (const name of FIXTURES) {
    const modelId = openModel(api, path.join(IFC_FIXTURES, name));
    const geometry = new ElementGeometry(api, modelId);
    const ids = elementIds(api, modelId);
    const outcomes: Record<string, number> = { volume: 0, open: 0, empty: 0, failed: 0 };
    const started = performance.now();
    for (const id of ids) {
      const result = geometry.quantities(id);
      const outcome = 'issue' in result ? result.issue : 'volume';
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    const milliseconds = performance.now() - started;
    const summary = Object.entries(outcomes)
      .map(([outcome, count]) => `${count} ${outcome}`)
      .join(', ');
    console.log(`  ${name.padEnd(42)} ${String(ids.length).padStart(5)} elements  ${(milliseconds / ids.length).toFixed(3).padStart(7)} ms/element  (${summary})`);
    api.CloseModel(modelId);
  }
}

/** The sum of the synthetic walls' volumes, m³ (per wall i: length 1 + (i % 50) / 10, height 2.7, type i % 4's thickness). */
function expectedVolume(walls: number): number {
  let volume = 0;
  for (let index = 0; index < walls; index++) {
    const thickness = (SYNTHETIC_WALL_TYPES[index % SYNTHETIC_WALL_TYPES.length]?.layers ?? []).reduce((sum, [, layer]) => sum + layer, 0);
    volume += (1 + (index % 50) / 10) * 2.7 * thickness;
  }
  return volume;
}

/** Part 2: web-ifc's StreamAllMeshes against quantities() on a synthetic model without quantity sets. */
async function synthetic(folder: string, megabytes: number): Promise<boolean> {
  const file = path.join(folder, 'walls.ifc');
  const { walls, bytes } = await writeSyntheticIfcOfSize(file, megabytes, { quantitySets: false });
  console.log(`\nSynthetic IFC4 without quantity sets: ${walls.toLocaleString('en')} walls, ${mib(bytes)} MiB; each measurement in its own process`);

  const stream = await measureInChild<MeshPass>(self, 'stream', [file]);
  const ours = await measureInChild<QuantitiesPass>(self, 'quantities', [file]);
  const row = (name: string, m: MeshPass): void =>
    console.log(
      `  ${name.padEnd(28)} open ${m.openSeconds.toFixed(2).padStart(6)} s  meshes ${m.meshSeconds.toFixed(2).padStart(6)} s  ` +
        `(${((m.meshSeconds * 1e6) / Math.max(1, m.elements)).toFixed(1)} µs/element)  total ${(m.openSeconds + m.meshSeconds).toFixed(2).padStart(6)} s  ` +
        `wasm heap ${mib(m.heapEarly)} → ${mib(m.heapEnd)} MiB  peak RSS ${mib(m.peakRss)} MiB  ${m.elements.toLocaleString('en')} elements`,
    );
  row('web-ifc StreamAllMeshes', stream);
  row('open + quantities()', ours);
  const meshRatio = ours.meshSeconds / stream.meshSeconds;
  const totalRatio = (ours.openSeconds + ours.meshSeconds) / (stream.openSeconds + stream.meshSeconds);
  console.log(
    `  ratio ours / web-ifc: ${totalRatio.toFixed(2)}× in total, ${meshRatio.toFixed(2)}× after the open; goal ≤ ${GOAL_RATIO}× → ` +
      `${totalRatio <= GOAL_RATIO ? 'met' : 'NOT met'} (informative; never fails the run)`,
  );

  let ok = true;
  if (stream.elements !== walls || ours.elements !== walls) {
    console.error(`  FAILED: expected ${walls} meshes and volumes, got ${stream.elements} and ${ours.elements}`);
    ok = false;
  }
  const expected = expectedVolume(walls);
  if (Math.abs(ours.volume - expected) > 1e-6 * expected) {
    console.error(`  FAILED: the walls' volumes add up to ${ours.volume} m³, expected ${expected} m³`);
    ok = false;
  }
  if (ours.heapEnd > ours.heapEarly) console.log(`  note: the wasm heap grew by ${mib(ours.heapEnd - ours.heapEarly)} MiB after the first ${HEAP_SAMPLE_AFTER} elements`);
  await rm(file, { force: true });
  return ok;
}

async function main(): Promise<number> {
  const megabytes = Number(process.env['BENCH_GEOMETRY_MB'] ?? 50);
  console.log(`IFC quantities from geometry: ${availableParallelism()} CPU(s), Node ${process.version}.`);
  await fixtures();
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-ifc-geometry-'));
  try {
    return (await synthetic(folder, megabytes)) ? 0 : 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (!runMeasureChild({ stream: measureMeshStreaming, quantities: measureQuantities })) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
