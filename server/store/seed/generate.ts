/**
 * Converts the platform's public reference files (`sources/`, see SOURCES.md there) into the seed data committed with the server:
 * `Madaster_Materials.xlsx` → `platform-materials.json`, `NL-SfB_2019_assembly_code.txt` → `shared/nl-sfb.json` (the app's
 * classification picker reads it too).
 * Run `npm run seed:generate` after a reference file changes; a unit test fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { coarserNlSfbCode } from '../../refine/nl-sfb';
import { convertMaterialsWorkbook } from './materials-workbook';
import { parseSearchCriterion } from './material-search-criteria';
import { convertNlSfbCodeList } from './nl-sfb-code-list';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES_DIRECTORY = path.join(REPOSITORY_ROOT, 'server', 'store', 'seed', 'sources');
const SEED_DIRECTORY = path.join(REPOSITORY_ROOT, 'server', 'store', 'seed');

/** A file this script writes, with its full content. */
export interface GeneratedSeedFile {
  path: string;
  content: string;
}

/** Reads the reference files and returns the seed files as they must be committed (nothing is written). */
export async function generateSeedFiles(): Promise<GeneratedSeedFile[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path.join(SOURCES_DIRECTORY, 'Madaster_Materials.xlsx'));
  const codeList = await readFile(path.join(SOURCES_DIRECTORY, 'NL-SfB_2019_assembly_code.txt'));
  return [
    {
      path: path.join(SEED_DIRECTORY, 'platform-materials.json'),
      content: toSeedJson(convertMaterialsWorkbook(workbook)),
    },
    { path: path.join(REPOSITORY_ROOT, 'shared', 'nl-sfb.json'), content: toSeedJson(convertNlSfbCodeList(codeList)) },
  ];
}

// The committed form of a data file: two-space indentation and a final newline, so diffs stay readable.
function toSeedJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// The conversions live beside this script, one module per reference file, and the walk to coarser codes is
// refinement's rule (server/refine/nl-sfb.ts); re-exported for this module's users.
export { convertMaterialsWorkbook, convertNlSfbCodeList, coarserNlSfbCode, parseSearchCriterion };

async function main(): Promise<void> {
  for (const file of await generateSeedFiles()) {
    await writeFile(file.path, file.content, 'utf8');
    console.log(`wrote ${path.relative(REPOSITORY_ROOT, file.path)}`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
