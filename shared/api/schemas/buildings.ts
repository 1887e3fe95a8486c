/** Building schemas (spec §2.2–§2.4, §2.6). */
import { Type, type Static, type TSchema } from 'typebox';
import { NL_SFB_CLASSIFICATION_METHOD_ID, PermissionLevelInputSchema, PermissionLevelSchema, UserTypeSchema } from '../enums';
import { DateTime, Double, Int32, Maybe, Nullable, Uuid } from '../schema-kit';

/**
 * The fields of a building request. Only `portfolioId` and `name` are required: a building belongs to a portfolio and
 * is shown by its name; everything else may be absent or null (decisions §1).
 */
function buildingRequest<ClassificationType extends TSchema>(classificationType: ClassificationType) {
  return Type.Object({
    portfolioId: Uuid({ description: 'The owning portfolio.' }),
    name: Type.String({ pattern: '\\S', description: 'Not blank.' }),
    cadastralDesignation: Maybe(Type.String()),
    cadastralArea: Maybe(Int32({ description: 'Square meters.' })),
    parcelnumber: Maybe(Type.String()),
    publicLawRestriction: Maybe(Type.String()),
    completionDate: Maybe(DateTime()),
    lastRenovationDate: Maybe(DateTime()),
    addressStreet: Maybe(Type.String()),
    addressHousenumber: Maybe(Type.String()),
    addressHousenumberAddition: Maybe(Type.String()),
    addressZipcode: Maybe(Type.String()),
    addressCity: Maybe(Type.String()),
    addressCountry: Maybe(Type.String({ description: 'Identifier of the country.' })),
    buildingUsage: Maybe(Type.String({ description: 'Current designation.' })),
    grossSurfaceArea: Maybe(Double({ description: 'Square meters.' })),
    energyLabel: Maybe(Type.String({ description: 'E.g. F, B, A++.' })),
    energyPerformanceCoefficient: Maybe(Double()),
    energyIndex: Maybe(Double()),
    expectedLifespan: Maybe(Int32({ description: 'Years, whole building.' })),
    expectedLifespanStructure: Maybe(Int32({ description: 'Years.' })),
    expectedLifespanSkin: Maybe(Int32({ description: 'Years.' })),
    expectedLifespanServices: Maybe(Int32({ description: 'Years.' })),
    expectedLifespanSpacePlan: Maybe(Int32({ description: 'Years.' })),
    expectedLifespanStuff: Maybe(Int32({ description: 'Years.' })),
    breeamLabel: Maybe(Int32()),
    gprLabel: Maybe(Double()),
    mpgLabel: Maybe(Double()),
    leedLabel: Maybe(Type.String()),
    wellScoreBuilding: Maybe(Int32()),
    wellScoreInterior: Maybe(Int32()),
    wellScoreCoreAndShell: Maybe(Int32()),
    classificationType,
  });
}

/** A building as sent on create and replace (v2.3: `classificationType` can only be NL-SfB, spec §2.2). */
export const BuildingRequest = buildingRequest(
  Maybe(
    Type.Unsafe<typeof NL_SFB_CLASSIFICATION_METHOD_ID>({
      type: 'string',
      format: 'uuid',
      enum: [NL_SFB_CLASSIFICATION_METHOD_ID],
      description: 'The only supported value is the NL-SfB method; absent or null means NL-SfB.',
    }),
  ),
);
/** A building as sent on create and replace. */
export type BuildingRequest = Static<typeof BuildingRequest>;

/** A building as sent to v2.1, whose `classificationType` may be any method of /system/classificationmethods (decisions §12). */
export const BuildingRequestV21 = buildingRequest(
  Maybe(Uuid({ description: 'A classification method id; absent or null means NL-SfB.' })),
);
/** A building as sent to v2.1. */
export type BuildingRequestV21 = Static<typeof BuildingRequestV21>;

