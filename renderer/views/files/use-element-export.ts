/**
 * The file page's export of the view (element-export.ts) as xlsx or csv, named after the file, with how many
 * elements are written so far; a failure is told in a message.
 */
import { useMessage, type DropdownOption } from 'naive-ui';
import { computed, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import type { SheetLanguage } from '../../../shared/sheet-columns';
import { saveBlob } from '../../components/save-blob';
import type { CacheDb } from '../../db/cache-db';
import type { IdList } from '../../db/packed-ids';
import { elementsCsv, elementsXlsx } from './element-export';

export interface ElementExportSource {
  db: () => CacheDb | null;
  fileId: () => string;
  fileName: () => string | null | undefined;
  /** The ids of the view, in its order. */
  ids: () => IdList;
  locale: () => SheetLanguage;
}

export function useElementExport(source: ElementExportSource) {
  const { t } = useI18n();
  const message = useMessage();
  /** How many elements are written, while an export runs. */
  const exporting = ref<number | null>(null);

  // naive-ui's option props have no `data-*` members, hence the casts.
  const exportFormats = computed<DropdownOption[]>(() => [
    { key: 'xlsx', label: t('grid.exportXlsx'), props: { 'data-testid': 'element-export-xlsx' } as DropdownOption['props'] },
    { key: 'csv', label: t('grid.exportCsv'), props: { 'data-testid': 'element-export-csv' } as DropdownOption['props'] },
  ]);

  async function exportView(format: string | number): Promise<void> {
    const db = source.db();
    if (db === null) return;
    exporting.value = 0;
    const onProgress = (written: number): void => {
      exporting.value = written;
    };
    try {
      const base = (source.fileName() ?? 'elements').replace(/\.[^.]+$/, '');
      const blob =
        format === 'xlsx'
          ? await elementsXlsx(db, source.fileId(), source.ids(), source.locale(), base, onProgress)
          : await elementsCsv(db, source.fileId(), source.ids(), source.locale(), onProgress);
      saveBlob(blob, `${base} - elements.${format === 'xlsx' ? 'xlsx' : 'csv'}`);
    } catch (error) {
      message.error(t('grid.exportFailed', { message: error instanceof Error ? error.message : String(error) }));
    } finally {
      exporting.value = null;
    }
  }

  return { exporting, exportFormats, exportView };
}
