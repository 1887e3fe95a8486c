/**
 * An import's budget (import-worker.ts), through the spreadsheet importer's worker: past its time, or with more in its
 * temporary folder than its disk budget, the worker is stopped and the import ends with an ImportTooLargeError naming
 * the limit.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportTooLargeError, type ImportSink } from '../../../../server/imports/imported-element';
import { diskBudgetFor } from '../../../../server/imports/import-worker';
import { importSheetInWorker } from '../../../../server/imports/sheet';

let dir = '';
let csv = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'import-budget-'));
  csv = path.join(dir, 'rows.csv');
  await writeFile(csv, ['Id,Volume', ...Array.from({ length: 5_000 }, (_, i) => `E-${i},1`)].join('\n'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A sink that takes a second per batch of 500: the import of 5,000 rows takes ten. */
const slowSink: ImportSink = {
  elements: () => new Promise((resolve) => setTimeout(resolve, 1_000)),
  progress: () => undefined,
};

describe('an import past its budget', () => {
  it('is stopped when it runs longer than its time', async () => {
    const tempFolder = await mkdtemp(path.join(dir, 'temp-'));
    const started = performance.now();
    const error = await importSheetInWorker(csv, 'rows.csv', slowSink, { budget: { tempFolder, diskBytes: 1024 ** 2, timeMs: 2_000 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toBe('The import took longer than the 2 seconds an import may take and was stopped; split the file into smaller files.');
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 30_000);

  it('is stopped when its temporary folder holds more than its disk budget', async () => {
    const tempFolder = await mkdtemp(path.join(dir, 'temp-'));
    // What a library in the worker writing temporary files would leave there.
    setTimeout(() => void writeFile(path.join(tempFolder, 'spooled'), Buffer.alloc(2 * 1024 ** 2)), 300);
    const error = await importSheetInWorker(csv, 'rows.csv', slowSink, { budget: { tempFolder, diskBytes: 1024 ** 2, timeMs: 60_000 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toBe('The import wrote more than its disk budget of 1 MB in temporary files (8 times the file, at least 16 MB and at most 1 GB) and was stopped.');
  }, 30_000);

  it('within its budget imports as without one', async () => {
    const tempFolder = await mkdtemp(path.join(dir, 'temp-'));
    const outcome = await importSheetInWorker(csv, 'rows.csv', { elements: async () => undefined, progress: () => undefined }, { budget: { tempFolder, diskBytes: 1024 ** 2, timeMs: 60_000 } });
    expect(outcome).toEqual({ imported: 5_000, rejected: [] });
  }, 30_000);
});

describe('the disk budget', () => {
  it('is 8 times the file, at least 16 MiB and at most 1 GiB', () => {
    expect(diskBudgetFor(1_000)).toBe(16 * 1024 ** 2);
    expect(diskBudgetFor(15_000_000)).toBe(120_000_000);
    expect(diskBudgetFor(512 * 1024 ** 2)).toBe(1024 ** 3);
  });
});
