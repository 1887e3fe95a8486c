/**
 * The enumerations of the Building Circularity Data API and the fixed identifiers that go with them.
 *
 * Enums travel as integers; requests also accept the enum's name, case-insensitively (decisions §1). The names are the
 * platform's own labels (`../reference/madaster/madaster-enums-2018.md`, the v2.3 inline descriptions), so a client that
 * sends names to the platform sends the same names to us.
 */
import { Type, type TUnsafe } from 'typebox';

/** An enum as a frozen map of name → integer value. */
export type EnumObject = Readonly<Record<string, number>>;
/** The integer values of an enum. */
export type EnumValue<E extends EnumObject> = E[keyof E];
/** The names of an enum. */
export type EnumName<E extends EnumObject> = keyof E & string;
/**
 * What a request may carry for an enum: the integer or the name in any letter case. `string & {}` keeps editor
 * completion for the canonical names while admitting other casings.
 */
export type EnumInput<E extends EnumObject> = EnumValue<E> | EnumName<E> | (string & {});

// --- the enums of the spec and of decisions §2 ----------------------------------------------------------------------

/** Kind of account (spec §2.1). */
export const AccountType = { VerifiedDatabase: 1, Supplier: 2, General: 3, Private: 4 } as const;
/** An AccountType value. */
export type AccountType = EnumValue<typeof AccountType>;

/** Status of a building file; the lifecycle is decisions §3. */
export const BuildingFileStatuses = {
  Error: 0,
  Uploaded: 1,
  Refined: 2,
  Mapped: 3,
  Refining: 4,
  Mapping: 5,
  Creating: 6,
  Importing: 7,
  Imported: 8,
  UnknownImportFile: 99,
} as const;
/** A BuildingFileStatuses value. */
export type BuildingFileStatuses = EnumValue<typeof BuildingFileStatuses>;

/** Type of a building file as stored: the two request types plus the generated passports. */
export const BuildingFileType = { Source: 0, Information: 1, PassportPdf: 1000, PassportExcel: 1001 } as const;
/** A BuildingFileType value. */
export type BuildingFileType = EnumValue<typeof BuildingFileType>;

/** Type of a building file a client may create (passports are only generated). */
export const BuildingRequestFileType = { Source: 0, Information: 1 } as const;
/** A BuildingRequestFileType value. */
export type BuildingRequestFileType = EnumValue<typeof BuildingRequestFileType>;

/** Status of a portfolio file. */
export const PortfolioFileStatuses = { Uploaded: 1, Creating: 6 } as const;
/** A PortfolioFileStatuses value. */
export type PortfolioFileStatuses = EnumValue<typeof PortfolioFileStatuses>;

/** Type of a portfolio file. */
export const PortfolioFileType = { Information: 1, PassportPdf: 1000 } as const;
/** A PortfolioFileType value. */
export type PortfolioFileType = EnumValue<typeof PortfolioFileType>;

/** Permission level of a user or token; what each level may do is decisions §5. */
export const PermissionLevel = { None: 0, Read: 50, Write: 70, Administrator: 90 } as const;
/** A PermissionLevel value. */
export type PermissionLevel = EnumValue<typeof PermissionLevel>;

/** Whether a user right belongs to a person or to an API token. */
export const UserType = { User: 0, Token: 1 } as const;
/** A UserType value. */
export type UserType = EnumValue<typeof UserType>;

/** What an element is mapped to (`mapping.type`): a material or one of the product kinds. */
export const ElementType = {
  Material: 10,
  VolumeProduct: 20,
  QuantityProduct: 30,
  AreaProduct: 40,
  LengthProduct: 50,
} as const;
/** An ElementType value. */
export type ElementType = EnumValue<typeof ElementType>;

/** How a product's size scales its children. */
export const ProductType = { VolumeProduct: 20, QuantityProduct: 30, AreaProduct: 40, LengthProduct: 50 } as const;
/** A ProductType value. */
export type ProductType = EnumValue<typeof ProductType>;

/** Where a material's prices come from. */
export const FinancialImportType = { None: 0, Manual: 10, Automatic: 20, AutomaticIndex: 30 } as const;
/** A FinancialImportType value. */
export type FinancialImportType = EnumValue<typeof FinancialImportType>;

/**
 * Unit a financial value is priced in: mt = metric tonne, kg, m3, lb, toz = troy ounce, index (a price index, not a
 * mass). The platform's abbreviations are the names.
 */
export const PriceUnit = { mt: 0, kg: 1, m3: 2, lb: 3, toz: 4, index: 5 } as const;
/** A PriceUnit value. */
export type PriceUnit = EnumValue<typeof PriceUnit>;

