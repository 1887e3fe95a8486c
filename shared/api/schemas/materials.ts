/** Material schemas (spec §2.9, limits of spec §8). */
import { Type, type Static } from 'typebox';
import { FinancialImportTypeInputSchema, FinancialImportTypeSchema } from '../enums';
import { Double, Fraction, Int32, Maybe, Nullable, Uuid } from '../schema-kit';
import { circularFlowFields } from './circular-flows';
import { LocalizedText, LocalizedTextRequest } from './common';
import { datedPrice, datedPriceRequest } from './dated-price';
import { matchRule, matchRuleRequest } from './match-rule';

/** A material's circular properties as answered; fractions 0..1, null when unknown. */
export const MaterialCircularInformation = Type.Object(
  {
    ...circularFlowFields(),
  },
  { additionalProperties: false },
);
/** A material's circular properties as answered. */
export type MaterialCircularInformation = Static<typeof MaterialCircularInformation>;

/** A material's circular properties as sent: all 0..1 except virgin and incineration, which spec §8 leaves open. */
export const MaterialCircularInformationRequest = Type.Object({
  recycledPercentageFeedstock: Maybe(Fraction()),
  rapidRenewablesPercentageFeedstock: Maybe(Fraction()),
  virginPercentageFeedstock: Maybe(Double()),
  recycledPercentageEndOfLife: Maybe(Fraction()),
  landfillPercentageEndOfLife: Maybe(Fraction()),
  incinerationPercentageEndOfLife: Maybe(Double()),
  efficiencyPercentageRecyclingFeedstock: Maybe(Fraction()),
  efficiencyPercentageRecyclingEndOfLife: Maybe(Fraction()),
});
/** A material's circular properties as sent. */
export type MaterialCircularInformationRequest = Static<typeof MaterialCircularInformationRequest>;

/** A material's financial properties as answered. */
export const MaterialFinancialInformation = Type.Object(
  {
    importType: FinancialImportTypeSchema,
    priceSetId: Nullable(Type.String({ description: 'The price set that supplies the prices.' })),
    transportCosts: Nullable(Double({ description: 'EUR per kg.' })),
    handlingFeedstockEuroKg: Nullable(Double({ description: 'EUR per kg.' })),
    handlingFeedstockPercentage: Nullable(Double({ description: 'Share of the value, 0..1.' })),
  },
  { additionalProperties: false },
);
/** A material's financial properties as answered. */
export type MaterialFinancialInformation = Static<typeof MaterialFinancialInformation>;

/** A material's financial properties as sent; an absent importType is None (0). */
export const MaterialFinancialInformationRequest = Type.Object({
  importType: Maybe(FinancialImportTypeInputSchema),
  priceSetId: Maybe(Type.String()),
  transportCosts: Maybe(Double()),
  handlingFeedstockEuroKg: Maybe(Double()),
  handlingFeedstockPercentage: Maybe(Double()),
});
/** A material's financial properties as sent. */
export type MaterialFinancialInformationRequest = Static<typeof MaterialFinancialInformationRequest>;

/** A material as answered. */
export const Material = Type.Object(
  {
    name: LocalizedText,
    elementFamily: Nullable(Type.String({ description: 'Material family, e.g. stone, metal, wood.' })),
    description: LocalizedText,
    supplier: Nullable(Type.String()),
    specificWeight: Nullable(Double({ description: 'kg/m3.' })),
    lifeTime: Nullable(Int32({ description: 'Years.' })),
    circular: MaterialCircularInformation,
    financial: MaterialFinancialInformation,
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A material as answered. */
export type Material = Static<typeof Material>;

/** A material as sent on create and replace. `id` is accepted (the platform's examples send it) but the path or the server decides it. */
export const MaterialRequest = Type.Object({
  name: Maybe(LocalizedTextRequest),
  elementFamily: Maybe(Type.String()),
  description: Maybe(LocalizedTextRequest),
  supplier: Maybe(Type.String()),
  specificWeight: Maybe(Double({ minimum: 0 })),
  lifeTime: Maybe(Int32({ minimum: 0 })),
  circular: Maybe(MaterialCircularInformationRequest),
  financial: Maybe(MaterialFinancialInformationRequest),
  id: Maybe(Uuid()),
});
/** A material as sent. */
export type MaterialRequest = Static<typeof MaterialRequest>;

/** A price of a material at a moment (manual import mode). */
export const MaterialFinancialValue = datedPrice();
/** A price of a material at a moment. */
export type MaterialFinancialValue = Static<typeof MaterialFinancialValue>;

/** A price of a material as sent; only `value` is required (absent valueDate: now, currency: EUR, unit: mt). */
export const MaterialFinancialValueRequest = datedPriceRequest();
/** A price of a material as sent. */
export type MaterialFinancialValueRequest = Static<typeof MaterialFinancialValueRequest>;

/** A rule matching element names to a material (decisions §9). */
export const MaterialMatch = matchRule();
/** A rule matching element names to a material. */
export type MaterialMatch = Static<typeof MaterialMatch>;

/** A material match as sent: both fields are required, a match without either means nothing. */
export const MaterialMatchRequest = matchRuleRequest();
/** A material match as sent. */
export type MaterialMatchRequest = Static<typeof MaterialMatchRequest>;
