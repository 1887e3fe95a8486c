/**
 * Saving a catalogue item of the account's own database: one Save writes the changed fields and each changed list to
 * the cache and the outbox (through the catalogues store), and the next sync sends them. An item of another database
 * can be copied into the account's. Leaving with unsaved changes asks first.
 */
import { useDialog, useMessage } from 'naive-ui';
import { ref, toRaw, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import { onBeforeRouteLeave, useRouter } from 'vue-router';
import type { ProductType } from '../../../shared/api/enums';
import { buttonTestId } from '../../components/test-id';
import type { CacheQuery } from '../../components/use-cache-query';
import type { MaterialRow, ProductRow } from '../../db/schema';
import { ROUTE_NAMES } from '../../router';
import { useCataloguesStore } from '../../stores/catalogues';
import { emptyItemForm, itemChangesOf, itemFormOf } from './catalogue-form';
import { childrenOf, financialValuesOf, matchesOf } from './catalogue-list-forms';
import type { CachedLists, ItemAddress } from './use-cached-item';
import type { ItemDrafts } from './use-item-drafts';

/** What is saved or copied, and whether it may be. */
export interface SaveSource extends ItemAddress {
  row: CacheQuery<MaterialRow | ProductRow | undefined>;
  lists: CacheQuery<CachedLists>;
  drafts: ItemDrafts;
  valid: Readonly<Ref<boolean>>;
  readonly: Readonly<Ref<boolean>>;
}

export function useItemSaving({ kind, itemId, isNew, row, lists, drafts, valid, readonly }: SaveSource) {
  const { t } = useI18n();
  const router = useRouter();
  const message = useMessage();
  const dialog = useDialog();
  const catalogues = useCataloguesStore();
  const { form, matches, values, children, changes, itemDirty, matchesDirty, valuesDirty, childrenDirty, dirty } = drafts;

  const saving = ref(false);

  function saveFailed(error: unknown): void {
    message.error(t('catalogues.saveFailed', { message: error instanceof Error ? error.message : String(error) }));
  }

  async function create(): Promise<string> {
    const made = changes.value;
    if (kind.value === 'materials') {
      return catalogues.createMaterial(made, { matches: matchesOf(matches.value), financialValues: financialValuesOf(values.value) });
    }
    return catalogues.createProduct(
      { ...made, type: form.value.choice as ProductType },
      { matches: matchesOf(matches.value), children: childrenOf(children.value), financialValues: financialValuesOf(values.value) },
    );
  }

  async function update(id: string): Promise<void> {
    const materials = kind.value === 'materials';
    if (itemDirty.value) await (materials ? catalogues.editMaterial(id, changes.value) : catalogues.editProduct(id, changes.value));
    if (matchesDirty.value) await (materials ? catalogues.editMaterialMatches(id, matchesOf(matches.value)) : catalogues.editProductMatches(id, matchesOf(matches.value)));
    if (valuesDirty.value) {
      const list = financialValuesOf(values.value);
      await (materials ? catalogues.editMaterialFinancialValues(id, list) : catalogues.editProductFinancialValues(id, list));
    }
    if (childrenDirty.value) await catalogues.editProductChildren(id, childrenOf(children.value));
  }

  async function save(): Promise<void> {
    if (!valid.value || !dirty.value || readonly.value) return;
    saving.value = true;
    try {
      if (isNew.value) {
        const id = await create();
        // The form is saved: leaving it for the new item's page asks nothing.
        drafts.markSaved();
        catalogues.selectedDatabase = 'own';
        await router.replace({ name: ROUTE_NAMES.catalogueItem, params: { kind: kind.value, itemId: id } });
      } else {
        await update(itemId.value);
        drafts.markSaved();
      }
      message.success(t('catalogues.saved'));
    } catch (error) {
      saveFailed(error);
    } finally {
      saving.value = false;
    }
  }

  /** Makes an item of another database the account's own: the same fields and lists, under a new id. */
  async function copy(): Promise<void> {
    const current = row.value.value;
    if (current === undefined) return;
    saving.value = true;
    try {
      const copied = itemChangesOf(kind.value, emptyItemForm(kind.value), itemFormOf(kind.value, current));
      // The cache's answer is shown read-only; IndexedDB stores the plain lists under it.
      const cached = toRaw(lists.value.value);
      const id =
        kind.value === 'materials'
          ? await catalogues.createMaterial(copied, { matches: cached.matches ?? [], financialValues: cached.values ?? [] })
          : await catalogues.createProduct(
              { ...copied, type: (current as ProductRow).type },
              { matches: cached.matches ?? [], children: cached.children ?? [], financialValues: cached.values ?? [] },
            );
      catalogues.selectedDatabase = 'own';
      await router.push({ name: ROUTE_NAMES.catalogueItem, params: { kind: kind.value, itemId: id } });
      message.success(t('catalogues.copied'));
    } catch (error) {
      saveFailed(error);
    } finally {
      saving.value = false;
    }
  }

  onBeforeRouteLeave(() => {
    if (!dirty.value || readonly.value) return true;
    return new Promise<boolean>((resolve) => {
      dialog.warning({
        title: t('catalogues.leaveTitle'),
        content: t('catalogues.leaveBody'),
        positiveText: t('catalogues.leaveDiscard'),
        negativeText: t('catalogues.leaveStay'),
        positiveButtonProps: buttonTestId('catalogue-leave-discard'),
        onPositiveClick: () => resolve(true),
        onNegativeClick: () => resolve(false),
        onClose: () => resolve(false),
        onMaskClick: () => resolve(false),
      });
    });
  });

  return { saving, save, copy };
}
