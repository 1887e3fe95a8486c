/**
 * `npm run lint:electron`: Electronegativity's checks of Electron misconfigurations over electron/ (it parses
 * TypeScript), failing on any finding of medium severity or higher. Its command line always exits 0, so it is run
 * through its module here. A finding reviewed and accepted is silenced where it is, with an `eng-disable <CHECK_ID>`
 * comment on the line and the reason beside it.
 */
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Level {
  value: number;
  name: string;
}

interface Finding {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: Level;
  confidence: Level;
  description: string | Record<string, string>;
  manualReview: boolean;
}

interface ScanResult {
  issues: Finding[];
  errors: { file: string; message?: string }[];
}

type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<ScanResult>;

const MEDIUM = 2;

/**
 * The one check that needs the network (it downloads Electron's release notes to look for newer security fixes); the
 * machines this runs on have none. Electron updates are followed through the lockfile instead.
 */
const NETWORK_CHECKS = ['availablesecurityfixesglobalcheck'];

/**
 * Electronegativity fetches translations from the network on every run; its HTTP client is replaced by one that
 * answers 404, which keeps the bundled English texts and sends nothing anywhere.
 */
function withoutTranslationDownload(require: NodeJS.Require): void {
  const gotPath = require.resolve('got');
  const stub = Object.assign(new Module(gotPath), {
    filename: gotPath,
    loaded: true,
    exports: () => Promise.resolve({ statusCode: 404, body: '', headers: {} }),
  });
  require.cache[gotPath] = stub;
}

function describe(finding: Finding): string {
  const text = typeof finding.description === 'string' ? finding.description : Object.values(finding.description).join(' ');
  const where = finding.file === 'N/A' ? '(whole project)' : `${path.relative(REPOSITORY_ROOT, finding.file)}:${finding.location.line}:${finding.location.column}`;
  return `${finding.severity.name.padEnd(8)} ${finding.id} ${where}\n         ${text.replace(/\s+/g, ' ').trim()}`;
}

async function main(): Promise<void> {
  const input = path.resolve(REPOSITORY_ROOT, process.argv[2] ?? 'electron');
  const require = createRequire(path.join(REPOSITORY_ROOT, 'node_modules', '@doyensec', 'electronegativity', 'package.json'));
  withoutTranslationDownload(require);
  const electronVersion = (require(path.join(REPOSITORY_ROOT, 'node_modules', 'electron', 'package.json')) as { version: string }).version;
  const run = require('@doyensec/electronegativity') as Run;
  const result = await run(
    {
      input,
      output: undefined,
      isSarif: false,
      customScan: [],
      excludeFromScan: NETWORK_CHECKS,
      severitySet: 'informational',
      confidenceSet: 'tentative',
      isRelative: false,
      isVerbose: true,
      electronUpgrade: undefined,
      electronVersionOverride: electronVersion,
      parserPlugins: [],
    },
    false,
  );
  const blocking = result.issues.filter((finding) => finding.severity.value >= MEDIUM);
  const advisory = result.issues.filter((finding) => finding.severity.value < MEDIUM);
  for (const finding of advisory) console.log(describe(finding));
  for (const finding of blocking) console.error(describe(finding));
  for (const error of result.errors) console.error(`Could not scan ${error.file}${error.message === undefined ? '' : `: ${error.message}`}`);
  console.log(
    `Electronegativity (Electron ${electronVersion}) on ${path.relative(REPOSITORY_ROOT, input)}: ` +
      `${blocking.length} finding(s) of medium or higher severity, ${advisory.length} lower, ${result.errors.length} file(s) not scanned.`,
  );
  if (blocking.length > 0 || result.errors.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
