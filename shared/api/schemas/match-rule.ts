/**
 * A rule that matches elements to a catalogue item (decisions §9), which materials and products share. Like the dated
 * price, each catalogue gets schemas of its own from these makers, so the OpenAPI document keeps one named component
 * per catalogue; the shape is written once.
 */
import { Type } from 'typebox';
import { MatchTypeInputSchema, MatchTypeSchema } from '../enums';

/** A match rule as stored: the text it compares and how. */
export function matchRule() {
  return Type.Object(
    {
      value: Type.String(),
      matchType: MatchTypeSchema,
    },
    { additionalProperties: false },
  );
}

/** A match rule as sent: both fields are required, a rule without either means nothing. */
export function matchRuleRequest() {
  return Type.Object({
    value: Type.String({ minLength: 1 }),
    matchType: MatchTypeInputSchema,
  });
}
