import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * Records of the `Idempotency-Key` extension. The primary key is a hash of the key's scope (token, method, path, key),
 * so concurrent requests with one key meet on the same row and only one insert wins. Records go with their token.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('tokenId', text, (c) => c.notNull().references('tokens.id').onDelete('cascade'))
    .addColumn('fingerprint', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('leaseId', text)
    .addColumn('leaseUntil', text)
    .addColumn('responseStatus', 'integer')
    .addColumn('responseHeaders', text)
    .addColumn('responseBody', text)
    .addColumn('createdAt', text, (c) => c.notNull())
    .addColumn('expiresAt', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotency_keys_token').on('idempotency_keys').column('tokenId').execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expiresAt').execute();
}
