/** The rows of accounts and of who may do what: accounts, the databases they use, users, API tokens, user rights. */

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
