/**
 * The dated price of a catalogue item, which materials and products share. Each catalogue gets schemas of its own from
 * these makers, so the OpenAPI document keeps one named component per catalogue as the spec names them; the shape is
 * written once.
 */
import { Type, type Static } from 'typebox';
import { PriceUnitInputSchema, PriceUnitSchema } from '../enums';
import { DateTime, Double, Maybe } from '../schema-kit';

/** A price of a catalogue item at a moment (manual import mode). */
export function datedPrice() {
  return Type.Object(
    {
      value: Double(),
      valueDate: DateTime(),
      currency: Type.String({ description: 'Currency code, e.g. EUR.' }),
      unit: PriceUnitSchema,
    },
    { additionalProperties: false },
  );
}
/** A price of a catalogue item at a moment. */
export type DatedPrice = Static<ReturnType<typeof datedPrice>>;

/** A price as sent; only `value` is required (absent valueDate: now, currency: EUR, unit: mt). */
export function datedPriceRequest() {
  return Type.Object({
    value: Double(),
    valueDate: Maybe(DateTime()),
    currency: Maybe(Type.String()),
    unit: Maybe(PriceUnitInputSchema),
  });
}
/** A price as sent. */
export type DatedPriceRequest = Static<ReturnType<typeof datedPriceRequest>>;
