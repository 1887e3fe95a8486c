/**
 * Which cached elements a group of the server's import report stands for (shared/counting.ts groups them), so a fix
 * can change them all at once and the grid can show them: those without a mass are the elements mapped to its item
 * that have no weight but the quantity it is measured by; those without circular data, every element mapped to its
 * item; those without a quantity, the mapped ones of its IFC class and type name that lack what their mapping needs.
 */
import { isMeasured, named, type ElementGroupKey } from '../../../shared/counting';
import type { ElementRow } from '../../db/schema';

/** The reasons whose groups a fix changes or the grid shows from here. */
export type FixedReason = 'no-quantity' | 'no-mass' | 'no-circular-data';

function present(value: number | null): boolean {
  return value !== null && Number.isFinite(value) && value > 0;
}

/** Whether an element is mapped to an item (ids compared in any letter case). */
export function mappedTo(row: ElementRow, itemId: string | undefined): boolean {
  return row.mapping !== null && itemId !== undefined && row.mapping.id.toLowerCase() === itemId.toLowerCase();
}

/** Whether an element is of an IFC class and type name (null: none). */
export function ofClassAndType(row: ElementRow, elementClass: string | null, typeName: string | null): boolean {
  return named(row.elementClass) === elementClass && named(row.typeName) === typeName;
}

/** Whether a cached element is (still) one of a group's elements. */
export function inReasonGroup(row: ElementRow, reason: FixedReason, key: ElementGroupKey): boolean {
  switch (reason) {
    case 'no-quantity':
      return row.mapping !== null && ofClassAndType(row, key.elementClass, key.typeName) && !isMeasured(row, row.mapping.type);
    case 'no-mass':
      return row.mapping !== null && mappedTo(row, key.mapping?.id) && !present(row.weight) && isMeasured(row, row.mapping.type);
    case 'no-circular-data':
      return mappedTo(row, key.mapping?.id);
  }
}