/** Which dimension of a product a ProductDimension gives. */
export const ElementDimensionType = {
  Length: 0,
  Width: 1,
  Height: 2,
  Depth: 3,
  Diameter: 4,
  Radius: 5,
  Thickness: 6,
  Area: 7,
  Volume: 8,
} as const;
/** An ElementDimensionType value. */
export type ElementDimensionType = EnumValue<typeof ElementDimensionType>;

/** How a material or product match compares its value with an element's names or product code. */
export const MatchType = { Contains: 10, Equals: 11, StartWith: 12, EndsWith: 13, Ean: 20 } as const;
/** A MatchType value. */
export type MatchType = EnumValue<typeof MatchType>;

// --- schemas ----------------------------------------------------------------------------------------------------------

function legend(enumObject: EnumObject): string {
  return Object.entries(enumObject)
    .map(([name, value]) => `${value} = ${name}`)
    .join(', ');
}

/** `Mapped` → `[Mm][Aa][Pp][Pp][Ee][Dd]`: JSON Schema patterns have no case-insensitive flag. */
function caseInsensitiveNamePattern(names: readonly string[]): string {
  const alternatives = names.map((name) =>
    [...name]
      .map((character) => {
        const lower = character.toLowerCase();
        const upper = character.toUpperCase();
        return lower === upper ? character.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&') : `[${upper}${lower}]`;
      })
      .join(''),
  );
  return `^(?:${alternatives.join('|')})$`;
}

/** The response schema of an enum: an integer restricted to its values. */
export function enumResponseSchema<E extends EnumObject>(enumObject: E): TUnsafe<EnumValue<E>> {
  return Type.Unsafe<EnumValue<E>>({
    type: 'integer',
    enum: Object.values(enumObject),
    description: legend(enumObject),
  });
}

/** The request schema of an enum: one of its integers, or one of its names in any letter case. */
export function enumRequestSchema<E extends EnumObject>(enumObject: E): TUnsafe<EnumInput<E>> {
  return Type.Unsafe<EnumInput<E>>({
    anyOf: [
      { type: 'integer', enum: Object.values(enumObject) },
      { type: 'string', pattern: caseInsensitiveNamePattern(Object.keys(enumObject)) },
    ],
    description: `${legend(enumObject)}; the name is accepted too, in any letter case`,
  });
}

/** Response schema of AccountType. */
export const AccountTypeSchema = enumResponseSchema(AccountType);
/** Request schema of AccountType. */
export const AccountTypeInputSchema = enumRequestSchema(AccountType);
/** Response schema of BuildingFileStatuses. */
export const BuildingFileStatusesSchema = enumResponseSchema(BuildingFileStatuses);
/** Request schema of BuildingFileStatuses. */
export const BuildingFileStatusesInputSchema = enumRequestSchema(BuildingFileStatuses);
/** Response schema of BuildingFileType. */
export const BuildingFileTypeSchema = enumResponseSchema(BuildingFileType);
/** Request schema of BuildingFileType. */
export const BuildingFileTypeInputSchema = enumRequestSchema(BuildingFileType);
/** Response schema of BuildingRequestFileType. */
export const BuildingRequestFileTypeSchema = enumResponseSchema(BuildingRequestFileType);
/** Request schema of BuildingRequestFileType. */
export const BuildingRequestFileTypeInputSchema = enumRequestSchema(BuildingRequestFileType);
/** Response schema of PortfolioFileStatuses. */
export const PortfolioFileStatusesSchema = enumResponseSchema(PortfolioFileStatuses);
/** Request schema of PortfolioFileStatuses. */
export const PortfolioFileStatusesInputSchema = enumRequestSchema(PortfolioFileStatuses);
/** Response schema of PortfolioFileType. */
export const PortfolioFileTypeSchema = enumResponseSchema(PortfolioFileType);
/** Request schema of PortfolioFileType. */
export const PortfolioFileTypeInputSchema = enumRequestSchema(PortfolioFileType);
/** Response schema of PermissionLevel. */
export const PermissionLevelSchema = enumResponseSchema(PermissionLevel);
/** Request schema of PermissionLevel. */
export const PermissionLevelInputSchema = enumRequestSchema(PermissionLevel);
/** Response schema of UserType. */
export const UserTypeSchema = enumResponseSchema(UserType);
/** Request schema of UserType. */
export const UserTypeInputSchema = enumRequestSchema(UserType);
/** Response schema of ElementType. */
export const ElementTypeSchema = enumResponseSchema(ElementType);
/** Request schema of ElementType. */
export const ElementTypeInputSchema = enumRequestSchema(ElementType);
/** Response schema of ProductType. */
export const ProductTypeSchema = enumResponseSchema(ProductType);
/** Request schema of ProductType. */
export const ProductTypeInputSchema = enumRequestSchema(ProductType);
/** Response schema of FinancialImportType. */
export const FinancialImportTypeSchema = enumResponseSchema(FinancialImportType);
/** Request schema of FinancialImportType. */
export const FinancialImportTypeInputSchema = enumRequestSchema(FinancialImportType);
/** Response schema of PriceUnit. */
export const PriceUnitSchema = enumResponseSchema(PriceUnit);
/** Request schema of PriceUnit. */
export const PriceUnitInputSchema = enumRequestSchema(PriceUnit);
/** Response schema of ElementDimensionType. */
export const ElementDimensionTypeSchema = enumResponseSchema(ElementDimensionType);
/** Request schema of ElementDimensionType. */
export const ElementDimensionTypeInputSchema = enumRequestSchema(ElementDimensionType);
/** Response schema of MatchType. */
export const MatchTypeSchema = enumResponseSchema(MatchType);
/** Request schema of MatchType. */
export const MatchTypeInputSchema = enumRequestSchema(MatchType);

