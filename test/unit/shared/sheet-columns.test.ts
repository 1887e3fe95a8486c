import { describe, expect, it } from 'vitest';
import { MAPPED_TO_HEADER, normaliseHeader, SHEET_COLUMNS, SHEET_LANGUAGES, sheetHeader, type SheetField } from '../../../shared/sheet-columns';

describe('the columns of a spreadsheet source file', () => {
  it('each have a header and an explanation in every language of the app', () => {
    for (const column of SHEET_COLUMNS) {
      for (const language of SHEET_LANGUAGES) {
        expect(column.headers[language].length, `${column.field} ${language}`).toBeGreaterThan(0);
        expect(column.explanation[language].trim(), `${column.field} ${language}`).not.toBe('');
        expect(sheetHeader(column.field, language)).toBe(column.headers[language][0]);
      }
    }
    expect(new Set(SHEET_COLUMNS.map((column) => column.field)).size).toBe(SHEET_COLUMNS.length);
  });

  it('never give one header name to two fields, in any language', () => {
    const fieldOf = new Map<string, SheetField>();
    for (const column of SHEET_COLUMNS) {
      for (const language of SHEET_LANGUAGES) {
        for (const name of column.headers[language]) {
          const known = fieldOf.get(normaliseHeader(name));
          expect(known === undefined || known === column.field, `${name} names ${known} and ${column.field}`).toBe(true);
          fieldOf.set(normaliseHeader(name), column.field);
        }
      }
    }
    for (const language of SHEET_LANGUAGES) expect(fieldOf.has(normaliseHeader(MAPPED_TO_HEADER[language])), MAPPED_TO_HEADER[language]).toBe(false);
  });

  it('name the id by two names in every language, so a list of them never reads as a header on its own', () => {
    const id = SHEET_COLUMNS.find((column) => column.field === 'id');
    for (const language of SHEET_LANGUAGES) expect(id?.headers[language].length, language).toBeGreaterThanOrEqual(2);
  });

  it('compare headers in any case and spacing, composed', () => {
    expect(normaliseHeader('  Classification\u00a0  CODE ')).toBe('classification code');
    expect(normaliseHeader('Fla\u0308che')).toBe(normaliseHeader('Fläche'));
  });
});
