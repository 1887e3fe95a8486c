import type { OperationId, RouteDefinition } from '../../shared/api/routes';
import { Level, type Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { getBuildingRow } from '../services/buildings';
import { getBuildingFileRow } from '../services/building-files';
import { readableCatalogueItem } from '../services/catalogue-access';
import { getPortfolioFileRow } from '../services/portfolio-files';
import { getPortfolioRow } from '../services/portfolios';

/** Operations on rights and tokens: Administrator (decisions §5). */
const administratorOperations = new Set<OperationId>([
  'listBuildingUsers',
  'replaceBuildingUsers',
  'listPortfolioUsers',
  'replacePortfolioUsers',
  'createAccountToken',
  'deleteAccountToken',
  'createPortfolioToken',
  'deletePortfolioToken',
  'createBuildingToken',
  'deleteBuildingToken',
]);

/** The level an operation needs: Read for reads, Write for changes, Administrator for rights and tokens. */
export function requiredLevel(operationId: OperationId, route: RouteDefinition): number {
  if (administratorOperations.has(operationId)) return Level.Administrator;
  return route.method === 'GET' ? Level.Read : Level.Write;
}

/**
 * Resolves the resource a route's path names, answering 404 when it is unknown or outside the key's scope. Called only
 * when the key's level is too low, so that the 403 that follows never reveals a resource the key cannot see.
 */
export async function resolvePathScope(
  ctx: ServerContext,
  principal: Principal,
  route: RouteDefinition,
  params: Record<string, string>,
): Promise<void> {
  const { id, buildingId, portfolioId, fileId } = params;
  if (buildingId !== undefined && fileId !== undefined) {
    await getBuildingFileRow(ctx, principal, buildingId, fileId);
  } else if (portfolioId !== undefined && fileId !== undefined) {
    await getPortfolioFileRow(ctx, principal, portfolioId, fileId);
  } else if (buildingId !== undefined) {
    await getBuildingRow(ctx, principal, buildingId);
  } else if (portfolioId !== undefined) {
    await getPortfolioRow(ctx, principal, portfolioId);
  } else if (id !== undefined) {
    if (route.path.startsWith('/buildings/')) await getBuildingRow(ctx, principal, id);
    else if (route.path.startsWith('/portfolios/')) await getPortfolioRow(ctx, principal, id);
    else if (route.path.startsWith('/materials/')) await readableCatalogueItem(ctx, principal, 'materials', id);
    else if (route.path.startsWith('/products/')) await readableCatalogueItem(ctx, principal, 'products', id);
  }
}
