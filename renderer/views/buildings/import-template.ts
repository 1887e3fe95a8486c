/** The import template (shared/import-template.ts) as an XLSX file in a language; exceljs is loaded only when asked for. */
import { fillImportTemplate } from '../../../shared/import-template';
import type { SheetLanguage } from '../../../shared/sheet-columns';
import { XLSX_TYPE } from '../files/element-export';

export async function importTemplateXlsx(language: SheetLanguage): Promise<Blob> {
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  fillImportTemplate(workbook, language);
  return new Blob([await workbook.xlsx.writeBuffer()], { type: XLSX_TYPE });
}
