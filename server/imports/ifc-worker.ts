/**
 * The IFC import's worker thread: reads the file with our own STEP reader (ifc/step-reader.ts: one indexing pass, then
 * each line parsed when asked for), extracts the elements (ifc/extract.ts) and hands them to the thread that started
 * it one batch at a time (worker-port.ts). web-ifc is started only when an element has no volume in its sets and its
 * geometry must be measured: then the model is opened (streamed from disk through `OpenModelFromCallback`, so the
 * file's bytes are never held twice). Started by ifc.ts through import-worker.ts, never imported.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { WebIfc, type IfcAPI } from './ifc/web-ifc';
import { UnknownImportFileError } from './imported-element';
import { extractElements } from './ifc/extract';
import { ElementGeometry } from './ifc/geometry';
import { checkIfcFile } from './ifc/step-file';
import { StepLineReader } from './ifc/step-reader';
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
  const { schema } = await checkIfcFile(filePath);
  const reader = StepLineReader.open(filePath, schema);
  let model: { api: IfcAPI; modelId: number } | undefined;
  const openGeometry = async (): Promise<ElementGeometry> => {
    const api = new WebIfc.IfcAPI();
    // Single-threaded wasm: the worker is the thread; web-ifc's own threads would only compete with the API.
    await api.Init(undefined, true);
    // Init resets logging: silence it afterwards, problems are reported through our own messages.
    api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
    model = { api, modelId: openModel(api, filePath) };
    return new ElementGeometry(model.api, model.modelId);
  };
  try {
    const { rejected, parts } = await extractElements(reader, openGeometry, { start: channel.start, batch: channel.batch }, batchSize);
    return { rejected, parts };
  } finally {
    reader.close();
    model?.api.CloseModel(model.modelId);
  }
});
