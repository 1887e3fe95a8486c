/**
 * A catalogue item's details (matches, a product's children, financial values), fetched when the user opens the item,
 * or for every item still lacking them, a few at a time. All of an item's lists are written together or none.
 */
import { catalogueItemsMissingDetails, writeCatalogueLists, type CatalogueList } from '../db/apply-pull';
import { CATALOGUE_DETAILS, ENTITIES } from '../db/entities';
import type { SyncIssue } from '../db/schema';
import { callOperation } from '../api/call-api';
import { invalid, listOf } from './answers';
import { fetchFailure, type FetchOutcome } from './fetch-outcome';
import { clockOf, type SyncOptions } from './sync-options';

async function pullCatalogueDetails(options: SyncOptions, table: keyof typeof CATALOGUE_DETAILS, id: string): Promise<FetchOutcome> {
  const lists: CatalogueList[] = [];
  for (const detail of CATALOGUE_DETAILS[table]) {
    const operationId = ENTITIES[detail].push.get;
    const outcome = await callOperation(options.api, { operationId, params: { id } });
    const items = outcome.ok ? listOf<unknown>(outcome.value, null) : undefined;
    if (!outcome.ok || items === undefined) return fetchFailure(outcome.ok ? invalid(operationId, 'a list of objects') : outcome.failure);
    lists.push({ table: detail, ownerId: id, items });
  }
  // All of an item's lists are written together, or none when one of them failed.
  await writeCatalogueLists(options.db, lists, clockOf(options)());
  return { ok: true, value: undefined };
}

/** Fetches a material's matches and financial values now (when the user opens it) and writes them. */
export function pullMaterialDetails(options: SyncOptions, materialId: string): Promise<FetchOutcome> {
  return pullCatalogueDetails(options, 'materials', materialId);
}

/** Fetches a product's matches, children and financial values now and writes them. */
export function pullProductDetails(options: SyncOptions, productId: string): Promise<FetchOutcome> {
  return pullCatalogueDetails(options, 'products', productId);
}

/** How a background fill ended. */
export interface FillResult {
  /** Items whose sub-resources were written. */
  filled: number;
  /** Items the server refused, skipped. */
  issues: SyncIssue[];
  /** What stopped the fill (no answer, 5xx, 401 …), if something did; the rest is filled by a later run. */
  stoppedBy: SyncIssue | null;
}

/**
 * Fetches the sub-resources of every catalogue item that lacks them, `concurrency` items at a time (default 2), so
 * the user's own requests keep most of the host's queue. Stops at the first failure that is not a refusal.
 */
export async function fillCatalogueDetails(
  options: SyncOptions & { concurrency?: number; signal?: AbortSignal },
): Promise<FillResult> {
  const at = clockOf(options);
  const missing = await catalogueItemsMissingDetails(options.db);
  const work = [
    ...missing.materials.map((id) => ({ table: 'materials' as const, id })),
    ...missing.products.map((id) => ({ table: 'products' as const, id })),
  ];
  const result: FillResult = { filled: 0, issues: [], stoppedBy: null };
  const worker = async (): Promise<void> => {
    for (let item = work.shift(); item !== undefined; item = work.shift()) {
      if (result.stoppedBy !== null || options.signal?.aborted === true) return;
      const outcome = await pullCatalogueDetails(options, item.table, item.id);
      if (outcome.ok) {
        result.filled += 1;
        continue;
      }
      const issue: SyncIssue = { at: at(), where: `${item.table}:${item.id}`, failure: outcome.failure };
      if (outcome.class === 'rejected') result.issues.push(issue);
      else result.stoppedBy ??= issue;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return result;
}
