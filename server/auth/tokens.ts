import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, ScopeKind } from '../store/tables';
import { generateApiKey, hashApiKey } from './keys';
import type { Principal } from './principal';
import { compiledQuery } from '../store/compiled-query';

/** What a caller asks for when creating a token. */
export interface NewToken {
  accountId: string;
  name: string;
  scopeKind: ScopeKind;
  scopeId: string | null;
  level: number;
  expiresAt: string | null;
}

/** A created token with its key, the only time the key is known. */
export interface CreatedToken {
  id: string;
  name: string;
  level: number;
  expirationDateTime: string | null;
  key: string;
}

/** Creates a token with a fresh random key (or the given one, for the bootstrap key) and stores only its hash. */
export async function createToken(db: Kysely<DatabaseSchema>, token: NewToken, key = generateApiKey()): Promise<CreatedToken> {
  const id = randomUUID();
  await db
    .insertInto('tokens')
    .values({
      id,
      accountId: token.accountId,
      name: token.name,
      keyHash: hashApiKey(key),
      scopeKind: token.scopeKind,
      scopeId: token.scopeId,
      level: token.level,
      expiresAt: token.expiresAt,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return { id, name: token.name, level: token.level, expirationDateTime: token.expiresAt, key };
}

/** The shortest key a bootstrap token takes: it holds the account's Administrator level, so it must not be guessable. */
export const MIN_BOOTSTRAP_KEY_LENGTH = 32;

/** The name of the token a bootstrap key makes. */
const BOOTSTRAP_TOKEN_NAME = 'Local workspace';

/**
 * Makes sure an account-scope token with exactly this key exists (the embedded server's bootstrap key). With
 * `replaceEarlier`, a new key also deletes the tokens earlier bootstrap keys made: the desktop app asks for that when
 * it made a new key because it lost the old one, whose holder must not keep the account.
 */
export async function ensureBootstrapToken(
  db: Kysely<DatabaseSchema>,
  accountId: string,
  key: string,
  level: number,
  replaceEarlier = false,
): Promise<void> {
  if (key.length < MIN_BOOTSTRAP_KEY_LENGTH) {
    throw new Error(`The bootstrap key must be at least ${MIN_BOOTSTRAP_KEY_LENGTH} characters long; it opens the whole account.`);
  }
  const existing = await db.selectFrom('tokens').select(['id']).where('keyHash', '=', hashApiKey(key)).executeTakeFirst();
  if (existing !== undefined) {
    await db
      .updateTable('tokens')
      .set({ accountId, scopeKind: 'account', scopeId: null, level, expiresAt: null })
      .where('id', '=', existing.id)
      .execute();
    return;
  }
  if (replaceEarlier) {
    await db
      .deleteFrom('tokens')
    .where('accountId', '=', accountId)
    .where('name', '=', BOOTSTRAP_TOKEN_NAME)
      .where('scopeKind', '=', 'account')
      .execute();
  }
  await createToken(db, { accountId, name: BOOTSTRAP_TOKEN_NAME, scopeKind: 'account', scopeId: null, level, expiresAt: null }, key);
}

const tokenByKeyHash = compiledQuery((db: Kysely<DatabaseSchema>, keyHash: string) =>
  db.selectFrom('tokens').select(['id', 'accountId', 'scopeKind', 'scopeId', 'level', 'expiresAt']).where('keyHash', '=', keyHash),
);

/**
 * The principal of a key, or undefined when the key is unknown or expired. The store is searched by the key's digest,
 * never by the key, so how long the lookup takes says nothing about how much of a stored key a guess matches.
 */
export async function principalForKey(db: Kysely<DatabaseSchema>, key: string, now: Date): Promise<Principal | undefined> {
  const [row] = await tokenByKeyHash(db, hashApiKey(key));
  if (row === undefined) return undefined;
  if (row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime()) return undefined;
  return { tokenId: row.id, accountId: row.accountId, scopeKind: row.scopeKind, scopeId: row.scopeId, level: row.level };
}
