import { describe, expect, it } from 'vitest';
import {
  localDate,
  MAX_FILE_NAME_BYTES,
  numberedFileName,
  passportFileName,
  sanitiseFileNamePart,
  temporaryFileName,
} from '../../../../electron/passports/passport-names';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const MAY_7 = new Date(2024, 4, 7, 23, 30);

describe('passportFileName', () => {
  it('names a passport after its building, the word passport and the local date', () => {
    expect(passportFileName('Kantoor Noord', 'pdf', MAY_7, 'Building')).toBe('Kantoor Noord - passport - 2024-05-07.pdf');
    expect(passportFileName('Kantoor Noord', 'xlsx', MAY_7, 'Building')).toBe('Kantoor Noord - passport - 2024-05-07.xlsx');
  });

  it('keeps dots inside a name', () => {
    expect(passportFileName('Campus 2.0', 'pdf', MAY_7, 'Building')).toBe('Campus 2.0 - passport - 2024-05-07.pdf');
  });

  it('uses the fallback for a name with nothing usable in it', () => {
    expect(passportFileName('  ...  ', 'pdf', MAY_7, 'Portfolio')).toBe('Portfolio - passport - 2024-05-07.pdf');
  });

  it('shortens a long name so that the numbered temporary name still fits the file system', () => {
    for (const unit of ['é', 'a', '水', '👍', '👩‍👩‍👧‍👦']) {
      const name = passportFileName(unit.repeat(300), 'xlsx', MAY_7, 'Building');
      expect(name.endsWith(' - passport - 2024-05-07.xlsx')).toBe(true);
      const longest = temporaryFileName(numberedFileName(name, 9999), 'abcdef012345');
      expect(bytes(longest)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      // Shortened on whole characters: what is kept is the unit repeated, never half of one.
      const kept = name.slice(0, name.indexOf(' - passport - '));
      expect(kept.length % unit.length).toBe(0);
      expect(kept).toBe(unit.repeat(kept.length / unit.length));
      expect(bytes(name)).toBeGreaterThan(MAX_FILE_NAME_BYTES - 40);
    }
  });
});

describe('sanitiseFileNamePart', () => {
  it('replaces the characters Windows and the macOS Finder refuse', () => {
    expect(sanitiseFileNamePart('A/B: "C" <D> | E? *F\\G', 'x')).toBe('A_B_ _C_ _D_ _ E_ _F_G');
  });

  it('turns runs of white space into one space and control characters into _', () => {
    expect(sanitiseFileNamePart('Line 1\n\tLine 2\u0007end\u0085', 'x')).toBe('Line 1 Line 2_end_');
  });

  it('drops dots and spaces at both ends: hidden on macOS and Linux, dropped by Windows', () => {
    expect(sanitiseFileNamePart('..hidden. ', 'x')).toBe('hidden');
    expect(sanitiseFileNamePart(' . ', 'fallback')).toBe('fallback');
  });

  it('keeps Windows device names from being the name', () => {
    expect(sanitiseFileNamePart('CON', 'x')).toBe('_CON');
    expect(sanitiseFileNamePart('nul.txt', 'x')).toBe('_nul.txt');
    expect(sanitiseFileNamePart('com1', 'x')).toBe('_com1');
    expect(sanitiseFileNamePart('LPT9 ', 'x')).toBe('_LPT9');
    expect(sanitiseFileNamePart('Console', 'x')).toBe('Console');
    expect(sanitiseFileNamePart('Aux Gebouw', 'x')).toBe('Aux Gebouw');
  });

  it('composes accents (NFC), as macOS and Windows compare names in that form', () => {
    const name = sanitiseFileNamePart('Cafe\u0301 de l\u2019Ope\u0301ra', 'x');
    expect(name).toBe('Café de l’Opéra');
    expect(name).toBe(name.normalize('NFC'));
  });

  it('removes direction overrides that would show a false extension', () => {
    expect(sanitiseFileNamePart('report\u202Efdp.exe', 'x')).toBe('reportfdp.exe');
  });

  it('keeps letters of every script and emoji', () => {
    expect(sanitiseFileNamePart('Здание 東京 🏢', 'x')).toBe('Здание 東京 🏢');
  });
});

describe('numbered and temporary names', () => {
  it('puts the number before the extension', () => {
    expect(numberedFileName('Huis - passport - 2024-05-07.pdf', 1)).toBe('Huis - passport - 2024-05-07.pdf');
    expect(numberedFileName('Huis - passport - 2024-05-07.pdf', 2)).toBe('Huis - passport - 2024-05-07 (2).pdf');
    expect(numberedFileName('Campus 2.0 - passport - 2024-05-07.xlsx', 13)).toBe('Campus 2.0 - passport - 2024-05-07 (13).xlsx');
    expect(numberedFileName('README', 3)).toBe('README (3)');
  });

  it('hides the temporary file beside the final one', () => {
    expect(temporaryFileName('Huis - passport - 2024-05-07.pdf', '0123456789ab')).toBe('.Huis - passport - 2024-05-07.pdf.0123456789ab.part');
  });

  it('formats the local calendar date', () => {
    expect(localDate(new Date(2024, 0, 5, 0, 0))).toBe('2024-01-05');
    expect(localDate(new Date(2023, 11, 31, 23, 59))).toBe('2023-12-31');
  });
});
