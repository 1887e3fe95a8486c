import { forbidden, notFound } from '../errors';
import { Level, type Principal } from './principal';

/** The ownership facts of a portfolio that scope checks need. */
export interface PortfolioOwnership {
  id: string;
  accountId: string;
}

/** The ownership facts of a building that scope checks need. */
export interface BuildingOwnership {
  id: string;
  accountId: string;
  portfolioId: string;
}

/** Whether the key's scope covers the portfolio (a building token sees no portfolio). */
export function portfolioInScope(principal: Principal, portfolio: PortfolioOwnership): boolean {
  if (portfolio.accountId !== principal.accountId) return false;
  switch (principal.scopeKind) {
    case 'account':
      return true;
    case 'portfolio':
      return principal.scopeId === portfolio.id;
    case 'building':
      return false;
  }
}

/** Whether the key's scope covers the building. */
export function buildingInScope(principal: Principal, building: BuildingOwnership): boolean {
  if (building.accountId !== principal.accountId) return false;
  switch (principal.scopeKind) {
    case 'account':
      return true;
    case 'portfolio':
      return principal.scopeId === building.portfolioId;
    case 'building':
      return principal.scopeId === building.id;
  }
}

/** 403 unless the key's level reaches `level` (called after the scope check, so a 403 never reveals existence). */
export function requireLevel(principal: Principal, level: number): void {
  if (principal.level < level) {
    const needed = level >= Level.Administrator ? 'Administrator' : level >= Level.Write ? 'Write' : 'Read';
    throw forbidden(`This key's permission level (${principal.level}) is too low: ${needed} (${level}) is needed.`);
  }
}

/** The portfolio if it exists and is in scope, else 404. */
export function portfolioOr404<T extends PortfolioOwnership>(principal: Principal, id: string, portfolio: T | undefined): T {
  if (portfolio === undefined || !portfolioInScope(principal, portfolio)) throw notFound('Portfolio', id);
  return portfolio;
}

/** The building if it exists and is in scope, else 404. */
export function buildingOr404<T extends BuildingOwnership>(principal: Principal, id: string, building: T | undefined): T {
  if (building === undefined || !buildingInScope(principal, building)) throw notFound('Building', id);
  return building;
}
