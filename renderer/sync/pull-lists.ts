/**
 * The pull's lists: buildings, portfolios, classification methods, materials and products, each applied whole in one
 * transaction. A catalogue is the platform's list and the account's own one together.
 */
import type { BuildingResponse } from '../../shared/api/schemas';
import { applyServerBuildings, applyServerList, type PlainLists, type PlainListTable } from '../db/apply-pull';
import { isLocalId } from '../db/schema';
import type { OperationId } from '../../shared/api/routes';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { fail, fetchList, progress, request, type PullRun } from './pull-run';

const PLAIN_LISTS: ReadonlyArray<{ table: PlainListTable; operationId: OperationId; catalogue: boolean }> = [
  { table: 'portfolios', operationId: 'listPortfolios', catalogue: false },
  { table: 'classificationMethods', operationId: 'listClassificationMethods', catalogue: false },
  { table: 'materials', operationId: 'listMaterials', catalogue: true },
  { table: 'products', operationId: 'listProducts', catalogue: true },
];

/** The id of the key's own account, whose database holds the catalogue items its users created. */
async function ownDatabaseId(run: PullRun): Promise<string | undefined> {
  const account = await request(run, 'getCurrentAccount', { operationId: 'getCurrentAccount' });
  const id = isRecord(account) ? account['id'] : undefined;
  if (account !== undefined && typeof id !== 'string') fail(run, 'getCurrentAccount', invalid('getCurrentAccount', 'an account'));
  return typeof id === 'string' ? id : undefined;
}

/**
 * A catalogue is the platform's database (the list without `databaseId`) and the account's own one, where items its
 * users create are kept: both lists make the complete one, so an item created here is not taken for deleted.
 */
async function fetchCatalogue<T extends { id: string }>(run: PullRun, operationId: OperationId, databaseId: string | undefined): Promise<T[] | undefined> {
  const platform = await fetchList<T>(run, operationId, { operationId }, 'id');
  if (platform === undefined || databaseId === undefined) return undefined;
  const own = await fetchList<T>(run, `${operationId}:${databaseId}`, { operationId, query: { databaseId } }, 'id');
  if (own === undefined) return undefined;
  const byId = new Map<string, T>();
  for (const item of [...platform, ...own]) byId.set(item.id, item);
  return [...byId.values()];
}

/** Pulls the complete lists; answers the buildings whose files are to be listed. */
export async function pullLists(run: PullRun): Promise<string[]> {
  await progress(run, { phase: 'lists', collection: 'buildings' });
  const buildings = await fetchList<BuildingResponse>(run, 'listBuildings', { operationId: 'listBuildings' }, 'id');
  if (buildings !== undefined) run.keptMissing.push(...(await applyServerBuildings(run.db, buildings)).keptMissing);

  let databaseId: string | undefined;
  for (const { table, operationId, catalogue } of PLAIN_LISTS) {
    await progress(run, { phase: 'lists', collection: table });
    if (catalogue) databaseId ??= await ownDatabaseId(run);
    const rows = catalogue
      ? await fetchCatalogue<PlainLists[typeof table]>(run, operationId, databaseId)
      : await fetchList<PlainLists[typeof table]>(run, operationId, { operationId }, 'id');
    if (rows !== undefined) run.keptMissing.push(...(await applyServerList(run.db, table, rows)).keptMissing);
  }
  // Without the server's list, the cached buildings are the best guess of what to list files for.
  const ids = buildings?.map((building) => building.id) ?? (await run.db.buildings.toCollection().primaryKeys());
  return ids.filter((id) => !isLocalId(id));
}
