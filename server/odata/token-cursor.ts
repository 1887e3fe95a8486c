/**
 * The parsers' reading of one option's text: tokens scanned on demand from the lexer, and a token named in a message.
 */
import { assertNever } from '../../shared/api/enums';
import { ODataError } from './errors';
import { scanToken, type Token } from './lexer';

/**
 * Reads tokens on demand, so that the first error in reading order is the one reported. Tokens are remembered by
 * offset because operator lookahead backtracks over the same few tokens at every precedence level.
 */
export class TokenCursor {
  offset = 0;
  private readonly scanned = new Map<number, Token>();

  constructor(
    readonly text: string,
    readonly option: string,
  ) {}

  peek(): Token {
    let token = this.scanned.get(this.offset);
    if (token === undefined) {
      token = scanToken(this.text, this.offset, this.option);
      this.scanned.set(this.offset, token);
    }
    return token;
  }

  next(): Token {
    const token = this.peek();
    this.offset = token.end;
    return token;
  }

  skipWhitespace(): void {
    if (this.peek().kind === 'whitespace') this.next();
  }

  fail(position: number, detail: string): never {
    throw new ODataError(this.option, position, detail);
  }
}

export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'end': return 'the end';
    case 'whitespace': return 'whitespace';
    case 'open': return "'('";
    case 'close': return "')'";
    case 'comma': return "','";
    case 'slash': return "'/'";
    case 'identifier': return `'${token.text}'`;
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'guid': return 'a guid';
    default: return assertNever(token);
  }
}
