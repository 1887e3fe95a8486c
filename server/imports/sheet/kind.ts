/** Recognising a spreadsheet source file by its first bytes: a workbook, or CSV text in UTF-8 or Windows-1252. */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { UnknownImportFileError } from '../imported-element';

/** Bytes read to recognise the file and sniff a CSV's encoding and separator. */
export const SAMPLE_BYTES = 64 * 1024;

export type Kind = { type: 'xlsx' } | { type: 'csv'; encoding: 'utf-8' | 'windows-1252' };

export async function readSample(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function startsWith(sample: Buffer, bytes: readonly number[]): boolean {
  return sample.length >= bytes.length && bytes.every((b, i) => sample[i] === b);
}

/** Decides by content first (a zip is a workbook, whatever its name), then by extension for text. */
export function recognise(sample: Buffer, fileName: string): Kind {
  const extension = path.extname(fileName).toLowerCase();
  if (sample.length === 0) throw new UnknownImportFileError(`${fileName} is empty.`);
  // A zip: local file header, or the end record of an empty one.
  if (startsWith(sample, [0x50, 0x4b, 0x03, 0x04]) || startsWith(sample, [0x50, 0x4b, 0x05, 0x06])) return { type: 'xlsx' };
  if (startsWith(sample, [0x25, 0x50, 0x44, 0x46, 0x2d])) {
    throw new UnknownImportFileError(`${fileName} is a PDF document, not a spreadsheet (.xlsx or .csv).`);
  }
  if (startsWith(sample, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    throw new UnknownImportFileError(
      `${fileName} is a legacy Excel (.xls) or other binary Office file; save it as .xlsx or CSV UTF-8.`,
    );
  }
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) {
    throw new UnknownImportFileError(`${fileName} is UTF-16 text; save it as .xlsx or CSV UTF-8.`);
  }
  if (extension === '.xlsx' || extension === '.xlsm') {
    throw new UnknownImportFileError(`${fileName} is named like an Excel workbook but is not one (no zip content).`);
  }
  if (sample.includes(0)) {
    throw new UnknownImportFileError(`${fileName} is not a spreadsheet: neither an .xlsx workbook nor CSV text.`);
  }
  const text = sample.toString('latin1', 0, Math.min(sample.length, 32));
  if (text.startsWith('ISO-10303-21')) {
    throw new UnknownImportFileError(`${fileName} is an IFC model, not a spreadsheet.`);
  }
  return { type: 'csv', encoding: isUtf8(sample) ? 'utf-8' : 'windows-1252' };
}

/** Whether the sample is UTF-8; a sequence cut off at the sample's end does not count against it. */
function isUtf8(sample: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function sheetNameOfCsv(fileName: string): string {
  const base = path.basename(fileName);
  const extension = path.extname(base);
  return (extension ? base.slice(0, -extension.length) : base) || base;
}
