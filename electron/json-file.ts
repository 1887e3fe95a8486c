/**
 * Small JSON documents of the user-data folder (connections, vault, window state), read against a schema and
 * written atomically: a crash or a full disk mid-write leaves the previous document, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files';

/** What reading found: the document, nothing yet, or a file that is not a valid document. */
export type JsonFileRead<T> = { kind: 'ok'; value: T } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

/** A text file's content, or undefined when the file does not exist; other read errors are thrown. */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads and checks a JSON document; a missing file is not an error, an unreadable one is reported, not thrown. */
export async function readJsonFile<S extends TSchema>(file: string, schema: S): Promise<JsonFileRead<Static<S>>> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return { kind: 'missing' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: `${path.basename(file)} is not JSON.` };
  }
  if (!Value.Check(schema, parsed)) {
    const [first] = Value.Errors(schema, parsed);
    return { kind: 'invalid', reason: `${path.basename(file)}: ${first?.instancePath ?? ''} ${first?.message ?? 'is not valid'}.` };
  }
  return { kind: 'ok', value: parsed };
}

/**
 * Writes a document atomically: a temporary file beside it, flushed to disk, then renamed over the old one. Only the
 * user may read it (0600), in folders this creates 0700.
 */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Moves an unreadable document aside (kept for the user to inspect), so the app can start with a fresh one. */
export async function setAsideInvalidFile(file: string): Promise<string> {
  const aside = `${file}.invalid-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, aside);
  return aside;
}
