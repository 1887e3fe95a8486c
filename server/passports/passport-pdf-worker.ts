/**
 * The worker thread that writes a passport PDF (pdf-in-worker.ts starts it): charts, layout and images are drawn here,
 * and the bytes go to the thread that started it as they are written, so the API's event loop never spends the
 * hundreds of milliseconds a passport takes in one go.
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { PassportImage } from './passport-data';
import { writeBuildingPassportPdf, writePortfolioPassportPdf } from './pdf';
import type { PassportPdfMessage, PassportPdfRequest } from './pdf-worker-messages';

/** An image as it crossed the thread boundary (a Uint8Array): pdfkit takes only a Buffer as image data. */
function restored(image: PassportImage | null | undefined): PassportImage | null {
  return image === null || image === undefined ? null : { ...image, bytes: Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength) };
}

const port = parentPort;
if (port === null) throw new Error('The passport PDF writer runs as a worker thread, started by pdf-in-worker.ts.');
const send = (message: PassportPdfMessage): void => port.postMessage(message);
const output = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    send({ type: 'chunk', bytes: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) });
    callback();
  },
});
const request = workerData as PassportPdfRequest;
const written =
  request.kind === 'building'
    ? writeBuildingPassportPdf({ ...request.data, image: restored(request.data.image), elements: [] }, output)
    : writePortfolioPassportPdf({ ...request.data, portfolio: { ...request.data.portfolio, logo: restored(request.data.portfolio.logo) } }, output);
written.then(
  () => send({ type: 'done' }),
  (error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
