/** Product schemas (spec §2.11, limits of spec §8). */
import { Type, type Static } from 'typebox';
import { ElementDimensionTypeInputSchema, ElementDimensionTypeSchema, ProductTypeInputSchema, ProductTypeSchema } from '../enums';
import { Double, Fraction, Int32, Maybe, Nullable, Uuid } from '../schema-kit';
import { circularFlowFields } from './circular-flows';
import { LocalizedText, LocalizedTextRequest } from './common';
import { datedPrice, datedPriceRequest } from './dated-price';
import { matchRule, matchRuleRequest } from './match-rule';

/** A product's circular properties as answered; fractions 0..1 and lifetimes in years, null when unknown. */
export const ProductCircularInformation = Type.Object(
  {
    ...circularFlowFields(),
    technicalLifetime: Nullable(Int32()),
    functionalLifetime: Nullable(Int32()),
    productReusedPercentageFeedstock: Nullable(Double()),
    productRecycledPercentageFeedstock: Nullable(Double()),
    productRapidRenewablesPercentageFeedstock: Nullable(Double()),
    productVirginPercentageFeedstock: Nullable(Double()),
    productReusedPercentageEndOfLife: Nullable(Double()),
    productRecycledPercentageEndOfLife: Nullable(Double()),
    productLandfillPercentageEndOfLife: Nullable(Double()),
    productIncinerationPercentageEndOfLife: Nullable(Double()),
  },
  { additionalProperties: false },
);
/** A product's circular properties as answered. */
export type ProductCircularInformation = Static<typeof ProductCircularInformation>;

/** A product's circular properties as sent, with the bounds of spec §8 (lifetimes 0..1000 years, reuse 0..1). */
export const ProductCircularInformationRequest = Type.Object({
  recycledPercentageFeedstock: Maybe(Double()),
  rapidRenewablesPercentageFeedstock: Maybe(Double()),
  virginPercentageFeedstock: Maybe(Double()),
  recycledPercentageEndOfLife: Maybe(Double()),
  landfillPercentageEndOfLife: Maybe(Double()),
  incinerationPercentageEndOfLife: Maybe(Double()),
  efficiencyPercentageRecyclingFeedstock: Maybe(Double()),
  efficiencyPercentageRecyclingEndOfLife: Maybe(Double()),
  technicalLifetime: Maybe(Int32({ minimum: 0, maximum: 1000 })),
  functionalLifetime: Maybe(Int32({ minimum: 0, maximum: 1000 })),
  productReusedPercentageFeedstock: Maybe(Fraction()),
  productRecycledPercentageFeedstock: Maybe(Double()),
  productRapidRenewablesPercentageFeedstock: Maybe(Double()),
  productVirginPercentageFeedstock: Maybe(Double()),
  productReusedPercentageEndOfLife: Maybe(Fraction()),
  productRecycledPercentageEndOfLife: Maybe(Double()),
  productLandfillPercentageEndOfLife: Maybe(Double()),
  productIncinerationPercentageEndOfLife: Maybe(Double()),
});
/** A product's circular properties as sent. */
export type ProductCircularInformationRequest = Static<typeof ProductCircularInformationRequest>;

/** One dimension of a product. */
export const ProductDimension = Type.Object(
  {
    dimensionValue: Double(),
    dimensionType: ElementDimensionTypeSchema,
  },
  { additionalProperties: false },
);
/** One dimension of a product. */
export type ProductDimension = Static<typeof ProductDimension>;

/** One dimension of a product as sent: a dimension without value or type means nothing. */
export const ProductDimensionRequest = Type.Object({
  dimensionValue: Double(),
  dimensionType: ElementDimensionTypeInputSchema,
});
/** One dimension of a product as sent. */
export type ProductDimensionRequest = Static<typeof ProductDimensionRequest>;

