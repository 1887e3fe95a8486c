/**
 * What a cell of the elements grid says: an element's value in the user's words (a quantity as a number of the
 * language, a mapping by its item's name, a phase the server inferred in the user's words), and a parent row's, which
 * is what its parts share (nothing where they differ), the sum of what adds up, how many are mapped.
 */
import { useI18n } from 'vue-i18n';
import type { ElementRow } from '../../db/schema';
import { useMappingNames } from '../../components/use-mapping-names';
import { usePhaseWords } from '../../components/use-phase-words';
import type { ElementColumn } from './element-columns';
import { PartKind } from './element-parts';
import type { GridRow } from './grid-rows';
import { shownPhaseMatch } from './inferred-values';
import { parentQuantity, sharedValue } from './parent-values';

type ParentRow = Extract<GridRow, { kind: 'parent' }>;

/** Whether a split element's parts are all mapped to the same item (or all to none). */
function sharedMapping(parts: readonly ElementRow[]): boolean {
  return sharedValue(parts.map((part) => (part.mapping === null ? '' : `${part.mapping.type}:${part.mapping.id}`))) !== null;
}

/** `mappingIds`: the items the rows in sight are mapped to, whose names are read. */
export function useCellText(mappingIds: () => string[]) {
  const { t, n } = useI18n();
  const phaseWords = usePhaseWords();
  const { mappingText, mappingLanguage } = useMappingNames(mappingIds);

  function cellText(column: ElementColumn, row: ElementRow): string {
    if (column.kind === 'quantity') {
      const value = column.number(row);
      return value === null ? '' : n(value, 'quantity');
    }
    if (column.kind === 'mapping') return mappingText(row.mapping);
    const phase = column.key === 'phase' ? shownPhaseMatch(row) : null;
    return phase === null ? column.text(row) : phaseWords(phase);
  }

  /** Whether an element's cell shows a value the server inferred: marked, with why in its title and for screen readers. */
  function isInferred(column: ElementColumn, item: { grid: GridRow; row?: ElementRow }): boolean {
    return item.grid.kind === 'element' && item.row !== undefined && column.inferred(item.row);
  }

  /** "3 layers", "2 materials": the parts a parent row stands for. */
  function partsText(parent: ParentRow): string {
    const count = parent.end - parent.first;
    return parent.partKind === PartKind.Layer ? t('gridParts.layers', { count: n(count, 'integer') }, count) : t('gridParts.materials', { count: n(count, 'integer') }, count);
  }

  /** A parent row's cell: what its parts share (nothing where they differ), the sum of what adds up, how many are mapped. */
  function parentCellText(column: ElementColumn, parent: ParentRow, parts: readonly ElementRow[] | undefined): string {
    if (column.key === 'materialName') return partsText(parent);
    if (parts === undefined) return '';
    if (column.kind === 'quantity') {
      const value = parentQuantity(column.key, parts.map((part) => column.number(part)));
      return value === null ? '' : n(value, 'quantity');
    }
    if (column.kind === 'mapping') {
      const [first] = parts;
      if (sharedMapping(parts) && first !== undefined) return mappingText(first.mapping);
      const mapped = parts.filter((part) => part.mapping !== null).length;
      return t('gridParts.someMapped', { mapped: n(mapped, 'integer'), count: n(parts.length, 'integer') });
    }
    return sharedValue(parts.map((part) => column.text(part))) ?? '';
  }

  /**
   * The language a mapping cell's name is shown in when it is not the user's (a catalogue item without a name in it):
   * an element's item, or the one item a parent row's parts share; null for any other cell.
   */
  function cellLanguage(column: ElementColumn, item: { grid: GridRow; row?: ElementRow; parts?: readonly ElementRow[] }): string | null {
    if (column.kind !== 'mapping') return null;
    if (item.grid.kind === 'element') return item.row === undefined ? null : mappingLanguage(item.row.mapping);
    const [first] = item.parts ?? [];
    if (first === undefined || item.parts === undefined) return null;
    return sharedMapping(item.parts) ? mappingLanguage(first.mapping) : null;
  }

  return { cellText, isInferred, parentCellText, cellLanguage };
}
