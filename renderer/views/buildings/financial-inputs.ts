/**
 * The inputs of the financial figures (spec §4.2: `inflation`, `bdbIndex`, `discountRate`, query parameters of
 * `/financial`, each optional, the server's default when empty). The user types yearly percentages; the API takes
 * fractions. A rate must keep `1 + rate` above zero, or the discounting over the years is meaningless, and a yearly
 * rate above 100 % is taken for a typing error.
 */

/** The inputs, in the order the form shows them. */
export const FINANCIAL_INPUTS = ['inflation', 'bdbIndex', 'discountRate'] as const;
/** An input. */
export type FinancialInput = (typeof FINANCIAL_INPUTS)[number];

/** What the user typed, in percent per year; null: the server's default. */
export type FinancialInputs = Record<FinancialInput, number | null>;

/** Why an input is refused. */
export type FinancialInputError = 'not-finite' | 'out-of-range';

/** Smallest percentage accepted (exclusive): a rate of -100 % would make `1 + rate` zero. */
export const MIN_RATE_PERCENT = -100;
/** Largest percentage accepted. */
export const MAX_RATE_PERCENT = 100;

/** No inputs: every rate is the server's default, as in the cached figures. */
export function defaultFinancialInputs(): FinancialInputs {
  return { inflation: null, bdbIndex: null, discountRate: null };
}

/** Whether the user typed any rate. */
export function hasFinancialInputs(inputs: FinancialInputs): boolean {
  return FINANCIAL_INPUTS.some((input) => inputs[input] !== null);
}

/** The inputs refused, by input. */
export function financialInputErrors(inputs: FinancialInputs): Partial<Record<FinancialInput, FinancialInputError>> {
  const errors: Partial<Record<FinancialInput, FinancialInputError>> = {};
  for (const input of FINANCIAL_INPUTS) {
    const value = inputs[input];
    if (value === null) continue;
    if (!Number.isFinite(value)) errors[input] = 'not-finite';
    else if (value <= MIN_RATE_PERCENT || value > MAX_RATE_PERCENT) errors[input] = 'out-of-range';
  }
  return errors;
}

/** The query of `/financial`: the typed rates as fractions; those left empty are left out, so the server's defaults apply. */
export function financialQueryOf(inputs: FinancialInputs): Partial<Record<FinancialInput, number>> {
  const query: Partial<Record<FinancialInput, number>> = {};
  for (const input of FINANCIAL_INPUTS) {
    const value = inputs[input];
    // Rounded so that 2.1 % is sent as 0.021, not 0.021000000000000001.
    if (value !== null) query[input] = Number((value / 100).toPrecision(12));
  }
  return query;
}
