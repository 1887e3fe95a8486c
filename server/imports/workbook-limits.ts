/**
 * What a workbook may hold before it is read: the sizes its zip directory declares, uncompressed, in all and for its
 * shared strings (the one part exceljs's streaming reader keeps in memory). A zip bomb, or a sheet of millions of
 * distinct texts, is refused at once with a reason; one whose directory lies is stopped by the reader's memory limit.
 */
import yauzl from 'yauzl';
import { UnknownImportFileError } from './imported-element';

/** The limits; importers use the defaults, tests shrink them. */
export interface WorkbookLimits {
  /** Bytes of every part, uncompressed. */
  totalBytes: number;
  /** Bytes of the shared strings part, uncompressed. */
  sharedStringsBytes: number;
}

/** A workbook of 1 GiB uncompressed holds a few million rows; its shared strings must fit the reader's memory. */
export const DEFAULT_WORKBOOK_LIMITS: Readonly<WorkbookLimits> = { totalBytes: 1024 ** 3, sharedStringsBytes: 256 * 1024 ** 2 };

const MIB = 1024 * 1024;

/** The parts of a zip and their declared uncompressed sizes; rejects when the file is no readable zip. */
function zipEntries(filePath: string): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error !== null) {
        reject(error);
        return;
      }
      const entries: { name: string; size: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Checks a workbook's declared sizes; throws UnknownImportFileError naming the limit it exceeds, or the broken zip. */
export async function checkWorkbookSize(filePath: string, fileName: string, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS): Promise<void> {
  let entries: { name: string; size: number }[];
  try {
    entries = await zipEntries(filePath);
  } catch (error) {
    throw new UnknownImportFileError(`${fileName} is not a readable Excel workbook: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total > limits.totalBytes) {
    throw new UnknownImportFileError(
      `${fileName} holds ${Math.ceil(total / MIB)} MB uncompressed, more than a workbook may (${Math.floor(limits.totalBytes / MIB)} MB); split it into smaller files.`,
    );
  }
  const sharedStrings = entries.find((entry) => entry.name.toLowerCase() === 'xl/sharedstrings.xml');
  if (sharedStrings !== undefined && sharedStrings.size > limits.sharedStringsBytes) {
    throw new UnknownImportFileError(
      `${fileName} holds ${Math.ceil(sharedStrings.size / MIB)} MB of texts, more than a workbook may (${Math.floor(limits.sharedStringsBytes / MIB)} MB); split it into smaller files.`,
    );
  }
}
