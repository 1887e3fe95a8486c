/**
 * What a user set on an element, field by field (decisions §3): a replace marks what it changes and remembers the
 * model's value, a new version keeps the user's fields and notes where the model changed them since, and a resolution
 * keeps the user's value or takes the model's.
 */
import { describe, expect, it } from 'vitest';
import { USER_FIELDS, type UserField } from '../../../../shared/api';
import {
  createdUserFields,
  keepInNewVersion,
  modelChangesOf,
  readUserFields,
  replaceFields,
  resolveChange,
  setsField,
  userEditedFlag,
  userFieldsColumn,
  type StoredElement,
  type UserFieldColumns,
  type UserFields,
} from '../../../../server/services/user-fields';

const CONCRETE = '40000000-0000-4000-8000-000000000004';
const STEEL = '40000000-0000-4000-8000-000000000005';

/** An element's user fields as a row holds them, as an IFC model gives them unless `fields` says otherwise. */
function columns(fields: Partial<UserFieldColumns> = {}): UserFieldColumns {
  return {
    name: 'Basic Wall',
    floor: '00 ground floor',
    materialName: 'Beton C20/25',
    materialId: null,
    typeName: 'Wall 200',
    elementClass: 'IfcWall',
    volume: 2.4,
    area: 12,
    height: 3,
    width: 0.2,
    length: 4,
    weight: null,
    phaseLookup: '["New construction"]',
    classificationLookup: '["21.1","Exterior"]',
    ...fields,
  };
}

function stored(fields: Partial<UserFieldColumns> = {}, userFields: UserFields = {}, mappingId: string | null = null): StoredElement {
  return { ...columns(fields), mappingId, userFields: userFieldsColumn(userFields) };
}

const EVERY_FIELD: ReadonlySet<UserField> = new Set(USER_FIELDS);

describe('a replace', () => {
  it('marks each field it changes, remembering the stored value as the model’s, and leaves the others', () => {
    const replaced = replaceFields(stored(), columns({ name: 'Outer wall', volume: 3, classificationLookup: '["22.1"]' }), EVERY_FIELD);
    expect(replaced.userFields).toEqual({
      name: { model: 'Basic Wall' },
      volume: { model: 2.4 },
      classificationLookup: { model: ['21.1', 'Exterior'] },
    });
    expect(replaced.columns).toEqual(columns({ name: 'Outer wall', volume: 3, classificationLookup: '["22.1"]' }));
  });

  it('keeps the model’s first value when a field is changed again, and the field is the model’s again once set back to it', () => {
    const first = replaceFields(stored(), columns({ name: 'Outer wall' }), EVERY_FIELD);
    const second = replaceFields(stored({ name: 'Outer wall' }, first.userFields), columns({ name: 'North wall' }), EVERY_FIELD);
    expect(second.userFields).toEqual({ name: { model: 'Basic Wall' } });
    const back = replaceFields(stored({ name: 'North wall' }, second.userFields), columns({ name: 'Basic Wall' }), EVERY_FIELD);
    expect(back.userFields).toEqual({});
    expect(back.columns.name).toBe('Basic Wall');
  });

  it('marks a field cleared to null, and one set where the model gave nothing', () => {
    const replaced = replaceFields(stored(), columns({ floor: null, weight: 950 }), EVERY_FIELD);
    expect(replaced.userFields).toEqual({ floor: { model: '00 ground floor' }, weight: { model: null } });
  });

  it('reads a lookup of several values sent back joined with ", " as unchanged, and keeps its values', () => {
    const replaced = replaceFields(stored(), columns({ classificationLookup: '["21.1, Exterior"]' }), EVERY_FIELD);
    expect(replaced.userFields).toEqual({});
    expect(replaced.columns.classificationLookup).toBe('["21.1","Exterior"]');
  });

  it('reads the mapping a rule found, sent back as materialId, as unchanged; another material is the user’s', () => {
    const sentBack = replaceFields(stored({}, {}, CONCRETE), columns({ materialId: CONCRETE.toUpperCase() }), EVERY_FIELD);
    expect(sentBack.userFields).toEqual({});
    expect(sentBack.columns.materialId).toBeNull();
    const chosen = replaceFields(stored({}, {}, CONCRETE), columns({ materialId: STEEL }), EVERY_FIELD);
    expect(chosen.userFields).toEqual({ materialId: { model: null } });
    expect(chosen.columns.materialId).toBe(STEEL);
  });

  it('leaves the fields the request’s version does not carry', () => {
    const v21 = new Set(USER_FIELDS.filter((field) => field !== 'name' && field !== 'materialId'));
    const replaced = replaceFields(stored({ materialId: STEEL }, { materialId: { model: null } }), columns({ name: null, materialId: null, floor: '01' }), v21);
    expect(replaced.columns).toMatchObject({ name: 'Basic Wall', materialId: STEEL, floor: '01' });
    expect(replaced.userFields).toEqual({ materialId: { model: null }, floor: { model: '00 ground floor' } });
  });
});

