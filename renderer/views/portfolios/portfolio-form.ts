/**
 * The portfolio name as the create and rename forms take it: trimmed, required (the request's schema refuses a blank
 * name), and no longer than the schema allows. The spec sets no maximum today; a `maxLength` added to the schema
 * applies here at once.
 */
import { PortfolioRequest } from '../../../shared/api/schemas';

/** Why a name is refused. */
export type PortfolioNameError = 'required' | 'too-long';

/** A name the form accepts, or why not. */
export type PortfolioNameCheck = { ok: true; name: string } | { ok: false; error: PortfolioNameError };

function schemaMaxLength(): number | null {
  // TypeBox's static type of a string schema leaves its options out; the JSON schema itself carries them.
  const limit: unknown = Reflect.get(PortfolioRequest.properties.name, 'maxLength');
  return typeof limit === 'number' ? limit : null;
}

/** The longest name the request's schema takes; null: no limit. */
export const PORTFOLIO_NAME_MAX_LENGTH: number | null = schemaMaxLength();

/** Checks a typed name; an accepted one is trimmed. */
export function checkPortfolioName(typed: string, maxLength: number | null = PORTFOLIO_NAME_MAX_LENGTH): PortfolioNameCheck {
  const name = typed.trim();
  if (name === '') return { ok: false, error: 'required' };
  if (maxLength !== null && [...name].length > maxLength) return { ok: false, error: 'too-long' };
  return { ok: true, name };
}
