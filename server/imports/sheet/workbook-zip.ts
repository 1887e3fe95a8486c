/**
 * A workbook's zip, read through its central directory: any part can be opened in any order, so the reader takes the
 * shared strings before the worksheets and never spools a worksheet to disk, and every part's bytes pass a counter
 * (workbook-limits.ts) as they are inflated.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import yauzl from 'yauzl';
import { InflationBudget, type WorkbookLimits } from '../workbook-limits';

export interface WorkbookZip {
  /** The parts in the order of the zip's directory, with the sizes it declares. */
  readonly parts: readonly { name: string; size: number }[];
  /** The inflated bytes of the first part named `name`, counted against the limits; undefined when there is none. */
  open(name: string): Promise<Readable | undefined>;
  /** Closes the file, and the parts still being read. */
  close(): void;
}

/** Opens the zip at `filePath`; rejects when it is no readable zip. */
export function openWorkbookZip(filePath: string, fileName: string, limits: WorkbookLimits): Promise<WorkbookZip> {
  return new Promise((resolve, reject) => {
    // Sizes are enforced by counting (InflationBudget), so yauzl's own check against the declared sizes is left out: it
    // would stop a lying part with a message that names no limit.
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: false }, (error, zip) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const entries = new Map<string, yauzl.Entry>();
      const parts: { name: string; size: number }[] = [];
      const budget = new InflationBudget(fileName, limits);
      // Parts still being read when the zip is closed (a reading that stopped early) are destroyed with it.
      const opened = new Set<Readable>();
      zip.on('entry', (entry: yauzl.Entry) => {
        parts.push({ name: entry.fileName, size: entry.uncompressedSize });
        if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('error', (zipError: Error) => {
        zip.close();
        reject(zipError);
      });
      zip.on('end', () =>
        resolve({
          parts,
          open: (name) =>
            new Promise((resolveOpen, rejectOpen) => {
              const entry = entries.get(name);
              if (entry === undefined) {
                resolveOpen(undefined);
                return;
              }
              zip.openReadStream(entry, (openError, inflated) => {
                if (openError !== null) {
                  rejectOpen(openError);
                  return;
                }
                // pipeline destroys the inflating stream when the counter stops it, so nothing is inflated beyond.
                const part = pipeline(inflated, budget.counter(name), () => opened.delete(part));
                opened.add(part);
                resolveOpen(part);
              });
            }),
          close: () => {
            for (const part of opened) part.destroy();
            zip.close();
          },
        }),
      );
      zip.readEntry();
    });
  });
}
