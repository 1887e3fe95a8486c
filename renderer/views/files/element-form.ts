/**
 * The element form's model: what an element's fields look like in the form, which values the form refuses, and which
 * changes a filled-in form makes (only the fields the user changed, so a save never overwrites the server's other
 * values with what the form happened to show). The mapping is the id of the material or product the element is mapped
 * to, chosen in a picker; a changed one is sent as `materialId`.
 */
import type { ElementChanges } from '../../db/edit-shapes';
import type { ElementRow } from '../../db/schema';

/** The text fields, in the order the form shows them. */
export const ELEMENT_TEXT_FIELDS = ['name', 'materialName', 'typeName', 'elementClass', 'floor', 'phaseLookup', 'classificationLookup'] as const;
/** A text field. */
export type ElementTextField = (typeof ELEMENT_TEXT_FIELDS)[number];

/** The quantities, in the order the form shows them. */
export const ELEMENT_QUANTITY_FIELDS = ['volume', 'area', 'height', 'width', 'length', 'weight'] as const;
/** A quantity. */
export type ElementQuantityField = (typeof ELEMENT_QUANTITY_FIELDS)[number];

/** A field of the form. */
export type ElementFormField = ElementTextField | ElementQuantityField;

/** What the form holds: text as typed ('' for none), quantities as numbers or null, the mapped item's id ('' for none). */
export type ElementForm = Record<ElementTextField, string> & Record<ElementQuantityField, number | null> & { materialId: string };

/** Why the form refuses a value. */
export type ElementFieldError = 'negative' | 'not-finite';

/** The form of an element. The server answers the lookups as lists; the form edits the first value, as a request sends one. */
export function elementFormOf(row: ElementRow): ElementForm {
  return {
    name: row.name ?? '',
    materialName: row.materialName ?? '',
    typeName: row.typeName ?? '',
    elementClass: row.elementClass ?? '',
    floor: row.floor ?? '',
    phaseLookup: row.phaseLookup?.[0] ?? '',
    classificationLookup: row.classificationLookup?.[0] ?? '',
    materialId: row.mapping?.id ?? '',
    volume: row.volume,
    area: row.area,
    height: row.height,
    width: row.width,
    length: row.length,
    weight: row.weight,
  };
}

/** The form of a new element: nothing filled in. */
export function emptyElementForm(): ElementForm {
  return {
    name: '',
    materialName: '',
    typeName: '',
    elementClass: '',
    floor: '',
    phaseLookup: '',
    classificationLookup: '',
    materialId: '',
    volume: null,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
  };
}

/** The values the form refuses, by field: quantities are finite and not negative. */
export function elementFormErrors(form: ElementForm): Partial<Record<ElementQuantityField, ElementFieldError>> {
  const errors: Partial<Record<ElementQuantityField, ElementFieldError>> = {};
  for (const field of ELEMENT_QUANTITY_FIELDS) {
    const value = form[field];
    if (value === null) continue;
    if (!Number.isFinite(value)) errors[field] = 'not-finite';
    else if (value < 0) errors[field] = 'negative';
  }
  return errors;
}

/** The changes from `before` to `after`: the fields that differ, text trimmed, an emptied field (or mapping) as null. */
export function elementChangesOf(before: ElementForm, after: ElementForm): ElementChanges {
  const changes: ElementChanges = {};
  for (const field of ELEMENT_TEXT_FIELDS) {
    const value = after[field].trim();
    if (value !== before[field].trim()) changes[field] = value === '' ? null : value;
  }
  for (const field of ELEMENT_QUANTITY_FIELDS) {
    if (after[field] !== before[field]) changes[field] = after[field];
  }
  if (after.materialId !== before.materialId) changes.materialId = after.materialId === '' ? null : after.materialId;
  return changes;
}
