import { ODataError } from './errors';

/** A token of an OData expression; `start`/`end` are offsets in the option's text. */
export type Token =
  | { readonly kind: 'end' | 'whitespace' | 'open' | 'close' | 'comma' | 'slash'; readonly start: number; readonly end: number }
  | { readonly kind: 'identifier'; readonly text: string; readonly start: number; readonly end: number }
  | { readonly kind: 'string'; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: 'number'; readonly value: number; readonly start: number; readonly end: number }
  | { readonly kind: 'guid'; readonly value: string; readonly start: number; readonly end: number };

/** An identifier token. */
export type IdentifierToken = Extract<Token, { kind: 'identifier' }>;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
const isHexDigit = (c: string | undefined): boolean =>
  isDigit(c) || (c !== undefined && ((c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f')));
const isIdentifierStart = (c: string | undefined): boolean => isLetter(c) || c === '_';
const isIdentifierPart = (c: string | undefined): boolean => isIdentifierStart(c) || isDigit(c);
/** RWS/BWS of the ABNF once percent-decoded: space and horizontal tab only. */
const isWhitespace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** Printable ASCII quoted, anything else as U+XXXX, so control and invisible characters show in messages. */
export function describeCharacter(text: string, position: number): string {
  const codePoint = text.codePointAt(position);
  if (codePoint === undefined) return 'end of input';
  if (codePoint > 0x20 && codePoint < 0x7f) return `'${String.fromCodePoint(codePoint)}'`;
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Scans the one token that starts at `start`; throws ODataError for text no token of our grammar can start with. */
export function scanToken(text: string, start: number, option: string): Token {
  const c = text[start];
  if (c === undefined) return { kind: 'end', start, end: start };
  if (isWhitespace(c)) {
    let end = start + 1;
    while (isWhitespace(text[end])) end++;
    return { kind: 'whitespace', start, end };
  }
  switch (c) {
    case '(': return { kind: 'open', start, end: start + 1 };
    case ')': return { kind: 'close', start, end: start + 1 };
    case ',': return { kind: 'comma', start, end: start + 1 };
    case '/': return { kind: 'slash', start, end: start + 1 };
    case "'": return scanString(text, start, option);
    case '$': {
      let end = start + 1;
      while (isIdentifierPart(text[end])) end++;
      return fail(option, start, `'${text.slice(start, end)}' is not supported`);
    }
    case '@': return fail(option, start, 'parameter aliases and annotations are not supported');
    case '[': return fail(option, start, 'array literals are not supported');
    case '{': return fail(option, start, 'object literals are not supported');
    case '"': return fail(option, start, "double-quoted strings are not supported; quote strings with '");
    default: break;
  }
  if (looksLikeGuid(text, start)) return scanGuid(text, start, option);
  if (isDigit(c) || ((c === '-' || c === '+') && isDigit(text[start + 1]))) return scanNumber(text, start, option);
  if (c === '-') return fail(option, start, 'the negation operator is not supported');
  if (isIdentifierStart(c)) return scanIdentifier(text, start, option);
  return fail(option, start, `unexpected character ${describeCharacter(text, start)}`);
}

function fail(option: string, position: number, detail: string): never {
  throw new ODataError(option, position, detail);
}

function scanString(text: string, start: number, option: string): Token {
  let value = '';
  let chunkStart = start + 1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\0') fail(option, i, 'string literals cannot contain U+0000');
    if (c !== "'") continue;
    value += text.slice(chunkStart, i);
    if (text[i + 1] !== "'") return { kind: 'string', value, start, end: i + 1 };
    value += "'";
    i++;
    chunkStart = i + 1;
  }
  return fail(option, start, 'unterminated string literal');
}

/** `[SIGN] 1*DIGIT ["." 1*DIGIT] ["e" [SIGN] 1*DIGIT]` (decimalLiteral without NaN/INF). */
function scanNumber(text: string, start: number, option: string): Token {
  let end = start + 1;
  while (isDigit(text[end])) end++;
  if (text[end] === '.') {
    end++;
    if (!isDigit(text[end])) fail(option, end, "expected a digit after '.'");
    while (isDigit(text[end])) end++;
  }
  if (text[end] === 'e' || text[end] === 'E') {
    end++;
    if (text[end] === '+' || text[end] === '-') end++;
    if (!isDigit(text[end])) fail(option, end, 'expected a digit in the exponent');
    while (isDigit(text[end])) end++;
  }
  const value = Number(text.slice(start, end));
  if (!Number.isFinite(value)) fail(option, start, 'number out of range');
  return { kind: 'number', value, start, end };
}

const GUID_GROUPS = [8, 4, 4, 4, 12] as const;

/** Eight hex digits and a dash can only be meant as a guid: nothing else in the grammar looks like that. */
function looksLikeGuid(text: string, start: number): boolean {
  for (let i = start; i < start + 8; i++) if (!isHexDigit(text[i])) return false;
  return text[start + 8] === '-';
}

/** `8HEXDIG "-" 4HEXDIG "-" 4HEXDIG "-" 4HEXDIG "-" 12HEXDIG`, failing at the first character that does not fit. */
function scanGuid(text: string, start: number, option: string): Token {
  let end = start;
  for (const [group, length] of GUID_GROUPS.entries()) {
    if (group > 0) {
      if (text[end] !== '-') fail(option, end, "expected '-' in a guid");
      end++;
    }
    for (let i = 0; i < length; i++, end++) if (!isHexDigit(text[end])) fail(option, end, 'expected a hex digit in a guid');
  }
  return { kind: 'guid', value: text.slice(start, end).toLowerCase(), start, end };
}

function scanIdentifier(text: string, start: number, option: string): Token {
  let end = start + 1;
  while (isIdentifierPart(text[end])) end++;
  if (text[end] === '.') {
    let qualifiedEnd = end;
    while (text[qualifiedEnd] === '.' && isIdentifierStart(text[qualifiedEnd + 1])) {
      qualifiedEnd += 2;
      while (isIdentifierPart(text[qualifiedEnd])) qualifiedEnd++;
    }
    if (qualifiedEnd > end && text[qualifiedEnd] === '(') {
      fail(option, start, `unsupported function '${text.slice(start, qualifiedEnd)}'`);
    }
    fail(option, end, "unexpected '.': qualified names (type casts, enumeration values) are not supported");
  }
  return { kind: 'identifier', text: text.slice(start, end), start, end };
}