/** A building as answered. Unknown descriptive fields are null; the order is the platform's. */
export const BuildingResponse = Type.Object(
  {
    portfolioId: Uuid(),
    name: Type.String(),
    images: Type.Array(Type.String(), { description: 'File names of the building images.' }),
    cadastralDesignation: Nullable(Type.String()),
    cadastralArea: Nullable(Int32()),
    parcelnumber: Nullable(Type.String()),
    publicLawRestriction: Nullable(Type.String()),
    completionDate: Nullable(DateTime()),
    lastRenovationDate: Nullable(DateTime()),
    addressStreet: Nullable(Type.String()),
    addressHousenumber: Nullable(Type.String()),
    addressHousenumberAddition: Nullable(Type.String()),
    addressZipcode: Nullable(Type.String()),
    addressCity: Nullable(Type.String()),
    addressCountry: Nullable(Type.String()),
    buildingUsage: Nullable(Type.String()),
    grossSurfaceArea: Nullable(Double()),
    energyLabel: Nullable(Type.String()),
    energyPerformanceCoefficient: Nullable(Double()),
    energyIndex: Nullable(Double()),
    expectedLifespan: Nullable(Int32()),
    expectedLifespanStructure: Nullable(Int32()),
    expectedLifespanSkin: Nullable(Int32()),
    expectedLifespanServices: Nullable(Int32()),
    expectedLifespanSpacePlan: Nullable(Int32()),
    expectedLifespanStuff: Nullable(Int32()),
    breeamLabel: Nullable(Int32()),
    gprLabel: Nullable(Double()),
    mpgLabel: Nullable(Double()),
    mpgLabelManual: Nullable(Double({ description: 'Manual MPG score.' })),
    mpgLabelIndicative: Nullable(Double({ description: 'Indicative MPG score.' })),
    leedLabel: Nullable(Type.String()),
    wellScoreBuilding: Nullable(Int32()),
    wellScoreInterior: Nullable(Int32()),
    wellScoreCoreAndShell: Nullable(Int32()),
    isDirty: Type.Boolean({ description: 'Figures are being recalculated.' }),
    hasDirtyElements: Type.Boolean({ description: 'Some element changed since the last calculation.' }),
    mostRecentBimInfo: Nullable(DateTime({ description: 'Time of the most recent BIM information change.' })),
    geoLatitude: Nullable(Double()),
    geoLongtitude: Nullable(Double({ description: 'Spelled as the platform spells it.' })),
    phaseType: Nullable(Uuid()),
    classificationType: Uuid(),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** A building as answered. */
export type BuildingResponse = Static<typeof BuildingResponse>;

/**
 * The circularity figures of a building (decisions §6). Null when nothing counts yet: the phases and scores without
 * counted elements, the corrections without any element. `madasterCiScore` is the spec's `platformCiScore`, under the
 * platform's wire name (decisions §1).
 */
export const BuildingCircularInformation = Type.Object(
  {
    circularityConstructionPhase: Nullable(Double({ description: 'Use of non-virgin material in construction.' })),
    circularityUsagePhase: Nullable(Double({ description: 'Utility of the building.' })),
    circularityEndOfLifePhase: Nullable(Double({ description: 'Recoverable share at end of life.' })),
    ciScoreBuilding: Nullable(Double({ description: 'Combined CI score from the phases.' })),
    correctionUnknownMaterials: Nullable(Double({ description: 'Share of elements with a known material.' })),
    correctionUnknownBrandLayer: Nullable(Double({ description: 'Share of elements with a known brand layer.' })),
    madasterCiScore: Nullable(Double({ description: 'Final CI score after both corrections.' })),
  },
  { additionalProperties: false },
);
/** The circularity figures of a building. */
export type BuildingCircularInformation = Static<typeof BuildingCircularInformation>;

/** The net value of one building level (brand layer). */
export const BuildingFinancialInformationPerBuildingLevel = Type.Object(
  {
    id: Uuid({ description: 'A BuildingLevel id.' }),
    label: Type.String(),
    value: Double(),
  },
  { additionalProperties: false },
);
/** The net value of one building level. */
export type BuildingFinancialInformationPerBuildingLevel = Static<typeof BuildingFinancialInformationPerBuildingLevel>;

/** The financial figures of a building (decisions §7); always numbers, 0 when empty, possibly negative. */
export const BuildingFinancialInformation = Type.Object(
  {
    currentValue: Double({ description: 'Value of all material families now.' }),
    currentValuePerMaterialFamily: Type.Unsafe<Record<string, number>>({
      type: 'object',
      additionalProperties: { type: 'number' },
      description: 'Material family name (stone, glass, wood, plastic, organic, metal, …) → current value.',
    }),
    ncwValue: Double({ description: 'Net value over all building levels, with rates and indexes applied.' }),
    ncwValuePerBuildingLevel: Type.Array(BuildingFinancialInformationPerBuildingLevel, {
      description: 'All seven building levels, always.',
    }),
  },
  { additionalProperties: false },
);
/** The financial figures of a building. */
export type BuildingFinancialInformation = Static<typeof BuildingFinancialInformation>;

/** The level to give a user or token; level 0 removes the right, those not listed keep theirs (decisions §5). */
export const UserRightRequest = Type.Object({
  userId: Uuid({ description: 'A user id, or a token id.' }),
  level: PermissionLevelInputSchema,
});
/** The level to give a user or token. */
export type UserRightRequest = Static<typeof UserRightRequest>;

/** The right of one user or token on a building or portfolio. */
export const UserRightResponse = Type.Object(
  {
    userId: Uuid({ description: 'The user id, or the token id.' }),
    name: Nullable(Type.String({ description: 'The user name, or the token name; null while unknown (an invite).' })),
    level: PermissionLevelSchema,
    userType: UserTypeSchema,
    isInvite: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** The right of one user or token. */
export type UserRightResponse = Static<typeof UserRightResponse>;
