import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/** The column types of the store's dialect. */
interface ColumnTypes {
  text: StoreDialect['textType'];
  double: StoreDialect['doubleType'];
  bigint: StoreDialect['bigintType'];
}

/** The first schema: server settings, accounts and tokens, portfolios, buildings, files, elements, catalogues, system data, jobs. */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const types: ColumnTypes = { text: dialect.textType, double: dialect.doubleType, bigint: dialect.bigintType };
  await createAccountTables(db, types);
  await createPortfolioTables(db, types);
  await createFileTables(db, types);
  await createCatalogueTables(db, types);
  await createSystemTables(db, types);
}

/** Server settings, accounts and their databases, users, tokens and user rights. */
async function createAccountTables(db: Kysely<unknown>, { text }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('server_settings')
    .addColumn('name', text, (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('accountType', 'integer', (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_databases')
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('databaseAccountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_databases_pk', ['accountId', 'databaseAccountId'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('email', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('keyHash', text, (c) => c.notNull().unique())
    .addColumn('scopeKind', text, (c) => c.notNull())
    .addColumn('scopeId', text)
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('expiresAt', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tokens_scope').on('tokens').columns(['scopeKind', 'scopeId']).execute();

  await db.schema
    .createTable('user_rights')
    .addColumn('scopeKind', text, (c) => c.notNull())
    .addColumn('scopeId', text, (c) => c.notNull())
    .addColumn('userId', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_rights_pk', ['scopeKind', 'scopeId', 'userId'])
    .execute();
}

/** Portfolios with their files, buildings and their figures. */
async function createPortfolioTables(db: Kysely<unknown>, { text, double, bigint }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('portfolios')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('logo', text)
    .addColumn('logoBlobKey', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portfolios_account').on('portfolios').column('accountId').execute();

  await db.schema
    .createTable('portfolio_files')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('portfolioId', text, (c) => c.notNull().references('portfolios.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('fileName', text, (c) => c.notNull())
    .addColumn('fileSize', bigint, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('statusMessage', text)
    .addColumn('lastModifiedDate', text, (c) => c.notNull())
    .addColumn('tags', text, (c) => c.notNull())
    .addColumn('blobKey', text)
    .addColumn('contentType', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portfolio_files_portfolio').on('portfolio_files').column('portfolioId').execute();

  let buildings = db.schema
    .createTable('buildings')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('portfolioId', text, (c) => c.notNull().references('portfolios.id'))
    .addColumn('name', text, (c) => c.notNull());
  for (const column of [
    'cadastralDesignation', 'parcelnumber', 'publicLawRestriction', 'completionDate', 'lastRenovationDate',
    'addressStreet', 'addressHousenumber', 'addressHousenumberAddition', 'addressZipcode', 'addressCity',
    'addressCountry', 'buildingUsage', 'energyLabel', 'leedLabel', 'classificationType', 'mostRecentBimInfo', 'phaseType',
  ]) {
    buildings = buildings.addColumn(column, text);
  }
  for (const column of [
    'cadastralArea', 'expectedLifespan', 'expectedLifespanStructure', 'expectedLifespanSkin', 'expectedLifespanServices',
    'expectedLifespanSpacePlan', 'expectedLifespanStuff', 'breeamLabel', 'wellScoreBuilding', 'wellScoreInterior',
    'wellScoreCoreAndShell',
  ]) {
    buildings = buildings.addColumn(column, 'integer');
  }
  for (const column of [
    'grossSurfaceArea', 'energyPerformanceCoefficient', 'energyIndex', 'gprLabel', 'mpgLabel', 'mpgLabelManual',
    'mpgLabelIndicative', 'geoLatitude', 'geoLongtitude',
  ]) {
    buildings = buildings.addColumn(column, double);
  }
  await buildings
    .addColumn('images', text, (c) => c.notNull())
    .addColumn('isDirty', 'integer', (c) => c.notNull())
    .addColumn('hasDirtyElements', 'integer', (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('buildings_portfolio').on('buildings').column('portfolioId').execute();
  await db.schema.createIndex('buildings_account').on('buildings').column('accountId').execute();

  await db.schema
    .createTable('building_figures')
    .addColumn('buildingId', text, (c) => c.primaryKey().references('buildings.id').onDelete('cascade'))
    .addColumn('circular', text)
    .addColumn('financialInputs', text)
    .addColumn('validation', text)
    .addColumn('computedAt', text, (c) => c.notNull())
    .execute();
}

/** Building files and their elements. */
async function createFileTables(db: Kysely<unknown>, { text, double, bigint }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('building_files')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('buildingId', text, (c) => c.notNull().references('buildings.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('fileName', text, (c) => c.notNull())
    .addColumn('fileSize', bigint, (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('statusMessage', text)
    .addColumn('isActive', 'integer', (c) => c.notNull())
    .addColumn('isDirty', 'integer', (c) => c.notNull())
    .addColumn('lastModifiedDate', text, (c) => c.notNull())
    .addColumn('tags', text, (c) => c.notNull())
    .addColumn('preferredAccountIds', text, (c) => c.notNull())
    .addColumn('validation', text)
    .addColumn('elementProcessedCount', 'integer', (c) => c.notNull())
    .addColumn('elementCount', 'integer', (c) => c.notNull())
    .addColumn('blobKey', text)
    .addColumn('contentType', text)
    .addColumn('language', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('building_files_building').on('building_files').column('buildingId').execute();

  let elements = db.schema
    .createTable('elements')
    .addColumn('buildingFileId', text, (c) => c.notNull().references('building_files.id').onDelete('cascade'))
    .addColumn('id', text, (c) => c.notNull());
  for (const column of [
    'name', 'materialName', 'materialId', 'typeName', 'elementClass', 'mappingId', 'phaseMatchId', 'phaseMatchName',
    'brandLayerMatchId', 'brandLayerMatchName', 'classificationMatchId', 'classificationMatchName',
    'classificationMatchCode', 'floor',
  ]) {
    elements = elements.addColumn(column, text);
  }
  for (const column of ['volume', 'area', 'height', 'width', 'length', 'weight']) {
    elements = elements.addColumn(column, double);
  }
  await elements
    .addColumn('mappingType', 'integer')
    .addColumn('phaseLookup', text, (c) => c.notNull())
    .addColumn('classificationLookup', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('elements_pk', ['buildingFileId', 'id'])
    .execute();
}

/** Materials and products with their lists and children. */
async function createCatalogueTables(db: Kysely<unknown>, { text, double }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('materials')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('elementFamily', text)
    .addColumn('description', text, (c) => c.notNull())
    .addColumn('supplier', text)
    .addColumn('specificWeight', double)
    .addColumn('lifeTime', 'integer')
    .addColumn('circular', text, (c) => c.notNull())
    .addColumn('financial', text, (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('materials_account').on('materials').column('accountId').execute();

  await db.schema
    .createTable('products')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('accountId', text, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull())
    .addColumn('supplier', text)
    .addColumn('productCode', text)
    .addColumn('circular', text, (c) => c.notNull())
    .addColumn('fixedDimensions', text, (c) => c.notNull())
    .addColumn('defaultDimensions', text, (c) => c.notNull())
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_account').on('products').column('accountId').execute();

  for (const [table, owner, ownerTable] of [
    ['material_matches', 'materialId', 'materials'],
    ['product_matches', 'productId', 'products'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(owner, text, (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('value', text, (c) => c.notNull())
      .addColumn('matchType', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'position'])
      .execute();
  }
  for (const [table, owner, ownerTable] of [
    ['material_financial_values', 'materialId', 'materials'],
    ['product_financial_values', 'productId', 'products'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(owner, text, (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('value', double, (c) => c.notNull())
      .addColumn('valueDate', text)
      .addColumn('currency', text)
      .addColumn('unit', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'position'])
      .execute();
  }

  await db.schema
    .createTable('product_children')
    .addColumn('productId', text, (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('childId', text, (c) => c.notNull())
    .addColumn('value', double, (c) => c.notNull())
    .addColumn('circular', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('product_children_pk', ['productId', 'position'])
    .execute();
}

/** Classification methods and codes, and the job queue. */
async function createSystemTables(db: Kysely<unknown>, { text }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('classification_methods')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('classificationTypeId', text, (c) => c.notNull())
    .addColumn('classificationLevelTypeId', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('classification_codes')
    .addColumn('methodId', text, (c) => c.notNull().references('classification_methods.id').onDelete('cascade'))
    .addColumn('code', text, (c) => c.notNull())
    .addColumn('parentCode', text)
    .addColumn('name', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('classification_codes_pk', ['methodId', 'code'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('subjectId', text, (c) => c.notNull())
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('runAfter', text, (c) => c.notNull())
    .addColumn('leaseUntil', text)
    .addColumn('workerId', text)
    .addColumn('lastError', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('updatedAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['state', 'runAfter']).execute();
  await db.schema.createIndex('jobs_subject').on('jobs').columns(['subjectId', 'state']).execute();
}
