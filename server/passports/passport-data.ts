/**
 * What a passport is made from, independent of the database: the caller (the passport job) reads the building, its
 * figures and its elements and hands them over in these shapes; `pdf.ts` and `xlsx.ts` only lay them out.
 */
import type {
  BuildingCircularInformation,
  BuildingFinancialInformation,
  BuildingResponse,
  BuildingValidation,
  NotCountedReason,
} from '../../shared/api';
import type { Counting } from '../../shared/counting';
import type { PassportLanguage } from '../../shared/api/routes';

/** The languages a passport is written in (decisions §11): defined once with the API contract. */
export { PASSPORT_LANGUAGES, type PassportLanguage } from '../../shared/api/routes';

/** An image embedded in a passport (a building photo, a portfolio logo); pdfkit reads PNG and JPEG. */
export interface PassportImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
}

/**
 * The identity fields of a building that a passport shows. A `BuildingResponse` satisfies it as it is. Dates are the
 * API's ISO 8601 strings.
 */
export type PassportBuildingIdentity = Pick<
  BuildingResponse,
  | 'name'
  | 'addressStreet'
  | 'addressHousenumber'
  | 'addressHousenumberAddition'
  | 'addressZipcode'
  | 'addressCity'
  | 'addressCountry'
  | 'cadastralDesignation'
  | 'cadastralArea'
  | 'parcelnumber'
  | 'buildingUsage'
  | 'grossSurfaceArea'
  | 'completionDate'
  | 'lastRenovationDate'
  | 'energyLabel'
  | 'energyPerformanceCoefficient'
  | 'energyIndex'
  | 'expectedLifespan'
  | 'expectedLifespanStructure'
  | 'expectedLifespanSkin'
  | 'expectedLifespanServices'
  | 'expectedLifespanSpacePlan'
  | 'expectedLifespanStuff'
  | 'breeamLabel'
  | 'gprLabel'
  | 'mpgLabel'
  | 'leedLabel'
>;

/** Mass and element count of one building level (brand layer); `id` is a `BuildingLevel` id, `label` its API label. */
export interface PassportLayer {
  id: string;
  label: string;
  /** Kilograms of the counted elements in this layer. */
  mass: number;
  elementCount: number;
}

/** Mass and current value of one material family (`elementFamily`: stone, metal, wood, plastic, glass, organic, unknown). */
export interface PassportFamily {
  family: string;
  /** Kilograms. */
  mass: number;
  /** Euros now (`currentValuePerMaterialFamily`), possibly negative. */
  value: number;
}

/** A name with the id it matched, as the element answer carries its phase and brand layer. */
export interface PassportMatch {
  id: string;
  name: string;
}

/** One element row of the Excel passport. Quantities are metres, m², m³ and kg; null when unknown. */
export interface PassportElementRow {
  id: string;
  name: string | null;
  /** IFC class, e.g. IfcWall. */
  elementClass: string | null;
  typeName: string | null;
  /** The material name the source file gave. */
  materialName: string | null;
  /** The name of the material or product the element is mapped to. */
  mappedName: string | null;
  classificationCode: string | null;
  /** `brandLayerMatch`: translated by its `BuildingLevel` id. */
  brandLayer: PassportMatch | null;
  /** `phaseMatch`: translated by its `Phase` id. */
  phase: PassportMatch | null;
  floor: string | null;
  volume: number | null;
  area: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
  weight: number | null;
  /** The mass the figures use (decisions §6), kg. */
  mass: number | null;
  /** Why the element does not count in the circularity index (shared/counting.ts); null: it counts. */
  notCounted: NotCountedReason | null;
}

/** Everything a building passport (PDF or Excel) shows. */
export interface BuildingPassportData {
  language: PassportLanguage;
  generatedAt: Date;
  building: PassportBuildingIdentity;
  image?: PassportImage | null;
  circular: BuildingCircularInformation;
  financial: BuildingFinancialInformation;
  validation: BuildingValidation;
  /** How many elements count in the circularity index and why the others do not, as the import reports say it. */
  counting: Counting;
  /** One entry per building level with elements, any order (shown in `BuildingLevel` order). */
  layers: PassportLayer[];
  families: PassportFamily[];
  /**
   * The element rows, read once and only by the Excel passport, which writes them row by row: a database cursor can
   * stand behind it. The PDF ignores it.
   */
  elements: AsyncIterable<PassportElementRow> | Iterable<PassportElementRow>;
}

/** One building of a portfolio passport. */
export interface PortfolioPassportBuilding {
  name: string;
  city: string | null;
  /** m². */
  grossSurfaceArea: number | null;
  /** kg of the counted elements; null when unknown. */
  mass: number | null;
  /** Euros (`currentValue`); null when not known. */
  currentValue: number | null;
  circular: BuildingCircularInformation;
  validation: BuildingValidation;
}

/** Everything a portfolio passport shows. */
export interface PortfolioPassportData {
  language: PassportLanguage;
  generatedAt: Date;
  portfolio: { name: string; logo?: PassportImage | null };
  buildings: PortfolioPassportBuilding[];
}
