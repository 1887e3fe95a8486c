/**
 * The IFC import's worker thread: opens the file with web-ifc (streamed from disk through `OpenModelFromCallback`, so
 * the file's bytes are never held twice), extracts the elements (ifc/extract.ts) and hands them to the thread that
 * started it one batch at a time (worker-port.ts). Started by ifc.ts through import-worker.ts, never imported.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { WebIfc, type IfcAPI } from './ifc/web-ifc';
import { UnknownImportFileError } from './imported-element';
import { extractElements } from './ifc/extract';
import { runImportInWorker } from './worker-port';

/** Opens the model, reading the file through a descriptor in the chunks web-ifc asks for. */
function openModel(api: IfcAPI, filePath: string): number {
  const descriptor = openSync(filePath, 'r');
  try {
    const modelId = api.OpenModelFromCallback(
      (offset, size) => {
        const chunk = Buffer.allocUnsafe(size);
        const read = readSync(descriptor, chunk, 0, size, offset);
        return chunk.subarray(0, read);
      },
      { ALLOW_INCOMPATIBLE_SCHEMA_ALIASES: false },
    );
    if (modelId < 0) throw new UnknownImportFileError('web-ifc could not open the file as an IFC model.');
    return modelId;
  } finally {
    closeSync(descriptor);
  }
}

runImportInWorker(async ({ filePath, batchSize }, channel) => {
  const api = new WebIfc.IfcAPI();
  // Single-threaded wasm: the worker is the thread; web-ifc's own threads would only compete with the API.
  await api.Init(undefined, true);
  // Init resets logging: silence it afterwards, problems are reported through our own messages.
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  const modelId = openModel(api, filePath);
  try {
    const outcome = await extractElements(api, modelId, { start: channel.start, batch: channel.batch }, batchSize);
    return outcome.rejected;
  } finally {
    api.CloseModel(modelId);
  }
});
