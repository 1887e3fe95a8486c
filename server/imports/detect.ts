import { open } from 'node:fs/promises';

/** The kinds of source file the server imports. */
export type SourceFormat = 'ifc' | 'xlsx' | 'csv';

/** Decides how to read a source file: by its first bytes where they tell (STEP header, zip), else by its name. */
export async function detectSourceFormat(filePath: string, fileName: string): Promise<SourceFormat | undefined> {
  const handle = await open(filePath, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const text = head.toString('latin1').replace(/^\uFEFF|^ï»¿/, '').trimStart();
  if (text.startsWith('ISO-10303-21')) return 'ifc';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'xlsx';
  const extension = fileName.toLowerCase().split('.').pop();
  switch (extension) {
    case 'ifc':
      return 'ifc';
    case 'xlsx':
      return 'xlsx';
    case 'csv':
    case 'txt':
      return 'csv';
    default:
      return undefined;
  }
}
