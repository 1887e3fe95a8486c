import type { ScopeKind } from '../store/tables';

/** Permission levels (decisions §5): Read = GET, Write = changes, Administrator = rights and tokens. */
export const Level = { None: 0, Read: 50, Write: 70, Administrator: 90 } as const;

/** The caller behind a request's key: its token, account, scope and level. */
export interface Principal {
  readonly tokenId: string;
  readonly accountId: string;
  readonly scopeKind: ScopeKind;
  /** The portfolio or building id for those scopes; null for an account token. */
  readonly scopeId: string | null;
  readonly level: number;
}
