/**
 * What a user set on an element, field by field (decisions §3), and how it meets the model: a replace marks each field
 * whose value it changes, remembering the model's value; a new version of the source keeps each marked field, noting
 * where the model changed it after the user's edit; a resolution keeps the user's value or takes the model's. Pure: the
 * callers read and write the rows.
 */
import { USER_FIELDS, type ModelChange, type ModelChangeChoice, type UserField, type UserFieldValue } from '../../shared/api';
import type { Selectable } from 'kysely';
import { assertNever } from '../../shared/api/enums';
import type { ElementsTable, Flag } from '../store/tables';
import { parseJsonColumn } from '../store/repositories/json';

/** What is remembered of a field a user set. */
export interface UserFieldRecord {
  /** The model's value of the field: when the user set it, or as a later version changed it. */
  model: UserFieldValue;
  /** A new version changed the field after the user set it, from `from` (what the user's edit was made against) to `model`. */
  change?: { from: UserFieldValue };
}

/** The fields a user set on an element. */
export type UserFields = Partial<Record<UserField, UserFieldRecord>>;

/** An element's user fields as its row stores them: lookups as JSON text, the rest as they are. */
export type UserFieldColumns = Pick<Selectable<ElementsTable>, UserField>;

const LOOKUP_FIELDS: ReadonlySet<UserField> = new Set<UserField>(['phaseLookup', 'classificationLookup']);

/** The strings of a lookup column (a JSON array of strings); anything else in it is left out. */
function lookupList(column: string): string[] {
  const value = parseJsonColumn<unknown>(column, 'elements.lookup');
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A field's value as an element answers it, from its row. */
export function fieldValue(columns: Pick<UserFieldColumns, UserField>, field: UserField): UserFieldValue {
  const value = columns[field];
  return LOOKUP_FIELDS.has(field) ? lookupList(value as string) : value;
}

/** A field's value as its row stores it. */
function columnValue(field: UserField, value: UserFieldValue): string | number | null {
  if (LOOKUP_FIELDS.has(field)) return JSON.stringify(Array.isArray(value) ? value : []);
  return Array.isArray(value) ? null : value;
}

/** Whether two values of a field are the same. */
export function sameValue(left: UserFieldValue, right: UserFieldValue): boolean {
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => item === right[index]);
  }
  return left === right;
}

/** The user fields of a row's `userFields` column (null: none); entries that are not a known field's record are left out. */
export function readUserFields(column: string | null): UserFields {
  if (column === null) return {};
  const value = parseJsonColumn<unknown>(column, 'elements.userFields');
  if (typeof value !== 'object' || value === null) return {};
  const fields: UserFields = {};
  for (const field of USER_FIELDS) {
    const record = (value as Record<string, unknown>)[field];
    if (typeof record === 'object' && record !== null && 'model' in record) fields[field] = record as UserFieldRecord;
  }
  return fields;
}

/** The `userFields` column of an element's user fields: null when none. */
export function userFieldsColumn(fields: UserFields): string | null {
  return Object.keys(fields).length === 0 ? null : JSON.stringify(fields);
}

/** The `userEdited` flag of an element: whether it holds anything a user set. */
export function userEditedFlag(fields: UserFields, created: boolean): Flag {
  return created || Object.keys(fields).length > 0 ? 1 : 0;
}

/** Whether a `userFields` column marks `field`: a quick look for refinement, which reads every element. */
export function setsField(column: string | null, field: UserField): boolean {
  return column !== null && readUserFields(column)[field] !== undefined;
}

/** The user fields of an element a user created: every field is theirs, and the model had none of them. */
export function createdUserFields(): UserFields {
  return Object.fromEntries(USER_FIELDS.map((field) => [field, { model: LOOKUP_FIELDS.has(field) ? [] : null }])) as UserFields;
}

/** A stored element as a replace compares with it. */
export interface StoredElement extends UserFieldColumns {
  /** What refinement mapped it to: a client that reads the element sends this back as its `materialId`. */
  mappingId: string | null;
  userFields: string | null;
}

/**
 * Whether a replace leaves a field as it is. Besides an equal value: a lookup of several values sent back as one, joined
 * with ', ' (a request carries one value; the app joins them so), and a `materialId` that names what rules mapped the
 * element to (the answer shows the mapping, not whether a user chose it). Ids compare in any case.
 */
