/**
 * Writes the generated OpenAPI document to `shared/api/openapi.json` (`npm run openapi`), or with `--check` exits 1
 * when the committed file differs from what the route table and schemas generate (`npm run openapi:check`, CI).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../shared/api/openapi';

const documentPath = fileURLToPath(new URL('../shared/api/openapi.json', import.meta.url));
const generated = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  const committed = await readFile(documentPath, 'utf8').catch(() => undefined);
  if (committed !== generated) {
    process.stderr.write(
      `${documentPath} is ${committed === undefined ? 'missing' : 'out of date'}: ` +
        'the route table or schemas changed. Run `npm run openapi` and commit the result.\n',
    );
    process.exit(1);
  }
  process.stdout.write(`${documentPath} is up to date.\n`);
} else {
  await writeFile(documentPath, generated);
  process.stdout.write(`Wrote ${documentPath}.\n`);
}
