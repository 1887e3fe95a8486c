/**
 * Keeps the mapping of a type name's elements as a match rule on the type name (`type-rule.ts`), so later versions of
 * the file and other files that match against the account's database map by themselves: on the chosen item when it is
 * the account's own (its rules are read first, online if the app does not hold them, and replaced with the rule
 * added), else on an own product made for the type. Both go through the outbox, offline too. Rules of the account's
 * database apply to files that match against it (decisions §9), so the file is made to, online.
 */
import { ProductType } from '../../../shared/api/enums';
import { isLocalId, type CatalogueListRow } from '../../db/schema';
import type { MaterialMatch } from '../../../shared/api/schemas';
import { useBuildingFilesStore, type FileRef } from '../../stores/building-files';
import { useCataloguesStore, type CatalogueKind } from '../../stores/catalogues';
import { useSyncStore } from '../../stores/sync';
import { ruleProduct, withTypeNameRule } from './type-rule';

/** What keeping a rule did: added it to the item, found it there, made an own product for it, or could not read the item's rules. */
export type KeptRule =
  | { kind: 'added'; targetId: string }
  | { kind: 'present'; targetId: string }
  | { kind: 'product'; targetId: string }
  | { kind: 'rules-unknown'; targetId: string };

/** Whether the file matches against the account's database now, was made to, or the server could not be asked. */
export type OwnDatabaseUse = 'already' | 'added' | 'not-now';

export function useTypeRules() {
  const catalogues = useCataloguesStore();
  const files = useBuildingFilesStore();
  const sync = useSyncStore();

  async function cachedMatches(kind: CatalogueKind, id: string): Promise<readonly MaterialMatch[] | undefined> {
    const db = sync.db;
    if (db === null) return undefined;
    const table = kind === 'materials' ? db.materialMatches : db.productMatches;
    const row: CatalogueListRow<MaterialMatch> | undefined = await table.get(id);
    return row?.items;
  }

  /** The matches of an own item, read from the server when the app does not hold them yet. */
  async function matchesOf(kind: CatalogueKind, id: string): Promise<readonly MaterialMatch[] | undefined> {
    const held = await cachedMatches(kind, id);
    if (held !== undefined || isLocalId(id)) return held ?? [];
    await catalogues.loadDetails(kind, id);
    return cachedMatches(kind, id);
  }

  /**
   * Keeps a rule on `typeName` for the item chosen for its elements; answers what the elements are to be mapped to:
   * the item itself, or the own product made to hold the rule.
   */
  async function keepTypeRule(typeName: string, item: { id: string; kind: CatalogueKind }): Promise<KeptRule> {
    if (catalogues.databaseOf(item.kind, item.id) === 'own') {
      const matches = await matchesOf(item.kind, item.id);
      if (matches === undefined) return { kind: 'rules-unknown', targetId: item.id };
      const next = withTypeNameRule(matches, typeName);
      if (next === null) return { kind: 'present', targetId: item.id };
      if (item.kind === 'materials') await catalogues.editMaterialMatches(item.id, next);
      else await catalogues.editProductMatches(item.id, next);
      return { kind: 'added', targetId: item.id };
    }
    const db = sync.db;
    const material = item.kind === 'materials' ? await db?.materials.get(item.id) : undefined;
    const product = item.kind === 'products' ? await db?.products.get(item.id) : undefined;
    const made =
      item.kind === 'materials'
        ? ruleProduct(typeName, { kind: 'materials', id: item.id, specificWeight: material?.specificWeight ?? null })
        : ruleProduct(typeName, { kind: 'products', id: item.id, type: product?.type ?? ProductType.VolumeProduct });
    const targetId = await catalogues.createProduct(made.request, { children: made.children, matches: made.matches });
    return { kind: 'product', targetId };
  }

  /** Makes the file match against the account's own database (after those it prefers), online. */
  async function useOwnDatabase(file: FileRef): Promise<OwnDatabaseUse> {
    if (catalogues.own === null) await catalogues.refreshDatabases();
    const own = catalogues.own?.id;
    if (own === undefined) return 'not-now';
    const current = await files.settings(file);
    if (!current.ok || current.value.kind !== 'settings') return 'not-now';
    const { tags, preferredAccountIds } = current.value.settings;
    if (preferredAccountIds.includes(own)) return 'already';
    const replaced = await files.replaceSettings(file, { tags, preferredAccountIds: [...preferredAccountIds, own] });
    return replaced.ok && replaced.value.kind === 'settings' ? 'added' : 'not-now';
  }

  return { keepTypeRule, useOwnDatabase };
}
