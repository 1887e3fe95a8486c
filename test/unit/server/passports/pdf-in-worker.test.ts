import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { writePassportPdfInWorker } from '../../../../server/passports/pdf-in-worker';
import { sampleBuildingData, samplePortfolioData } from './sample-data';

describe('writePassportPdfInWorker', () => {
  it('writes a building passport with its photo and a portfolio passport from a worker thread into the output', async () => {
    const { elements: _elements, ...building } = sampleBuildingData('nl', { image: true });
    const buildingOutput = new PassThrough();
    const [buildingPdf] = await Promise.all([buffer(buildingOutput), writePassportPdfInWorker({ kind: 'building', data: building }, buildingOutput)]);
    expect(buildingPdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(buildingPdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const portfolioOutput = new PassThrough();
    const [portfolioPdf] = await Promise.all([buffer(portfolioOutput), writePassportPdfInWorker({ kind: 'portfolio', data: samplePortfolioData('en') }, portfolioOutput)]);
    expect(portfolioPdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 120_000);

  it('stops the worker and fails the output when the job is stopped', async () => {
    const { elements: _elements, ...building } = sampleBuildingData('en');
    const output = new PassThrough();
    // The reader sees the failure too (in a job, the blob store's pipeline).
    const read = buffer(output).then(
      () => 'ended',
      (error: unknown) => (error as Error).message,
    );
    const stop = new AbortController();
    const written = writePassportPdfInWorker({ kind: 'building', data: building }, output, stop.signal);
    stop.abort();
    await expect(written).rejects.toThrow('The passport was stopped while it was written.');
    expect(await read).toBe('The passport was stopped while it was written.');
  }, 60_000);
});
