import type { Generated } from 'kysely';
import type { ClassificationSource, MappingSource } from '../../shared/api';
import type { ImportedElement, PartKind } from '../imports/imported-element';

/**
 * Row types of the store's tables, as Kysely sees them. Column names are the wire names of the API where a column
 * holds a wire field, so queries, OData paths and responses line up without a mapping layer.
 * Timestamps are ISO 8601 text, JSON is text, booleans are 0/1 integers (see dialect.ts).
 */
export interface DatabaseSchema {
  server_settings: ServerSettingsTable;
  seed_versions: SeedVersionsTable;
  accounts: AccountsTable;
  account_databases: AccountDatabasesTable;
  users: UsersTable;
  tokens: TokensTable;
  user_rights: UserRightsTable;
  portfolios: PortfoliosTable;
  portfolio_files: PortfolioFilesTable;
  buildings: BuildingsTable;
  building_figures: BuildingFiguresTable;
  building_files: BuildingFilesTable;
  elements: ElementsTable;
  staged_elements: StagedElementsTable;
  deleted_elements: DeletedElementsTable;
  removed_edited_elements: RemovedEditedElementsTable;
  materials: MaterialsTable;
  material_matches: CatalogueMatchesTable & { materialId: string };
  material_financial_values: CatalogueFinancialValuesTable & { materialId: string };
  products: ProductsTable;
  product_matches: CatalogueMatchesTable & { productId: string };
  product_financial_values: CatalogueFinancialValuesTable & { productId: string };
  product_children: ProductChildrenTable;
  classification_methods: ClassificationMethodsTable;
  classification_codes: ClassificationCodesTable;
  jobs: JobsTable;
  import_turns: ImportTurnsTable;
  idempotency_keys: IdempotencyKeysTable;
}

/** Settings every process of one server shares (e.g. the secret that signs download addresses). */
export interface ServerSettingsTable {
  name: string;
  value: string;
}

/** Which version of each committed seed data set (platform materials, NL-SfB) the database holds. */
export interface SeedVersionsTable {
  dataset: string;
  version: string;
  appliedAt: string;
}

/** 0/1 stored for a boolean. */
export type Flag = 0 | 1;

/** An account: a subscriber, or an element database (VerifiedDatabase / Supplier). */
export interface AccountsTable {
  id: string;
  name: string;
  accountType: number;
  createdAt: string;
}

/** Element databases an account may use besides its own, in preference order. */
export interface AccountDatabasesTable {
  accountId: string;
  databaseAccountId: string;
  position: number;
}

/** A person of an account who can be given rights on portfolios and buildings. */
export interface UsersTable {
  id: string;
  accountId: string;
  name: string;
  email: string | null;
  createdAt: string;
}

/** Scope of a token or a user right. */
export type ScopeKind = 'account' | 'portfolio' | 'building';

/** An API token; only the SHA-256 of its key is kept. */
export interface TokensTable {
  id: string;
  accountId: string;
  name: string;
  keyHash: string;
  scopeKind: ScopeKind;
  scopeId: string | null;
  level: number;
  expiresAt: string | null;
  createdAt: string;
}

/** A user's permission level on a portfolio or a building. */
export interface UserRightsTable {
  scopeKind: 'portfolio' | 'building';
  scopeId: string;
  userId: string;
  level: number;
}

