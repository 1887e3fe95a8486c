/**
 * A group of the import report shown in the elements grid, so its elements get what they lack there (a weight, a
 * volume): the elements mapped to an item (those without a mass), or those of an IFC class and type name (those
 * without a quantity). It travels in the file page's address (`?focus=`), so the grid opens on it from the report and
 * keeps it on a reload. Membership does not depend on the quantities, so an element stays in view while its weight is
 * typed in.
 */
import type { LocationQueryRaw, LocationQueryValue } from 'vue-router';
import { isRecord } from '../../../shared/is-record';
import type { ElementRow } from '../../db/schema';
import { mappedTo, ofClassAndType } from './reason-groups';

/** The elements of a group, by what they are mapped to or by IFC class and type name. */
export type ElementFocus =
  | { kind: 'mapped-to'; itemId: string }
  | { kind: 'class-and-type'; elementClass: string | null; typeName: string | null };

/** The query of the file page that opens the grid on a group. */
export function focusQuery(focus: ElementFocus): LocationQueryRaw {
  return { focus: JSON.stringify(focus) };
}

function nullableText(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

/** The group the file page's query names, or null (none, or not one). */
export function focusOf(value: LocationQueryValue | LocationQueryValue[] | undefined): ElementFocus | null {
  if (typeof value !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  if (parsed['kind'] === 'mapped-to' && typeof parsed['itemId'] === 'string') return { kind: 'mapped-to', itemId: parsed['itemId'] };
  if (parsed['kind'] === 'class-and-type' && nullableText(parsed['elementClass']) && nullableText(parsed['typeName'])) {
    return { kind: 'class-and-type', elementClass: parsed['elementClass'], typeName: parsed['typeName'] };
  }
  return null;
}

/** Whether a cached element is in the group. */
export function inFocus(row: ElementRow, focus: ElementFocus): boolean {
  switch (focus.kind) {
    case 'mapped-to':
      return mappedTo(row, focus.itemId);
    case 'class-and-type':
      return ofClassAndType(row, focus.elementClass, focus.typeName);
  }
}
