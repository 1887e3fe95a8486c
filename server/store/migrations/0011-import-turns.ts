import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * When each portfolio's latest import job was claimed: the job claim takes imports round-robin by portfolio, the one
 * served longest ago first (server/jobs/claims.ts). Rows go with their portfolio.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  await db.schema
    .createTable('import_turns')
    .addColumn('portfolioId', text, (c) => c.primaryKey().references('portfolios.id').onDelete('cascade'))
    .addColumn('lastClaimedAt', text, (c) => c.notNull())
    .execute();
}
