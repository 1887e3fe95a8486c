/**
 * A cheap look at a file before web-ifc opens it: web-ifc opens a truncated file without complaint (and returns part of
 * its elements), and says little about why a file is not a model. Reads the first and last few kilobytes only.
 */
import { open } from 'node:fs/promises';
import { UnknownImportFileError } from '../imported-element';

/** Schemas web-ifc reads with their own layout (it would read IFC4X1/IFC4X2 as IFC4X3 "best effort"). */
export const SUPPORTED_SCHEMAS = ['IFC2X3', 'IFC4', 'IFC4X3', 'IFC4X3_ADD2'] as const;

const HEAD_BYTES = 64 * 1024;
/** A header longer than this is not a header (some exporters write long descriptions; none write a megabyte). */
const MAX_HEADER_BYTES = 1024 * 1024;
const TAIL_BYTES = 4 * 1024;
const END_MARKER = 'END-ISO-10303-21;';

/** What the check found out. */
export interface StepFileFacts {
  size: number;
  schema: string;
}

/** Whether these bytes look like text: no NUL bytes, few control characters (STEP is 7-bit text; UTF-8 is tolerated). */
function looksLikeText(bytes: Uint8Array): boolean {
  let control = 0;
  for (const byte of bytes) {
    if (byte === 0) return false;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12) control++;
  }
  return control <= bytes.length / 100;
}

/** Throws UnknownImportFileError when the file is not a complete IFC STEP file of a supported schema. */
export async function checkIfcFile(filePath: string): Promise<StepFileFacts> {
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) throw new UnknownImportFileError('The file is empty.');

    let head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    await handle.read(head, 0, head.length, 0);
    if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
      throw new UnknownImportFileError('The file is a ZIP archive (an .ifczip?), not an IFC text file: upload the .ifc inside it.');
    }
    if (!looksLikeText(head)) throw new UnknownImportFileError('The file is binary, not an IFC (STEP) text file.');

    let text = head.toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
    if (text.startsWith('<')) throw new UnknownImportFileError('The file is XML (ifcXML?), not an IFC STEP file; only .ifc (ISO 10303-21) is read.');
    if (!text.startsWith('ISO-10303-21;')) {
      throw new UnknownImportFileError('The file does not start with the ISO-10303-21 header of an IFC STEP file.');
    }

    let headerEnd = text.indexOf('ENDSEC;');
    if (headerEnd < 0 && size > head.length) {
      head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
      await handle.read(head, 0, head.length, 0);
      text = head.toString('latin1');
      headerEnd = text.indexOf('ENDSEC;');
    }
    if (headerEnd < 0) throw new UnknownImportFileError('The STEP header never ends (no ENDSEC;): the file is truncated or not an IFC file.');
    const schemaMatch = /FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'/i.exec(text.slice(0, headerEnd));
    if (schemaMatch === null) throw new UnknownImportFileError('The STEP header names no schema (FILE_SCHEMA).');
    const schema = (schemaMatch[1] ?? '').trim().toUpperCase();
    if (!(SUPPORTED_SCHEMAS as readonly string[]).includes(schema)) {
      throw new UnknownImportFileError(`The schema ${schema || '(empty)'} is not supported: IFC2X3, IFC4 and IFC4X3 are.`);
    }

    const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
    await handle.read(tail, 0, tail.length, size - tail.length);
    // Exporters end with a newline, some with NULs or a comment-free blank tail: trailing whitespace is fine.
    if (!tail.toString('latin1').replace(/[\s\0]+$/, '').endsWith(END_MARKER)) {
      throw new UnknownImportFileError(`The file is truncated: it does not end with ${END_MARKER}`);
    }
    return { size, schema };
  } finally {
    await handle.close();
  }
}
