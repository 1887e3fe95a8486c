/**
 * The fixtures, the seed sources and the demo model are the files as published: each one's SHA-256 is the one its SOURCES.md lists, and
 * every file there is listed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIRECTORY } from '../../fixtures/files';

const SEED_SOURCES = path.resolve(import.meta.dirname, '../../../server/store/seed/sources');
const DEMO_MODEL = path.resolve(import.meta.dirname, '../../../server/store/seed/demo');

/** `file → SHA-256` from the tables of a SOURCES.md: a row's first cell names the file, its last the checksum. */
function listedChecksums(sourcesFile: string): Map<string, string> {
  const rows = readFileSync(sourcesFile, 'utf8')
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length > 3 && /^`[^`]+`$/u.test(cells[1] ?? '') && /^[0-9a-f]{64}$/u.test(cells.at(-2) ?? ''));
  return new Map(rows.map((cells) => [(cells[1] ?? '').slice(1, -1), cells.at(-2) ?? '']));
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function dataFiles(directory: string, folders: readonly string[]): Map<string, string> {
  return new Map(
    folders.flatMap((folder) =>
      readdirSync(path.join(directory, folder))
        .filter((name) => !name.endsWith('.md'))
        .map((name) => [name, path.join(directory, folder, name)] as const),
    ),
  );
}

describe.each([
  { where: 'test/fixtures', directory: FIXTURES_DIRECTORY, folders: ['ifc', 'sheets', 'odata'] },
  { where: 'server/store/seed/sources', directory: SEED_SOURCES, folders: ['.'] },
  { where: 'server/store/seed/demo', directory: DEMO_MODEL, folders: ['.'] },
])('$where', ({ directory, folders }) => {
  const listed = listedChecksums(path.join(directory, 'SOURCES.md'));
  const present = dataFiles(directory, folders);

  it('lists every file it holds, and holds every file it lists', () => {
    expect([...listed.keys()].sort()).toEqual([...present.keys()].sort());
  });

  it.each([...present.entries()])('%s is the file as published', (name, file) => {
    expect(sha256(file)).toBe(listed.get(name));
  });
});
