/**
 * Writes the English import template to `docs/import-template.xlsx` (`npm run import-template`), or with `--check`
 * exits 1 when the committed file's sheets differ from what shared/import-template.ts makes (`npm run
 * import-template:check`). Sheets and cells are compared, not bytes: exceljs stamps every save with the time.
 */
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { fillImportTemplate, importTemplateSheets, sheetsOf } from '../shared/import-template';

const templatePath = fileURLToPath(new URL('../docs/import-template.xlsx', import.meta.url));

if (process.argv.includes('--check')) {
  const committed = new ExcelJS.Workbook();
  const readable = await committed.xlsx.readFile(templatePath).then(
    () => true,
    () => false,
  );
  if (!readable || JSON.stringify(sheetsOf(committed)) !== JSON.stringify(importTemplateSheets('en'))) {
    process.stderr.write(
      `${templatePath} is ${readable ? 'out of date' : 'missing or unreadable'}: the sheet columns changed. ` +
        'Run `npm run import-template` and commit the result.\n',
    );
    process.exit(1);
  }
  process.stdout.write(`${templatePath} is up to date.\n`);
} else {
  const workbook = new ExcelJS.Workbook();
  fillImportTemplate(workbook, 'en');
  await workbook.xlsx.writeFile(templatePath);
  process.stdout.write(`Wrote ${templatePath}.\n`);
}