describe('a new version', () => {
  const edited: UserFields = { name: { model: 'Basic Wall' }, volume: { model: 2.4 }, materialId: { model: null } };
  const mine = columns({ name: 'Outer wall', volume: 3, materialId: STEEL });

  it('keeps the user’s fields where the model did not change them, and takes nothing else of theirs', () => {
    const kept = keepInNewVersion(edited, mine, columns({ area: 13 }));
    expect(kept.columns).toEqual({ name: 'Outer wall', volume: 3, materialId: STEEL });
    expect(kept.userFields).toEqual(edited);
    expect(kept.changes).toBe(0);
  });

  it('notes a field the model changed after the user’s edit, with both values, and remembers the model’s new value', () => {
    const kept = keepInNewVersion(edited, mine, columns({ name: 'Basic Wall 250' }));
    expect(kept.columns.name).toBe('Outer wall');
    expect(kept.userFields.name).toEqual({ model: 'Basic Wall 250', change: { from: 'Basic Wall' } });
    expect(kept.changes).toBe(1);
    // A third version that changes it again still says what the user's edit was made against.
    const third = keepInNewVersion(kept.userFields, mine, columns({ name: 'Basic Wall 300' }));
    expect(third.userFields.name).toEqual({ model: 'Basic Wall 300', change: { from: 'Basic Wall' } });
    // One that goes back to that value has no change left; one that keeps the changed value keeps the change.
    expect(keepInNewVersion(third.userFields, mine, columns()).userFields.name).toEqual({ model: 'Basic Wall' });
    expect(keepInNewVersion(third.userFields, mine, columns({ name: 'Basic Wall 300' })).userFields.name).toEqual(third.userFields.name);
  });

  it('gives a field back to the model where the model now says what the user set', () => {
    const kept = keepInNewVersion(edited, mine, columns({ volume: 3 }));
    expect(kept.columns).not.toHaveProperty('volume');
    expect(kept.userFields).not.toHaveProperty('volume');
  });

  it('compares lookups as lists', () => {
    const lookups: UserFields = { phaseLookup: { model: ['New construction'] } };
    const user = columns({ phaseLookup: '["sloop"]' });
    expect(keepInNewVersion(lookups, user, columns()).userFields).toEqual(lookups);
    expect(keepInNewVersion(lookups, user, columns({ phaseLookup: '["Existing"]' })).userFields).toEqual({
      phaseLookup: { model: ['Existing'], change: { from: ['New construction'] } },
    });
    expect(keepInNewVersion(lookups, user, columns({ phaseLookup: '["sloop"]' })).userFields).toEqual({});
  });

  it('keeps a created element’s fields against a model that now has its id, noting where the model says otherwise', () => {
    const kept = keepInNewVersion(createdUserFields(), mine, columns({ name: 'Outer wall' }));
    expect(kept.userFields).not.toHaveProperty('name');
    expect(kept.userFields.volume).toEqual({ model: 2.4, change: { from: null } });
    expect(kept.userFields.materialId).toEqual({ model: null });
  });
});

describe('a resolution', () => {
  const changed: UserFields = { name: { model: 'Basic Wall 250', change: { from: 'Basic Wall' } }, floor: { model: '00' } };

  it('keeps mine: the user’s value stays and the change is cleared', () => {
    expect(resolveChange(changed, 'name', 'mine')).toEqual({ userFields: { name: { model: 'Basic Wall 250' }, floor: { model: '00' } } });
  });

  it('takes the model’s: its value as the row stores it, and the field is no longer the user’s', () => {
    expect(resolveChange(changed, 'name', 'model')).toEqual({ userFields: { floor: { model: '00' } }, column: 'Basic Wall 250' });
    const lookups: UserFields = { phaseLookup: { model: ['Existing'], change: { from: [] } } };
    expect(resolveChange(lookups, 'phaseLookup', 'model')).toEqual({ userFields: {}, column: '["Existing"]' });
  });

  it('finds nothing to resolve on a field without a change', () => {
    expect(resolveChange(changed, 'floor', 'model')).toBeUndefined();
    expect(resolveChange(changed, 'volume', 'mine')).toBeUndefined();
  });
});

describe('the record', () => {
  it('lists the changes of an element in field order, with both values and the model’s earlier one', () => {
    const userFields: UserFields = {
      phaseLookup: { model: ['Existing'], change: { from: ['New construction'] } },
      name: { model: 'Basic Wall 250', change: { from: 'Basic Wall' } },
      floor: { model: '00' },
    };
    expect(modelChangesOf({ id: 'W1', ...columns({ name: 'Outer wall', phaseLookup: '["sloop"]' }), userFields: userFieldsColumn(userFields) })).toEqual([
      { elementId: 'W1', elementName: 'Outer wall', field: 'name', mine: 'Outer wall', model: 'Basic Wall 250', modelBefore: 'Basic Wall' },
      { elementId: 'W1', elementName: 'Outer wall', field: 'phaseLookup', mine: ['sloop'], model: ['Existing'], modelBefore: ['New construction'] },
    ]);
  });

  it('is stored as null when empty and read back as it was written, without entries that are no field', () => {
    expect(userFieldsColumn({})).toBeNull();
    expect(readUserFields(null)).toEqual({});
    expect(readUserFields(JSON.stringify({ name: { model: 'A' }, colour: { model: 'red' }, floor: 'x' }))).toEqual({ name: { model: 'A' } });
    expect(setsField(userFieldsColumn({ classificationLookup: { model: [] } }), 'classificationLookup')).toBe(true);
    expect(setsField(null, 'classificationLookup')).toBe(false);
    expect(userEditedFlag({}, false)).toBe(0);
    expect(userEditedFlag({}, true)).toBe(1);
    expect(Object.keys(createdUserFields())).toEqual([...USER_FIELDS]);
  });
});
