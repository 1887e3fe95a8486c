/**
 * web-ifc's own mesh streaming of a file, the yardstick for anything that tessellates (ifc-geometry.bench.ts's
 * `quantities()`, ifc-import.bench.ts's time to Mapped of a model without quantities): open the model as the import's
 * worker does (server/imports/ifc-worker.ts: single-threaded wasm, `OpenModelFromCallback` reading the file through a
 * descriptor), then `StreamAllMeshes`, touching every mesh's geometry (copy out its vertices and indices, delete what
 * web-ifc handed over). `Init` is not timed; opening and streaming are timed apart.
 *
 * Run it in a process of its own (measure-in-child.ts) where its peak RSS or wasm heap is reported.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { type IfcAPI, WebIfc } from '../../server/imports/ifc/web-ifc';
import { peakRss } from './measure-in-child';

/** Elements after which the wasm heap is sampled the first time. */
export const HEAP_SAMPLE_AFTER = 1_000;

/** What a pass over a model's meshes reports. */
export interface MeshPass {
  /** Meshes streamed (elements measured, for `quantities()`). */
  elements: number;
  /** Opening the model. */
  openSeconds: number;
  /** Everything after the model is open: streaming the meshes, or computing the quantities. */
  meshSeconds: number;
  /** wasm heap after the first HEAP_SAMPLE_AFTER elements and at the end, bytes. */
  heapEarly: number;
  heapEnd: number;
  /** Peak resident set size of the measuring process, bytes. */
  peakRss: number;
}

/** A web-ifc API as the import's worker starts it: single-threaded, silent. */
export async function startApi(): Promise<IfcAPI> {
  const api = new WebIfc.IfcAPI();
  await api.Init(undefined, true);
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  return api;
}

/** Opens a model as ifc-worker.ts does: streamed from a file descriptor. */
export function openModel(api: IfcAPI, file: string): number {
  const descriptor = openSync(file, 'r');
  try {
    const modelId = api.OpenModelFromCallback(
      (offset, size) => {
        const chunk = Buffer.allocUnsafe(size);
        return chunk.subarray(0, readSync(descriptor, chunk, 0, size, offset));
      },
      { ALLOW_INCOMPATIBLE_SCHEMA_ALIASES: false },
    );
    if (modelId < 0) throw new Error(`web-ifc could not open ${file}`);
    return modelId;
  } finally {
    closeSync(descriptor);
  }
}

/** The size of web-ifc's wasm heap, bytes. */
export const wasmHeap = (api: IfcAPI): number => (api.wasmModule as { HEAPU8: Uint8Array }).HEAPU8.length;

/** web-ifc alone: OpenModelFromCallback, then StreamAllMeshes copying every geometry out and deleting what it got. */
export async function measureMeshStreaming(file: string): Promise<MeshPass> {
  const api = await startApi();
  const opened = performance.now();
  const modelId = openModel(api, file);
  const streamed = performance.now();
  let elements = 0;
  let heapEarly = 0;
  api.StreamAllMeshes(modelId, (mesh) => {
    const geometries = mesh.geometries;
    for (let index = 0; index < geometries.size(); index++) {
      const geometry = api.GetGeometry(modelId, geometries.get(index).geometryExpressID);
      api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
      api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
      geometry.delete();
    }
    (geometries as unknown as { delete(): void }).delete();
    if (++elements === HEAP_SAMPLE_AFTER) heapEarly = wasmHeap(api);
  });
  const done = performance.now();
  const heapEnd = wasmHeap(api);
  api.CloseModel(modelId);
  return {
    elements,
    openSeconds: (streamed - opened) / 1000,
    meshSeconds: (done - streamed) / 1000,
    heapEarly,
    heapEnd,
    peakRss: peakRss(),
  };
}
