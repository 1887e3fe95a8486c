/**
 * The IFC import's worker thread: opens the file with web-ifc (streamed from disk through `OpenModelFromCallback`, so
 * the file's bytes are never held twice), extracts the elements (ifc/extract.ts) and hands them to the thread that
 * started it one batch at a time, waiting for an acknowledgement after each. Started by ifc.ts, never imported.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { WebIfc, type IfcAPI } from './ifc/web-ifc';
import { UnknownImportFileError } from './imported-element';
import { extractElements } from './ifc/extract';
import type { IfcWorkerData, MainToWorker, WorkerToMain } from './ifc/messages';


const port = parentPort;
if (port === null) throw new Error('ifc-worker.ts runs as a worker thread, started by importIfc.');
const { filePath, batchSize } = workerData as IfcWorkerData;

function send(message: WorkerToMain): void {
  port?.postMessage(message);
}

let acknowledge: (() => void) | null = null;
port.on('message', (message: MainToWorker) => {
  if (message.type === 'ack' && acknowledge !== null) {
    const resolve = acknowledge;
    acknowledge = null;
    resolve();
  }
});

/** Opens the model, reading the file through a descriptor in the chunks web-ifc asks for. */
function openModel(api: IfcAPI): number {
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

async function run(): Promise<void> {
  const api = new WebIfc.IfcAPI();
  // Single-threaded wasm: the worker is the thread; web-ifc's own threads would only compete with the API.
  await api.Init(undefined, true);
  // Init resets logging: silence it afterwards, problems are reported through our own messages.
  api.SetLogLevel(WebIfc.LogLevel.LOG_LEVEL_OFF);
  const modelId = openModel(api);
  try {
    const outcome = await extractElements(
      api,
      modelId,
      {
        start: (total) => send({ type: 'start', total }),
        batch: (elements) =>
          new Promise<void>((resolve) => {
            acknowledge = resolve;
            send({ type: 'batch', elements });
          }),
      },
      batchSize,
    );
    send({ type: 'done', rejected: outcome.rejected });
  } finally {
    api.CloseModel(modelId);
  }
}

run().then(
  () => port.close(),
  (error: unknown) => {
    send({
      type: 'failed',
      unknownFile: error instanceof UnknownImportFileError,
      message: error instanceof Error ? error.message : String(error),
    });
    port.close();
  },
);