/** A product as answered. */
export const Product = Type.Object(
  {
    name: LocalizedText,
    type: ProductTypeSchema,
    description: LocalizedText,
    supplier: Nullable(Type.String()),
    productCode: Nullable(Type.String({ description: 'Product code (EAN).' })),
    circular: ProductCircularInformation,
    fixedDimensions: Type.Array(ProductDimension),
    defaultDimensions: Type.Array(ProductDimension, {
      description: 'Default dimensions of the variable size: the factor for all child relations.',
    }),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A product as answered. */
export type Product = Static<typeof Product>;

/** A product as sent on create and replace. `type` is required: no product type is a sensible default. */
export const ProductRequest = Type.Object({
  name: Maybe(LocalizedTextRequest),
  type: ProductTypeInputSchema,
  description: Maybe(LocalizedTextRequest),
  supplier: Maybe(Type.String()),
  productCode: Maybe(Type.String()),
  circular: Maybe(ProductCircularInformationRequest),
  fixedDimensions: Maybe(Type.Array(ProductDimensionRequest)),
  defaultDimensions: Maybe(Type.Array(ProductDimensionRequest)),
  id: Maybe(Uuid({ description: 'Accepted as the platform sends it; the path or the server decides the id.' })),
});
/** A product as sent. */
export type ProductRequest = Static<typeof ProductRequest>;

/** A rule matching element names or EAN codes to a product (decisions §9). */
export const ProductMatch = matchRule();
/** A rule matching elements to a product. */
export type ProductMatch = Static<typeof ProductMatch>;

/** A product match as sent: both fields are required. */
export const ProductMatchRequest = matchRuleRequest();
/** A product match as sent. */
export type ProductMatchRequest = Static<typeof ProductMatchRequest>;

/** How a child relation's circular data is taken: each inherit flag takes the matching figures from the child itself. */
export const ProductChildCircularInformation = Type.Object(
  {
    inheritFeedstockPercentages: Type.Boolean(),
    recycledPercentageFeedstock: Nullable(Double()),
    rapidRenewablesPercentageFeedstock: Nullable(Double()),
    inheritEndOfLifePercentages: Type.Boolean(),
    recycledPercentageEndOfLife: Nullable(Double()),
    landfillPercentageEndOfLife: Nullable(Double()),
    inheritEfficiencyPercentages: Type.Boolean(),
    efficiencyPercentageRecyclingFeedstock: Nullable(Double()),
    efficiencyPercentageRecyclingEndOfLife: Nullable(Double()),
  },
  { additionalProperties: false },
);
/** A child relation's circular data as answered. */
export type ProductChildCircularInformation = Static<typeof ProductChildCircularInformation>;

/** A child relation's circular data as sent; an absent inherit flag is false. */
export const ProductChildCircularInformationRequest = Type.Object({
  inheritFeedstockPercentages: Maybe(Type.Boolean()),
  recycledPercentageFeedstock: Maybe(Double()),
  rapidRenewablesPercentageFeedstock: Maybe(Double()),
  inheritEndOfLifePercentages: Maybe(Type.Boolean()),
  recycledPercentageEndOfLife: Maybe(Double()),
  landfillPercentageEndOfLife: Maybe(Double()),
  inheritEfficiencyPercentages: Maybe(Type.Boolean()),
  efficiencyPercentageRecyclingFeedstock: Maybe(Double()),
  efficiencyPercentageRecyclingEndOfLife: Maybe(Double()),
});
/** A child relation's circular data as sent. */
export type ProductChildCircularInformationRequest = Static<typeof ProductChildCircularInformationRequest>;

/** A material or product contained in a product. */
export const ProductChild = Type.Object(
  {
    value: Nullable(Double({ description: 'How much of the child the parent holds; the unit depends on the relation.' })),
    childId: Uuid({ description: 'The contained material or product.' }),
    circular: ProductChildCircularInformation,
  },
  { additionalProperties: false },
);
/** A child of a product. */
export type ProductChild = Static<typeof ProductChild>;

/** A child of a product as sent: `childId` is required, a relation to nothing means nothing. */
export const ProductChildRequest = Type.Object({
  value: Maybe(Double()),
  childId: Uuid(),
  circular: Maybe(ProductChildCircularInformationRequest),
});
/** A child of a product as sent. */
export type ProductChildRequest = Static<typeof ProductChildRequest>;

/** A price of a product at a moment (manual import mode). */
export const ProductFinancialValue = datedPrice();
/** A price of a product at a moment. */
export type ProductFinancialValue = Static<typeof ProductFinancialValue>;

/** A price of a product as sent; only `value` is required (absent valueDate: now, currency: EUR, unit: mt). */
export const ProductFinancialValueRequest = datedPriceRequest();
/** A price of a product as sent. */
export type ProductFinancialValueRequest = Static<typeof ProductFinancialValueRequest>;
