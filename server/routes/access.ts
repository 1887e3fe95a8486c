import { assertNever } from '../../shared/api/enums';
import type { RouteDefinition, RouteLevel, RouteScope } from '../../shared/api/routes';
import { Level, type Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { getBuildingRow } from '../services/buildings';
import { getBuildingFileRow } from '../services/building-files';
import { readableCatalogueItem } from '../services/catalogue-access';
import { getPortfolioFileRow } from '../services/portfolio-files';
import { getPortfolioRow } from '../services/portfolios';

/** The key level of each declared route level (decisions §5). */
const LEVELS: Readonly<Record<RouteLevel, number>> = {
  read: Level.Read,
  write: Level.Write,
  administrator: Level.Administrator,
};

/** The level a route needs, as its definition declares it; a route without a key needs none. */
export function requiredLevel(route: RouteDefinition): number {
  return route.access === undefined ? Level.None : LEVELS[route.access.level];
}

/** A path parameter a scope names; the route table's test makes sure every declared one exists. */
function param(params: Record<string, string>, name: string): string {
  const value = params[name];
  if (value === undefined) throw new Error(`The route declares its scope by the path parameter '${name}', which it does not have.`);
  return value;
}

/**
 * Resolves the resource a route's path names, as its definition declares it, answering 404 when it is unknown or
 * outside the key's scope. Called only when the key's level is too low, so that the 403 that follows never reveals a
 * resource the key cannot see.
 */
export async function resolvePathScope(ctx: ServerContext, principal: Principal, scope: RouteScope, params: Record<string, string>): Promise<void> {
  switch (scope.kind) {
    case 'account':
      return;
    case 'building':
      await getBuildingRow(ctx, principal, param(params, scope.building));
      return;
    case 'building-file':
      await getBuildingFileRow(ctx, principal, param(params, scope.building), param(params, scope.file));
      return;
    case 'portfolio':
      await getPortfolioRow(ctx, principal, param(params, scope.portfolio));
      return;
    case 'portfolio-file':
      await getPortfolioFileRow(ctx, principal, param(params, scope.portfolio), param(params, scope.file));
      return;
    case 'catalogue-item':
      await readableCatalogueItem(ctx, principal, scope.catalogue, param(params, scope.item));
      return;
    default:
      assertNever(scope, 'route scope');
  }
}
