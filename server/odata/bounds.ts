/**
 * The bounds on what the parser takes (README, "Bounds"): each option's length, refused before any work, and the
 * depth of a $filter's nesting, which keeps the recursive descent far from the stack limit.
 */
import { ODataError } from './errors';

/** Longest option text parsed; longer texts are refused before any work. */
export const MAX_OPTION_LENGTH = 8192;

/** Deepest nesting of parentheses, function calls and `not` in $filter; keeps recursion far from the stack limit. */
export const MAX_NESTING_DEPTH = 100;

/** Refuses an option's text longer than {@link MAX_OPTION_LENGTH}, naming the option. */
export function checkLength(option: string, text: string): void {
  if (text.length > MAX_OPTION_LENGTH) {
    throw new ODataError(option, MAX_OPTION_LENGTH, `longer than ${MAX_OPTION_LENGTH} characters`);
  }
}