/** A portfolio (folder of buildings). */
export interface PortfoliosTable {
  id: string;
  accountId: string;
  name: string;
  logo: string | null;
  logoBlobKey: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A documentation file or passport of a portfolio. */
export interface PortfolioFilesTable {
  id: string;
  portfolioId: string;
  type: number;
  fileName: string;
  fileSize: number;
  status: number;
  statusMessage: string | null;
  lastModifiedDate: string;
  tags: string;
  blobKey: string | null;
  contentType: string | null;
  createdAt: string;
}

/** A building: the BuildingRequest fields plus what the server maintains. */
export interface BuildingsTable {
  id: string;
  accountId: string;
  portfolioId: string;
  name: string;
  cadastralDesignation: string | null;
  cadastralArea: number | null;
  parcelnumber: string | null;
  publicLawRestriction: string | null;
  completionDate: string | null;
  lastRenovationDate: string | null;
  addressStreet: string | null;
  addressHousenumber: string | null;
  addressHousenumberAddition: string | null;
  addressZipcode: string | null;
  addressCity: string | null;
  addressCountry: string | null;
  buildingUsage: string | null;
  grossSurfaceArea: number | null;
  energyLabel: string | null;
  energyPerformanceCoefficient: number | null;
  energyIndex: number | null;
  expectedLifespan: number | null;
  expectedLifespanStructure: number | null;
  expectedLifespanSkin: number | null;
  expectedLifespanServices: number | null;
  expectedLifespanSpacePlan: number | null;
  expectedLifespanStuff: number | null;
  breeamLabel: number | null;
  gprLabel: number | null;
  mpgLabel: number | null;
  leedLabel: string | null;
  wellScoreBuilding: number | null;
  wellScoreInterior: number | null;
  wellScoreCoreAndShell: number | null;
  classificationType: string | null;
  images: string;
  mpgLabelManual: number | null;
  mpgLabelIndicative: number | null;
  isDirty: Flag;
  hasDirtyElements: Flag;
  mostRecentBimInfo: string | null;
  geoLatitude: number | null;
  geoLongtitude: number | null;
  phaseType: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Figures of a building computed by its last recalculation (JSON of the wire objects). */
export interface BuildingFiguresTable {
  buildingId: string;
  circular: string | null;
  financialInputs: string | null;
  validation: string | null;
  computedAt: string;
}

/** A building file: source (IFC/sheet), information file or passport. */
export interface BuildingFilesTable {
  id: string;
  buildingId: string;
  type: number;
  fileName: string;
  fileSize: number;
  status: number;
  statusMessage: string | null;
  isActive: Flag;
  isDirty: Flag;
  lastModifiedDate: string;
  tags: string;
  preferredAccountIds: string;
  validation: string | null;
  elementProcessedCount: number;
  elementCount: number;
  blobKey: string | null;
  contentType: string | null;
  language: string | null;
  createdAt: string;
  /** JSON array: the reasons of the first rows the last import left out, one line each. */
  rejectedRows: string;
  /** How many rows the last import left out. */
  rejectedCount: number;
  /** JSON `ImportPartsFindings`: what the last import split (server/imports/README.md, "Materials"); null: nothing on record. */
  partFindings: string | null;
}

/** The importer's element as both element tables hold it: of its file, with its lookups as JSON text. */
type StoredImportedElement = Omit<ImportedElement, 'phaseLookup' | 'classificationLookup' | 'classificationHints' | 'materialHints' | 'part'> & {
  buildingFileId: string;
  phaseLookup: string;
  classificationLookup: string;
} & StoredElementPart;

/** `ImportedElement.part` in three columns, all null for an element that is no part of a split one. */
export interface StoredElementPart {
  /** The GlobalId of the element it is a part of. */
  partOf: string | null;
  partKind: PartKind | null;
  /** 1 when its share of the element was assumed. */
  partShareAssumed: Flag | null;
}

/** What refinement derives for an element (decisions §9): its mapping, phase, brand layer and classification. */
export interface RefinedElementColumns {
  mappingType: number | null;
  mappingId: string | null;
  phaseMatchId: string | null;
  phaseMatchName: string | null;
  brandLayerMatchId: string | null;
  brandLayerMatchName: string | null;
  classificationMatchId: string | null;
  classificationMatchName: string | null;
  classificationMatchCode: string | null;
  /** What refinement classified the element by; null when unclassified. */
  classificationSource: Exclude<ClassificationSource, 'none'> | null;
  /** What refinement mapped the element by; null when unmapped. */
  mappingSource: Exclude<MappingSource, 'none'> | null;
}

/** An element of a building file; `id` is the element's own mark, unique within its file. */
export interface ElementsTable extends StoredImportedElement, RefinedElementColumns {
  materialId: string | null;
  /** 1 when the element holds something a user set (`userFields`, or the element itself): a new version looks at it. */
  userEdited: Generated<Flag>;
  /**
   * The fields a user set through the API (`UserFields` of services/user-fields.ts as JSON), each with the model's value
   * when they set it; null when none. A new version of the source keeps them (decisions §3).
   */
  userFields: string | null;
  /** 1 when a user created the element through the API: a new version of the source that lacks it keeps it. */
  userCreated: Generated<Flag>;
  /** The importer's classification hints (`ClassificationHint[]` as JSON). */
  classificationHints: Generated<string>;
  /** The importer's material hints (`string[]` as JSON). */
  materialHints: Generated<string>;
}

/**
 * An element read by an import that has not finished yet; swapped into `elements` when the import completes. The
 * importer's element with its lookups and hints as JSON text, refined as it was read.
 */
export type StagedElementsTable = StoredImportedElement &
  RefinedElementColumns & {
    classificationHints: string;
    materialHints: string;
    /** The catalogue item the source named by id (a sheet's Material/Product id); the swap copies it into `elements`. */
    materialId: string | null;
  };

/** A model element a user deleted: it stays deleted on each new version of the source (decisions §3). */
export interface DeletedElementsTable {
  buildingFileId: string;
  id: string;
}

/** An element a user had edited that the last new version of its file's source no longer has (decisions §3). */
export interface RemovedEditedElementsTable {
  buildingFileId: string;
  id: string;
  name: string | null;
}

/** A material of an element database. Multilingual texts and the circular/financial blocks are JSON. */
export interface MaterialsTable {
  id: string;
  accountId: string;
  name: string;
  elementFamily: string | null;
  description: string;
  supplier: string | null;
  specificWeight: number | null;
  lifeTime: number | null;
  circular: string;
  financial: string;
  createdAt: string;
  updatedAt: string;
}

/** A match rule of a material or product, kept in the order the client gave. */
export interface CatalogueMatchesTable {
  position: number;
  value: string;
  matchType: number;
}

/** A dated price of a material or product. */
export interface CatalogueFinancialValuesTable {
  position: number;
  value: number;
  valueDate: string | null;
  currency: string | null;
  unit: number;
}

/** A product of an element database. */
export interface ProductsTable {
  id: string;
  accountId: string;
  name: string;
  type: number;
  description: string;
  supplier: string | null;
  productCode: string | null;
  circular: string;
  fixedDimensions: string;
  defaultDimensions: string;
  createdAt: string;
  updatedAt: string;
}

/** A child (material or product) contained in a product. */
export interface ProductChildrenTable {
  productId: string;
  position: number;
  childId: string;
  value: number;
  circular: string;
}

/** A classification method (system data). */
export interface ClassificationMethodsTable {
  id: string;
  name: string;
  classificationTypeId: string;
  classificationLevelTypeId: string;
}

/** A code of a classification method, with its parent code for the fallback walk. */
export interface ClassificationCodesTable {
  methodId: string;
  code: string;
  parentCode: string | null;
  name: string;
}

/** State of a job. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** Long work (processing, refinement, recalculation, passports) as a claimable row. */
export interface JobsTable {
  id: string;
  kind: string;
  subjectId: string;
  payload: string;
  state: JobState;
  attempts: number;
  runAfter: string;
  leaseUntil: string | null;
  workerId: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** When a portfolio's latest import job was claimed: imports take turns by portfolio (server/jobs/claims.ts). */
export interface ImportTurnsTable {
  portfolioId: string;
  lastClaimedAt: string;
}

/** Whether the first request with an idempotency key is still running, or its successful answer is kept. */
export type IdempotencyState = 'in-progress' | 'completed';

/** One `Idempotency-Key` of one token on one method and path (server/services/idempotency.ts). */
export interface IdempotencyKeysTable {
  /** SHA-256 of the scope: token, method, path and key. */
  id: string;
  tokenId: string;
  /** SHA-256 of the request: method, path with query, canonical JSON body. */
  fingerprint: string;
  state: IdempotencyState;
  /** The attempt that holds an in-progress record, and until when; null once completed. */
  leaseId: string | null;
  leaseUntil: string | null;
  responseStatus: number | null;
  /** JSON object of the answer's Location and Content-Type. */
  responseHeaders: string | null;
  /** The answer's body, sealed with a key derived from the caller's API key; null for an empty body. */
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
}
