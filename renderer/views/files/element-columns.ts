/**
 * The columns of the elements grid: what each shows of an element, how it sorts and filters, which request field an
 * inline edit of it changes (none for what the server derives: the id), and which picker chooses the value of those
 * that are chosen rather than typed (the mapping, the classification).
 */
import { ElementType } from '../../../shared/api/enums';
import type { ElementRow } from '../../db/schema';
import type { ElementQuantityField, ElementTextField } from './element-form';
import { classificationInferred, phaseInferred, shownClassificationMatch, shownPhaseMatch } from './inferred-values';

/** A column of the grid. */
export type ElementColumnKey =
  | 'id'
  | 'name'
  | 'materialName'
  | 'mapping'
  | 'typeName'
  | 'elementClass'
  | 'floor'
  | 'phase'
  | 'classification'
  | ElementQuantityField;

/** What a column holds: text, a quantity, or the mapping state. */
export type ElementColumnKind = 'text' | 'quantity' | 'mapping';

/** How a column shows, sorts, filters and edits. */
export interface ElementColumn {
  key: ElementColumnKey;
  kind: ElementColumnKind;
  width: number;
  /** The request field an inline edit changes; null: not typed in the cell. */
  edits: ElementTextField | ElementQuantityField | null;
  /** The picker an edit of the cell opens instead of a text box: a catalogue item (`materialId`) or an NL-SfB code. */
  picker: 'catalogue' | 'classification' | null;
  /** The value shown (and exported, filtered and sorted, for text): '' when there is none. */
  text(row: ElementRow): string;
  /** The number a quantity column sorts and filters by; null when there is none. */
  number(row: ElementRow): number | null;
  /** Whether the value shown is one the server inferred (`inferred-values.ts`). */
  inferred(row: ElementRow): boolean;
}

/** The server's match, unless the user chose another code here since (the match follows with the next refinement). */
function classificationText(row: ElementRow): string {
  const match = shownClassificationMatch(row);
  return match !== null ? `${match.code} ${match.name}` : (row.classificationLookup ?? []).join(', ');
}

/** The server's phase, unless the user changed the element's phase here since (the lookup says it then). */
function phaseText(row: ElementRow): string {
  return shownPhaseMatch(row)?.name ?? (row.phaseLookup ?? []).join(', ');
}

const NEVER_INFERRED = (): boolean => false;

function textColumn(key: ElementColumnKey, width: number, edits: ElementTextField | null, text: (row: ElementRow) => string): ElementColumn {
  return { key, kind: 'text', width, edits, picker: null, text, number: () => null, inferred: NEVER_INFERRED };
}

function quantityColumn(key: ElementQuantityField): ElementColumn {
  return {
    key,
    kind: 'quantity',
    width: 110,
    edits: key,
    picker: null,
    text: (row) => (row[key] === null ? '' : String(row[key])),
    number: (row) => row[key],
    inferred: NEVER_INFERRED,
  };
}

/** Every column, in the order the grid shows them. */
export const ELEMENT_COLUMNS: readonly ElementColumn[] = [
  textColumn('id', 190, null, (row) => row.id),
  textColumn('name', 220, 'name', (row) => row.name ?? ''),
  textColumn('materialName', 180, 'materialName', (row) => row.materialName ?? ''),
  {
    key: 'mapping',
    kind: 'mapping',
    width: 160,
    edits: null,
    picker: 'catalogue',
    text: (row) => (row.mapping === null ? '' : row.mapping.type === ElementType.Material ? 'material' : 'product'),
    number: () => null,
    inferred: NEVER_INFERRED,
  },
  textColumn('typeName', 180, 'typeName', (row) => row.typeName ?? ''),
  textColumn('elementClass', 130, 'elementClass', (row) => row.elementClass ?? ''),
  textColumn('floor', 110, 'floor', (row) => row.floor ?? ''),
  { ...textColumn('phase', 130, 'phaseLookup', phaseText), inferred: phaseInferred },
  { ...textColumn('classification', 210, 'classificationLookup', classificationText), picker: 'classification', inferred: classificationInferred },
  quantityColumn('volume'),
  quantityColumn('area'),
  quantityColumn('height'),
  quantityColumn('width'),
  quantityColumn('length'),
  quantityColumn('weight'),
];

/** The columns shown before the user chooses. */
export const DEFAULT_VISIBLE_COLUMNS: readonly ElementColumnKey[] = ['id', 'name', 'materialName', 'mapping', 'elementClass', 'floor', 'phase', 'classification', 'volume', 'area'];

/** A column by its key. */
export function elementColumn(key: ElementColumnKey): ElementColumn {
  const found = ELEMENT_COLUMNS.find((column) => column.key === key);
  if (found === undefined) throw new Error(`No element column ${key}.`);
  return found;
}
