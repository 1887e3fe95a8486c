/** Which columns of the elements grid the user shows, remembered on this device; the id always shows: it is how a row opens. */
import { computed, ref, watch } from 'vue';
import { DEFAULT_VISIBLE_COLUMNS, ELEMENT_COLUMNS, type ElementColumnKey } from './element-columns';

const COLUMNS_STORAGE_KEY = 'circularity-desk:grid-columns';

function storedColumns(): ElementColumnKey[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(COLUMNS_STORAGE_KEY) ?? 'null');
    if (Array.isArray(stored)) {
      const known = stored.filter((key): key is ElementColumnKey => ELEMENT_COLUMNS.some((column) => column.key === key));
      if (known.length > 0) return known;
    }
  } catch {
    // An unreadable choice is as good as none.
  }
  return [...DEFAULT_VISIBLE_COLUMNS];
}

export function useShownColumns() {
  const shownKeys = ref<ElementColumnKey[]>(storedColumns());
  watch(shownKeys, (keys) => {
    try {
      localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(keys));
    } catch {
      // Storage can be disabled; the choice then lasts this session.
    }
  });
  const shownColumns = computed(() => ELEMENT_COLUMNS.filter((column) => column.key === 'id' || shownKeys.value.includes(column.key)));
  const shownColumnKeys = computed(() => shownColumns.value.map((column) => column.key));
  return { shownKeys, shownColumns, shownColumnKeys };
}
