/**
 * The DejaVu fonts passports are set in: one family that covers every character of the six languages (and €, ², —),
 * embedded in the PDFs and given to resvg for the chart labels.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PASSPORT_FONT_DIR_ENV } from '../../shared/embedded-server';

/** Where distributions install DejaVu: Debian/Ubuntu (`fonts-dejavu-core`), Fedora, Arch, Alpine, Homebrew. */
const SYSTEM_FONT_DIRS = [
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/dejavu-sans-fonts',
  '/usr/share/fonts/dejavu',
  '/usr/share/fonts/TTF',
  '/usr/share/fonts/ttf-dejavu',
  '/opt/homebrew/share/fonts',
  '/usr/local/share/fonts',
];

/** Paths of the font files passports use. */
export interface PassportFonts {
  regular: string;
  bold: string;
  condensed: string;
  condensedBold: string;
}

/** The family name the charts ask for; resvg matches it against the loaded files. */
export const CHART_FONT_FAMILY = 'DejaVu Sans';

const FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  condensed: 'DejaVuSansCondensed.ttf',
  condensedBold: 'DejaVuSansCondensed-Bold.ttf',
} as const satisfies Record<keyof PassportFonts, string>;

let cached: PassportFonts | undefined;

/** The DejaVu files, from `$CIRCULARITY_PASSPORT_FONT_DIR` or the first system folder that has them all; throws if none does. */
export function passportFonts(): PassportFonts {
  if (cached) return cached;
  const configured = process.env[PASSPORT_FONT_DIR_ENV];
  const folders = configured ? [configured, ...SYSTEM_FONT_DIRS] : SYSTEM_FONT_DIRS;
  for (const folder of folders) {
    if (Object.values(FILES).every((file) => existsSync(join(folder, file)))) {
      cached = {
        regular: join(folder, FILES.regular),
        bold: join(folder, FILES.bold),
        condensed: join(folder, FILES.condensed),
        condensedBold: join(folder, FILES.condensedBold),
      };
      return cached;
    }
  }
  throw new Error(
    `Passports need the DejaVu Sans fonts (${Object.values(FILES).join(', ')}); none of ${folders.join(', ')} holds them. ` +
      `Install fonts-dejavu-core or set ${PASSPORT_FONT_DIR_ENV}.`,
  );
}
