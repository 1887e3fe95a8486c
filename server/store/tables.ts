import type { AccountDatabasesTable, AccountsTable, TokensTable, UserRightsTable, UsersTable } from './schema/accounts';
import type {
  BuildingFiguresTable,
  BuildingFilesTable,
  BuildingsTable,
  PortfolioFilesTable,
  PortfoliosTable,
} from './schema/buildings';
import type {
  DeletedElementsTable,
  ElementsTable,
  RemovedEditedElementsTable,
  StagedElementsTable,
} from './schema/elements';
import type {
  CatalogueFinancialValuesTable,
  CatalogueMatchesTable,
  ClassificationCodesTable,
  ClassificationMethodsTable,
  MaterialsTable,
  ProductChildrenTable,
  ProductsTable,
} from './schema/catalogue';
import type {
  IdempotencyKeysTable,
  ImportTurnsTable,
  JobsTable,
  SeedVersionsTable,
  ServerSettingsTable,
} from './schema/bookkeeping';

export type * from './schema/flag';
export type * from './schema/accounts';
export type * from './schema/buildings';
export type * from './schema/elements';
export type * from './schema/catalogue';
export type * from './schema/bookkeeping';

/**
 * Row types of the store's tables, as Kysely sees them. Column names are the wire names of the API where a column
 * holds a wire field, so queries, OData paths and responses line up without a mapping layer.
 * Timestamps are ISO 8601 text, JSON is text, booleans are 0/1 integers (see dialect.ts). The row types are written
 * by group in `schema/` (accounts, portfolios and buildings, elements, the catalogue, the server's bookkeeping) and
 * exported from here, the one module queries and services import them from.
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