// --- normalisation ----------------------------------------------------------------------------------------------------

const lowerCaseNameIndexes = new WeakMap<EnumObject, ReadonlyMap<string, number>>();

function lowerCaseNameIndex(enumObject: EnumObject): ReadonlyMap<string, number> {
  let index = lowerCaseNameIndexes.get(enumObject);
  if (index === undefined) {
    index = new Map(Object.entries(enumObject).map(([name, value]) => [name.toLowerCase(), value]));
    lowerCaseNameIndexes.set(enumObject, index);
  }
  return index;
}

/**
 * The integer an accepted enum input stands for (`'mapped'` → 3, `'MAPPED'` → 3, `3` → 3), or undefined for input the
 * request schema rejects (an unknown number or name), so the caller can answer 400 naming its own field.
 */
export function enumValue<E extends EnumObject>(enumObject: E, input: number | string): EnumValue<E> | undefined {
  if (typeof input === 'number') {
    return Object.values(enumObject).includes(input) ? (input as EnumValue<E>) : undefined;
  }
  return lowerCaseNameIndex(enumObject).get(input.toLowerCase()) as EnumValue<E> | undefined;
}

// --- fixed identifiers ------------------------------------------------------------------------------------------------

/**
 * The building levels (brand layers) with the fixed ids and labels of the v2.3 financial example (decisions §2), in the
 * order `ncwValuePerBuildingLevel` lists them.
 */
export const BuildingLevel = {
  Site: { id: '26a9ccae-ca9d-4cf0-9683-503321791978', label: 'Site' },
  Structure: { id: '9804b68f-25b5-4224-a408-1eca54aaa5bc', label: 'Structure' },
  Skin: { id: 'b3f780d4-3a36-4dce-a8d0-e98557f73713', label: 'Skin' },
  Services: { id: 'e8cf6e3d-35e4-4c61-8d72-fa417b0e9328', label: 'Services' },
  SpacePlan: { id: 'f70048be-590e-4e5a-8a1f-09763d26ec87', label: 'Space plan' },
  Stuff: { id: '82c1967b-1f20-4c1f-8fe2-685a23ab01be', label: 'Stuff' },
  Unknown: { id: 'e2f286ba-6c71-425e-8d99-b9a00895be95', label: 'Unknown' },
} as const;
/** A building level's key in BuildingLevel. */
export type BuildingLevelName = keyof typeof BuildingLevel;
/** A building level's id. */
export type BuildingLevelId = (typeof BuildingLevel)[BuildingLevelName]['id'];

/**
 * The building process phases an element can match (`phaseMatch`, decisions §9). The platform publishes no ids for
 * them; these were generated once by us and must never change, because clients store them.
 */
export const Phase = {
  Demolition: { id: '96b357fd-7693-4306-ad2e-14a985502d95', name: 'Demolition' },
  New: { id: 'ff9ff42a-3742-4a8f-88a4-0ea54a7fe4f4', name: 'New' },
  Existing: { id: '83e757b3-8233-4eff-a0a2-7417507819cb', name: 'Existing' },
} as const;
/** A phase's key in Phase. */
export type PhaseName = keyof typeof Phase;
/** A phase's id. */
export type PhaseId = (typeof Phase)[PhaseName]['id'];

/** Id of the NL-SfB classification method: the only `classificationType` v2.3 accepts (spec §2.2). */
export const NL_SFB_CLASSIFICATION_METHOD_ID = 'fc6b8c6b-acb6-4c8a-a18b-fafee57964f1';

/** Marks the unreachable default of an exhaustive switch; a new union member then fails to compile. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