function leavesField(field: UserField, stored: StoredElement, sent: UserFieldValue): boolean {
  const current = fieldValue(stored, field);
  if (sameValue(current, sent)) return true;
  if (LOOKUP_FIELDS.has(field)) {
    return Array.isArray(current) && current.length > 1 && Array.isArray(sent) && sent.length === 1 && sent[0] === current.join(', ');
  }
  if (field === 'materialId' && typeof sent === 'string') {
    const same = (id: string | null) => id !== null && id.toLowerCase() === sent.toLowerCase();
    return same(stored.materialId) || (stored.materialId === null && same(stored.mappingId));
  }
  return false;
}

/**
 * A replace of a stored element: the fields it leaves keep their stored value, each field it changes takes the sent
 * value and becomes the user's, remembering the model's value (the stored one, unless the field was the user's
 * already); a field set back to the model's remembered value is the model's again. `carried` are the fields the
 * request's version has (v2.1 has no name and no materialId): the others are left.
 */
export function replaceFields(
  stored: StoredElement,
  sent: UserFieldColumns,
  carried: ReadonlySet<UserField>,
): { columns: UserFieldColumns; userFields: UserFields } {
  const userFields = readUserFields(stored.userFields);
  const columns: Record<string, string | number | null> = {};
  for (const field of USER_FIELDS) {
    const value = fieldValue(sent, field);
    if (!carried.has(field) || leavesField(field, stored, value)) {
      columns[field] = stored[field];
      continue;
    }
    columns[field] = sent[field];
    const record = userFields[field];
    if (record === undefined) userFields[field] = { model: fieldValue(stored, field) };
    else if (sameValue(value, record.model)) delete userFields[field];
  }
  return { columns: columns as UserFieldColumns, userFields };
}

/**
 * An element's user fields against a new version's element of the same id: a field the model now gives as the user
 * set it is the model's again; every other stays the user's (its value in `columns`, to write over the model's), and
 * where the model's value is not the one remembered, the model changed it after the user's edit: the change is noted
 * (from the value the edit was made against) and the new value remembered. A model that went back to that value has
 * no change left.
 */
export function keepInNewVersion(
  userFields: UserFields,
  mine: UserFieldColumns,
  model: UserFieldColumns,
): { columns: Partial<UserFieldColumns>; userFields: UserFields; changes: number } {
  const columns: Record<string, string | number | null> = {};
  const kept: UserFields = {};
  let changes = 0;
  for (const field of USER_FIELDS) {
    const record = userFields[field];
    if (record === undefined) continue;
    const now = fieldValue(model, field);
    if (sameValue(now, fieldValue(mine, field))) continue;
    columns[field] = mine[field];
    if (sameValue(now, record.model)) kept[field] = record;
    else if (record.change !== undefined && sameValue(now, record.change.from)) kept[field] = { model: now };
    else kept[field] = { model: now, change: { from: record.change?.from ?? record.model } };
    if (kept[field]?.change !== undefined) changes += 1;
  }
  return { columns: columns as Partial<UserFieldColumns>, userFields: kept, changes };
}

/**
 * Resolves a change of the model on a field: `mine` keeps the user's value and clears the change; `model` takes the
 * model's value (returned as `column`, to store) and the field is the model's again. Undefined: the field has no change.
 */
export function resolveChange(
  userFields: UserFields,
  field: UserField,
  keep: ModelChangeChoice,
): { userFields: UserFields; column?: string | number | null } | undefined {
  const record = userFields[field];
  if (record?.change === undefined) return undefined;
  const rest = { ...userFields };
  switch (keep) {
    case 'mine':
      rest[field] = { model: record.model };
      return { userFields: rest };
    case 'model':
      delete rest[field];
      return { userFields: rest, column: columnValue(field, record.model) };
    default:
      return assertNever(keep, 'model change choice');
  }
}

/** The changes of the model on an element's fields, in the order of USER_FIELDS. */
export function modelChangesOf(element: UserFieldColumns & { id: string; userFields: string | null }): ModelChange[] {
  const userFields = readUserFields(element.userFields);
  return USER_FIELDS.flatMap((field) => {
    const change = userFields[field]?.change;
    if (change === undefined) return [];
    return [
      {
        elementId: element.id,
        elementName: element.name,
        field,
        mine: fieldValue(element, field),
        model: userFields[field]?.model ?? null,
        modelBefore: change.from,
      },
    ];
  });
}
