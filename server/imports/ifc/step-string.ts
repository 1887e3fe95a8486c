/**
 * STEP string decoding exactly as web-ifc does it (its p21decode), so that a name read by the STEP reader equals the
 * one web-ifc hands over, quirks included:
 * - `''` is one quote, `\\` one backslash; `\X2\…\X0\` UTF-16 and `\X4\…\X0\` UTF-32 in hex; `\S\c` the character
 *   c + 0x80 of the code page `\P?\` chose (ISO 8859-1 to -9); any other escape, or a lone quote, makes the whole
 *   string empty;
 * - hex digits are upper case only (a lower-case one makes the string empty);
 * - `\X\hh` is ISO 8859-1, until one of them falls in 0x80–0x9F: from then on every `\X\hh` of that string is read
 *   as Mac Roman;
 * - bytes outside escapes are taken as UTF-8 (a byte that is not UTF-8 becomes U+FFFD).
 */
import { TextDecoder } from 'node:util';

const BACKSLASH = 0x5c;
const QUOTE = 0x27;

/** Mac Roman 0x80–0xFF as UTF-16 code units, as web-ifc's table gives them. */
const MAC_ROMAN = [
  196, 197, 199, 201, 209, 214, 220, 225, 224, 226, 228, 227, 229, 231, 233, 232, 234, 235, 237, 236, 238, 239, 241, 243, 242, 244, 246, 245, 250, 249,
  251, 252, 8224, 176, 162, 163, 167, 8226, 182, 223, 174, 169, 8482, 180, 168, 8800, 198, 216, 8734, 177, 8804, 8805, 165, 181, 8706, 8721, 8719, 960,
  8747, 170, 186, 937, 230, 248, 191, 161, 172, 8730, 402, 8776, 8710, 171, 187, 8230, 160, 192, 195, 213, 338, 339, 8211, 8212, 8220, 8221, 8216, 8217,
  247, 9674, 255, 376, 8260, 8364, 8249, 8250, 64257, 64258, 8225, 183, 8218, 8222, 8240, 194, 202, 193, 203, 200, 205, 206, 207, 204, 211, 212, 63743,
  210, 218, 219, 217, 305, 710, 732, 175, 728, 729, 730, 184, 733, 731, 711,
];

const codePageDecoders = new Map<number, TextDecoder>();

/** The character `byte` (0xA1–0xFF) of ISO 8859-(page + 1). */
function isoCharacter(page: number, byte: number): string {
  if (page === 0) return String.fromCharCode(byte);
  let decoder = codePageDecoders.get(page);
  if (decoder === undefined) {
    decoder = new TextDecoder(`iso-8859-${page + 1}`);
    codePageDecoders.set(page, decoder);
  }
  return decoder.decode(Uint8Array.of(byte));
}

/** An upper-case hex digit's value, else -1 (web-ifc reads no lower-case digits). */
function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  return -1;
}

/** Whether bytes[start, end) need decoding at all (quotes, escapes or bytes above ASCII). */
function isPlain(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const byte = bytes[index] as number;
    if (byte === BACKSLASH || byte === QUOTE || byte >= 0x80 || byte === 0) return false;
  }
  return true;
}

/** Decodes the body of a STEP string (between its quotes, `''` still doubled). */
export function decodeStepString(bytes: Buffer, start: number, end: number): string {
  if (isPlain(bytes, start, end)) return bytes.toString('latin1', start, end);
  let result = '';
  let runStart = start;
  let codePage = 0;
  let macRoman = false;
  const flush = (runEnd: number): void => {
    if (runEnd > runStart) result += bytes.toString('utf8', runStart, runEnd);
  };
  let index = start;
  while (index < end) {
    const byte = bytes[index] as number;
    if (byte === 0) break;
    if (byte === QUOTE) {
      if (bytes[index + 1] !== QUOTE || index + 1 >= end) return '';
      flush(index + 1);
      index += 2;
      runStart = index;
      continue;
    }
    if (byte !== BACKSLASH) {
      index++;
      continue;
    }
    flush(index);
    const escape = index + 1 < end ? bytes[index + 1] : undefined;
    if (escape === undefined) return result;
    if (escape === BACKSLASH) {
      result += '\\';
      index += 2;
    } else if (escape === 0x58 /* X */) {
      const kind = index + 2 < end ? bytes[index + 2] : undefined;
      if (kind === BACKSLASH) {
        const high = hexDigit(bytes[index + 3]);
        const low = hexDigit(bytes[index + 4]);
        if (high < 0 || low < 0 || index + 4 >= end) return '';
        let unit = (high << 4) | low;
        if (unit >= 0x80 && unit <= 0x9f) macRoman = true;
        if (macRoman && unit >= 0x80) unit = MAC_ROMAN[unit - 0x80] as number;
        result += String.fromCharCode(unit);
        index += 5;
      } else if (kind === 0x32 /* 2 */ || kind === 0x34 /* 4 */) {
        if (bytes[index + 3] !== BACKSLASH) return '';
        const closing = findClosing(bytes, index + 4, end);
        if (closing < 0) return '';
        const width = kind === 0x32 ? 4 : 8;
        if ((closing - index - 4) % width !== 0) return '';
        for (let digit = index + 4; digit + width <= closing; digit += width) {
          let code = 0;
          for (let offset = 0; offset < width; offset++) {
            const value = hexDigit(bytes[digit + offset]);
            if (value < 0) return '';
            code = code * 16 + value;
          }
          if (code > 0x10ffff) return '';
          result += width === 4 ? String.fromCharCode(code) : String.fromCodePoint(code);
        }
        index = closing + 4;
      } else return '';
    } else if (escape === 0x53 /* S */) {
      if (bytes[index + 2] !== BACKSLASH) return '';
      const character = bytes[index + 3];
      if (character === undefined || index + 3 >= end) return result;
      result += isoCharacter(codePage, (character + 0x80) & 0xff);
      index += 4;
    } else if (escape === 0x50 /* P */) {
      const page = bytes[index + 2];
      if (page === undefined || bytes[index + 3] !== BACKSLASH || page < 0x41 || page > 0x49) return '';
      codePage = page - 0x41;
      index += 4;
    } else return '';
    runStart = index;
  }
  flush(Math.min(index, end));
  return result;
}

/** The position of the `\X0\` that closes a `\X2\` or `\X4\` run, or -1; any other backslash first is an error. */
function findClosing(bytes: Uint8Array, from: number, end: number): number {
  for (let index = from; index < end; index++) {
    if (bytes[index] !== BACKSLASH) continue;
    return bytes[index + 1] === 0x58 && bytes[index + 2] === 0x30 && bytes[index + 3] === BACKSLASH && index + 3 < end ? index : -1;
  }
  return -1;
}
