/**
 * Export diagnostics: one zip a user can send to support with the app's logs, the versions it runs on and its
 * settings (connections by name and address, drop folders, passport folders). Keys never go in: the vault file is not
 * read, connections are listed field by field, and any key that a log line might have caught is cut out of every file.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import type { Connection } from '../shared/ipc';

/** What goes into the zip besides the logs. */
export interface DiagnosticsContents {
  /** The logs folder: each file directly in it goes into `logs/`. */
  logsDir: string;
  versions: Record<string, string>;
  connections: readonly Connection[];
  dropFolders: unknown;
  passportFolders: unknown;
  /** Every key the app holds; removed wherever it would appear. */
  keys: readonly string[];
}

/** What a key is replaced with. */
export const KEY_REMOVED = '[key removed]';

/** A key as it may have been written: as such, and in base64 and base64url (a header or a token may carry it so). */
function spellingsOf(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  return [key, bytes.toString('base64'), bytes.toString('base64url')].filter((spelling) => spelling.length > 0);
}

function withoutKeys(text: string, keys: readonly string[]): string {
  let cleaned = text;
  for (const key of keys) {
    for (const spelling of spellingsOf(key)) cleaned = cleaned.split(spelling).join(KEY_REMOVED);
  }
  return cleaned;
}

async function logFiles(logsDir: string): Promise<{ name: string; text: string }[]> {
  let entries;
  try {
    entries = await readdir(logsDir, { withFileTypes: true });
  } catch {
    // No logs folder yet (nothing was logged): the zip has no logs.
    return [];
  }
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  return Promise.all(files.map(async (name) => ({ name, text: await readFile(path.join(logsDir, name), 'utf8') })));
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Writes the diagnostics zip to `target`; resolves with the names of the files in it. */
export async function writeDiagnosticsZip(target: string, contents: DiagnosticsContents): Promise<string[]> {
  const files = new Map<string, string>();
  for (const log of await logFiles(contents.logsDir)) files.set(`logs/${log.name}`, log.text);
  files.set('versions.json', json(contents.versions));
  files.set(
    'connections.json',
    json(contents.connections.map(({ name, baseUrl, apiVersion, kind, hasKey }) => ({ name, baseUrl, apiVersion, kind, hasKey }))),
  );
  files.set('drop-folders.json', json(contents.dropFolders));
  files.set('passport-folders.json', json(contents.passportFolders));
  const zip = new JSZip();
  for (const [name, text] of files) zip.file(name, withoutKeys(text, contents.keys));
  await writeFile(target, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
  return [...files.keys()];
}
