/** Where an upload's bytes are read from — the file the user chose, or the spool the page fills — and whether they still can be. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { completeFile, type FileGrowth } from './file-chunks';
import type { UploadRecord } from './ledger';
import type { SpoolStore } from './spool';

/** Where an upload's bytes are read from, and how much of them is there. */
export function bytesOf(record: UploadRecord, spools: SpoolStore): { file: string; growth: FileGrowth } {
  const { source } = record;
  if (source.kind === 'chosen') return { file: source.path, growth: completeFile(record.entry.size) };
  return { file: spools.fileOf(source.spoolId), growth: spools.growth(source.spoolId, record.entry.size) };
}

/** Why an upload's bytes cannot be sent (gone, changed, not all there), or undefined when they can. */
export async function sourceProblem(record: UploadRecord, spools: SpoolStore): Promise<string | undefined> {
  const { source, entry } = record;
  if (source.kind === 'spool') {
    const state = await spools.state(source.spoolId, entry.size);
    return state.kind === 'gone' ? state.message : undefined;
  }
  const info = await stat(source.path).catch(() => undefined);
  if (info === undefined || !info.isFile()) return `${path.basename(source.path)} is no longer where it was chosen; choose it again.`;
  if (info.size !== entry.size) return `${path.basename(source.path)} changed since it was chosen; choose it again.`;
  return undefined;
}
