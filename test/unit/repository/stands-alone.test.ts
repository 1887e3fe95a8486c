/**
 * The repository stands alone: nothing in it reaches for a folder beside it. A clone has nothing beside it, so a test,
 * benchmark, script or document that did would fail, or mislead, for everyone but the machine it was written on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Folders that are made (installs, builds, reports), not written. */
const MADE_FOLDERS = new Set(['.git', 'node_modules', 'dist', 'release', 'coverage', 'test-results', 'playwright-report', '.data']);

/** Files whose bytes are data, not text anyone writes paths into. */
const DATA_EXTENSIONS = new Set(['.ifc', '.xlsx', '.png', '.jpg', '.jpeg', '.ico', '.icns', '.pdf', '.woff', '.woff2', '.ttf', '.txt', '.yaml']);

function writtenFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return MADE_FOLDERS.has(entry.name) ? [] : writtenFiles(full);
    return entry.isFile() && !DATA_EXTENSIONS.has(path.extname(entry.name).toLowerCase()) ? [full] : [];
  });
}

// Built from parts so that this file does not name what it looks for.
const SIBLING_FOLDERS = new RegExp(`shared${'/'}(fixtures|reference|spec|design)\\b`, 'u');
const SIBLING_SEGMENTS = new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${'shared'}['"]`, 'u');
/** A relative path in quotes or backticks that climbs out of its folder: resolved below against the repository. */
const CLIMBING_PATH = /['"`](\.\.\/(?:\.\.\/)*[^'"`\s]+)['"`]/gu;

interface Finding {
  file: string;
  line: number;
  text: string;
}

function findingsIn(file: string): Finding[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const relative = path.relative(REPOSITORY_ROOT, file);
  return lines.flatMap((text, index) => {
    const outside = [...text.matchAll(CLIMBING_PATH)].some((match) => {
      const target = path.resolve(path.dirname(file), match[1] ?? '');
      return path.relative(REPOSITORY_ROOT, target).startsWith('..');
    });
    return SIBLING_FOLDERS.test(text) || SIBLING_SEGMENTS.test(text) || outside
      ? [{ file: relative, line: index + 1, text: text.trim() }]
      : [];
  });
}

describe('the repository', () => {
  const files = writtenFiles(REPOSITORY_ROOT);

  it('is walked (its code, tests and documents are found)', () => {
    const names = files.map((file) => path.relative(REPOSITORY_ROOT, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'package.json', path.join('server', 'cli.ts'), path.join('test', 'fixtures', 'files.ts')]));
  });

  it('refers to nothing outside itself', () => {
    expect(files.flatMap(findingsIn)).toEqual([]);
  });
});

describe('the check itself', () => {
  it('finds a path that leaves the repository, and passes one that stays in it', () => {
    const probe = path.join(REPOSITORY_ROOT, 'test', 'unit', 'repository', 'probe.ts');
    const outside = path.relative(path.dirname(probe), path.join(REPOSITORY_ROOT, '..', 'elsewhere', 'model.ifc'));
    const inside = path.relative(path.dirname(probe), path.join(REPOSITORY_ROOT, 'shared', 'api'));
    const check = (text: string): boolean =>
      [...text.matchAll(CLIMBING_PATH)].some((match) =>
        path.relative(REPOSITORY_ROOT, path.resolve(path.dirname(probe), match[1] ?? '')).startsWith('..'),
      );
    expect(check(`import x from '${outside}';`)).toBe(true);
    expect(check(`import x from '${inside}';`)).toBe(false);
    expect(SIBLING_FOLDERS.test(`see ${'shared'}/spec/x.md`)).toBe(true);
    expect(SIBLING_SEGMENTS.test(`path.join(root, '..', '${'shared'}')`)).toBe(true);
  });
});
