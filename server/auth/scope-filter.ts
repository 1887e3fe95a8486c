import { type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Principal } from './principal';
import type { DatabaseSchema } from '../store/tables';

/** A where-clause limiting `buildings` rows to the caller's scope (the SQL twin of auth/scope.ts buildingInScope). */
export function buildingScopeFilter(principal: Principal) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'buildings'>): Expression<SqlBool> => {
    const inAccount = eb('buildings.accountId', '=', principal.accountId);
    switch (principal.scopeKind) {
      case 'account':
        return inAccount;
      case 'portfolio':
        return eb.and([inAccount, eb('buildings.portfolioId', '=', principal.scopeId ?? '')]);
      case 'building':
        return eb.and([inAccount, eb('buildings.id', '=', principal.scopeId ?? '')]);
    }
  };
}

/** A where-clause limiting `portfolios` rows to the caller's scope (the SQL twin of auth/scope.ts portfolioInScope). */
export function portfolioScopeFilter(principal: Principal) {
  return (eb: ExpressionBuilder<DatabaseSchema, 'portfolios'>): Expression<SqlBool> => {
    const inAccount = eb('portfolios.accountId', '=', principal.accountId);
    switch (principal.scopeKind) {
      case 'account':
        return inAccount;
      case 'portfolio':
        return eb.and([inAccount, eb('portfolios.id', '=', principal.scopeId ?? '')]);
      case 'building':
        return eb.lit(false);
    }
  };
}
