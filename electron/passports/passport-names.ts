/**
 * Names of downloaded passports: `<building or portfolio name> - passport - <YYYY-MM-DD>.pdf|xlsx`, made safe for the
 * file systems of Windows, macOS and Linux, with ` (2)`, ` (3)`… for a name that is taken, and the hidden temporary
 * name a download is written to before it is linked into place.
 */
import type { PassportFormat } from '../../shared/passports';

/** Longest file name in UTF-8 bytes: the limit of APFS and ext4; never more UTF-16 units than NTFS's 255. */
export const MAX_FILE_NAME_BYTES = 255;

/** Most numbers a taken name is tried with before giving up. */
export const MAX_NAME_NUMBER = 9999;

/** What `temporaryFileName` adds: a leading dot, `.` + 12 hex digits and `.part`. */
const TEMPORARY_OVERHEAD_BYTES = 1 + 1 + 12 + '.part'.length;
/** Room kept for the largest ` (n)`, so a numbered name still fits. */
const NUMBER_RESERVE_BYTES = ` (${MAX_NAME_NUMBER})`.length;

/** Characters Windows refuses in names (`:` is also the macOS Finder's `/`), and the C0 and C1 controls. */
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*\p{Cc}]/gu;
/** Direction overrides and isolates, which can make a name display with a false extension. */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Device names Windows reserves, with or without an extension (checked on the part before the first dot). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/i;

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest start of `text` of at most `maxBytes` UTF-8 bytes that ends on a whole grapheme (no split emoji or accent). */
function truncateToBytes(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let kept = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8Length(segment);
    if (bytes + size > maxBytes) break;
    kept += segment;
    bytes += size;
  }
  return kept;
}

/** Without dots and spaces at either end: Windows drops trailing ones, and a leading dot hides a file on macOS and Linux. */
function trimDotsAndSpaces(text: string): string {
  return text.replace(/^[\s.]+|[\s.]+$/g, '');
}

/**
 * A name (of a building, a portfolio) as part of a file name on every desktop system: NFC (macOS and Windows compare
 * names in that form), runs of white space as one space, forbidden characters as `_`, no direction controls, no dots
 * or spaces at the ends, no Windows device name, and at most `maxBytes` UTF-8 bytes. `fallback` when nothing is left.
 */
export function sanitiseFileNamePart(text: string, fallback: string, maxBytes = MAX_FILE_NAME_BYTES): string {
  const cleaned = trimDotsAndSpaces(
    text.normalize('NFC').replace(BIDI_CONTROLS, '').replace(/\s+/g, ' ').replace(FORBIDDEN_CHARACTERS, '_'),
  );
  const truncated = trimDotsAndSpaces(truncateToBytes(cleaned, maxBytes));
  const named = truncated === '' ? fallback : truncated;
  const [stem = ''] = named.split('.');
  return WINDOWS_RESERVED.test(stem.trimEnd()) ? `_${truncateToBytes(named, maxBytes - 1)}` : named;
}

/** The calendar date of `date` in the local time zone, as `YYYY-MM-DD`. */
export function localDate(date: Date): string {
  const year = String(date.getFullYear()).padStart(4, '0');
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/**
 * `<name> - passport - <YYYY-MM-DD>.<format>`, the name shortened so that the numbered and the temporary forms of the
 * file name still fit in `MAX_FILE_NAME_BYTES`; `fallback` stands in for a name with nothing usable in it.
 */
export function passportFileName(subjectName: string, format: PassportFormat, date: Date, fallback: string): string {
  const suffix = ` - passport - ${localDate(date)}.${format}`;
  const room = MAX_FILE_NAME_BYTES - TEMPORARY_OVERHEAD_BYTES - NUMBER_RESERVE_BYTES - utf8Length(suffix);
  return `${sanitiseFileNamePart(subjectName, fallback, room)}${suffix}`;
}

/** The `n`th candidate for a file name: the name itself for 1, else ` (n)` before the extension. */
export function numberedFileName(fileName: string, n: number): string {
  if (n <= 1) return fileName;
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? `${fileName} (${n})` : `${fileName.slice(0, dot)} (${n})${fileName.slice(dot)}`;
}

/** The hidden name a download is written to beside its final name: `.<name>.<token>.part`. */
export function temporaryFileName(fileName: string, token: string): string {
  return `.${fileName}.${token}.part`;
}
