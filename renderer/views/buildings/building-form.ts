/**
 * The building form's model: every field of the building request, grouped the way a user thinks of a building
 * (identity, address, usage and energy, lifespans per brand layer, labels), the values the form refuses as the user
 * types, and what a filled-in form changes (only the fields the user changed, so a save never overwrites the server's
 * other values with what the form happened to show).
 */
import { INT32_MAX, INT32_MIN } from '../../../shared/api/schema-kit';
import type { BuildingChanges } from '../../db/edit-shapes';
import type { NewBuilding } from '../../db/edits';
import type { BuildingRow } from '../../db/schema';
import { dateOf } from '../portfolios/building-format';
import { countryCodeOf, energyLabelOf, isEnergyLabel } from './building-choices';

/** The groups of the form. */
export type BuildingFormGroup = 'identity' | 'address' | 'usage' | 'lifespans' | 'labels';

/** How a field is entered: text, an int32 or a double of the API, a day (an API date-time), or a portfolio chosen. */
type BuildingFieldKind = 'text' | 'integer' | 'decimal' | 'date' | 'portfolio';

/**
 * The list a text field is chosen from (`building-choices.ts`): an energy label or a country only from theirs, a
 * usage from the platform's or of the user's own.
 */
export type BuildingFieldList = 'energy-label' | 'country' | 'usage';

/**
 * The form's groups and their fields, in the order the form shows them, with how each is entered and its unit when it
 * has one: every field of the building request but `classificationType`, which v2.3 fixes to NL-SfB (the form shows it).
 */
const FORM_GROUPS = [
  {
    group: 'identity',
    fields: [
      { field: 'name', kind: 'text' },
      { field: 'portfolioId', kind: 'portfolio' },
      { field: 'completionDate', kind: 'date' },
      { field: 'lastRenovationDate', kind: 'date' },
      { field: 'cadastralDesignation', kind: 'text' },
      { field: 'parcelnumber', kind: 'text' },
      { field: 'cadastralArea', kind: 'integer', unit: 'm2' },
      { field: 'publicLawRestriction', kind: 'text' },
    ],
  },
  {
    group: 'address',
    fields: [
      { field: 'addressStreet', kind: 'text' },
      { field: 'addressHousenumber', kind: 'text' },
      { field: 'addressHousenumberAddition', kind: 'text' },
      { field: 'addressZipcode', kind: 'text' },
      { field: 'addressCity', kind: 'text' },
      { field: 'addressCountry', kind: 'text', list: 'country' },
    ],
  },
  {
    group: 'usage',
    fields: [
      { field: 'buildingUsage', kind: 'text', list: 'usage' },
      { field: 'grossSurfaceArea', kind: 'decimal', unit: 'm2' },
      { field: 'energyLabel', kind: 'text', list: 'energy-label' },
      { field: 'energyPerformanceCoefficient', kind: 'decimal' },
      { field: 'energyIndex', kind: 'decimal' },
    ],
  },
  {
    group: 'lifespans',
    fields: [
      { field: 'expectedLifespan', kind: 'integer', unit: 'years' },
      { field: 'expectedLifespanStructure', kind: 'integer', unit: 'years' },
      { field: 'expectedLifespanSkin', kind: 'integer', unit: 'years' },
      { field: 'expectedLifespanServices', kind: 'integer', unit: 'years' },
      { field: 'expectedLifespanSpacePlan', kind: 'integer', unit: 'years' },
      { field: 'expectedLifespanStuff', kind: 'integer', unit: 'years' },
    ],
  },
  {
    group: 'labels',
    fields: [
      { field: 'breeamLabel', kind: 'integer' },
      { field: 'leedLabel', kind: 'text' },
      { field: 'gprLabel', kind: 'decimal' },
      { field: 'mpgLabel', kind: 'decimal' },
      { field: 'wellScoreBuilding', kind: 'integer' },
      { field: 'wellScoreInterior', kind: 'integer' },
      { field: 'wellScoreCoreAndShell', kind: 'integer' },
    ],
  },
] as const satisfies readonly {
  group: BuildingFormGroup;
  fields: readonly { field: string; kind: BuildingFieldKind; unit?: 'm2' | 'years'; list?: BuildingFieldList }[];
}[];

type FormFieldSpec = (typeof FORM_GROUPS)[number]['fields'][number];
type FieldOfKind<Kind extends BuildingFieldKind> = Extract<FormFieldSpec, { kind: Kind }>['field'];

/** A text field. */
export type BuildingTextField = FieldOfKind<'text'>;
/** A field the API takes as int32. */
export type BuildingIntegerField = FieldOfKind<'integer'>;
/** A field the API takes as double. */
export type BuildingDecimalField = FieldOfKind<'decimal'>;
/** A field the API takes as date-time; the form picks a day. */
export type BuildingDateField = FieldOfKind<'date'>;
/** A number field. */
export type BuildingNumberField = BuildingIntegerField | BuildingDecimalField;
/** A field of the form; `portfolioId` is chosen from the portfolios. */
export type BuildingFormField = FormFieldSpec['field'];

/** How a field is entered, its unit when it has one, and the list it is chosen from when it is. */
export interface BuildingFieldSpec {
  field: BuildingFormField;
  kind: BuildingFieldKind;
  unit?: 'm2' | 'years';
  list?: BuildingFieldList;
}

/** The form's groups and their fields, in the order the form shows them. */
export const BUILDING_FORM_GROUPS: readonly { group: BuildingFormGroup; fields: readonly BuildingFieldSpec[] }[] = FORM_GROUPS;

const FORM_FIELDS = FORM_GROUPS.flatMap((group): readonly FormFieldSpec[] => group.fields);

function fieldsOfKind<Kind extends BuildingFieldKind>(kind: Kind): readonly FieldOfKind<Kind>[] {
  return FORM_FIELDS.filter((spec): spec is FormFieldSpec & { field: FieldOfKind<Kind> } => spec.kind === kind).map((spec) => spec.field);
}

/** The text fields, in the form's order. */
export const BUILDING_TEXT_FIELDS = fieldsOfKind('text');
/** The int32 fields, in the form's order. */
export const BUILDING_INTEGER_FIELDS = fieldsOfKind('integer');
/** The double fields, in the form's order. */
export const BUILDING_DECIMAL_FIELDS = fieldsOfKind('decimal');
/** The date fields, in the form's order. */
export const BUILDING_DATE_FIELDS = fieldsOfKind('date');

/** Areas cannot be negative. */
const NON_NEGATIVE: ReadonlySet<BuildingFormField> = new Set(FORM_FIELDS.filter((spec) => 'unit' in spec && spec.unit === 'm2').map((spec) => spec.field));
/** Lifespans are at least a year; one left empty is the industry average of its layer. */
const AT_LEAST_A_YEAR: ReadonlySet<BuildingFormField> = new Set(FORM_FIELDS.filter((spec) => 'unit' in spec && spec.unit === 'years').map((spec) => spec.field));

/**
 * What the form holds: text as typed ('' for none), numbers as numbers or null, dates as the picker's timestamp of the
 * chosen day (local midnight) or null, and the portfolio's id.
 */
export type BuildingForm = Record<BuildingTextField, string> &
  Record<BuildingNumberField, number | null> &
  Record<BuildingDateField, number | null> & { portfolioId: string };

/** Why the form refuses a value. */
export type BuildingFieldError =
  | 'required'
  | 'not-whole'
  | 'out-of-range'
  | 'negative'
  | 'under-a-year'
  | 'not-finite'
  | 'before-completion'
  | 'not-an-energy-label'
  | 'not-a-country';

/** The picker's value of an API date: the local midnight of the day the date names in UTC; null when absent or unreadable. */
export function dateFieldOf(value: string | null | undefined): number | null {
  const date = dateOf(value);
  return date === undefined ? null : new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()).getTime();
}

/** The API date of a picked day: its midnight in UTC, so the day reads the same in every time zone. */
export function isoOfDateField(value: number | null): string | null {
  if (value === null) return null;
  const local = new Date(value);
  return new Date(Date.UTC(local.getFullYear(), local.getMonth(), local.getDate())).toISOString();
}

/** The form of a new building in a portfolio: nothing filled in. */
export function emptyBuildingForm(portfolioId: string): BuildingForm {
  const form = { portfolioId } as BuildingForm;
  for (const field of BUILDING_TEXT_FIELDS) form[field] = '';
  for (const field of [...BUILDING_INTEGER_FIELDS, ...BUILDING_DECIMAL_FIELDS, ...BUILDING_DATE_FIELDS]) form[field] = null;
  return form;
}

// Servers other than ours may leave fields out altogether; absent reads like null.
function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The form of a building as the cache holds it. */
export function buildingFormOf(row: BuildingRow): BuildingForm {
  const form = emptyBuildingForm(row.portfolioId);
  for (const field of BUILDING_TEXT_FIELDS) form[field] = row[field] ?? '';
  // A country or an energy label stored in small letters is the same code or label.
  form.addressCountry = countryCodeOf(form.addressCountry) ?? form.addressCountry;
  form.energyLabel = energyLabelOf(form.energyLabel) ?? form.energyLabel;
  for (const field of [...BUILDING_INTEGER_FIELDS, ...BUILDING_DECIMAL_FIELDS]) form[field] = numberOrNull(row[field]);
  for (const field of BUILDING_DATE_FIELDS) form[field] = dateFieldOf(row[field]);
  return form;
}

function numberError(field: BuildingNumberField, value: number, integer: boolean): BuildingFieldError | undefined {
  if (!Number.isFinite(value)) return 'not-finite';
  if (integer && !Number.isInteger(value)) return 'not-whole';
  if (integer && (value < INT32_MIN || value > INT32_MAX)) return 'out-of-range';
  if (NON_NEGATIVE.has(field) && value < 0) return 'negative';
  if (AT_LEAST_A_YEAR.has(field) && value < 1) return 'under-a-year';
  return undefined;
}

/**
 * The values the form refuses, by field: a name that is blank (the API requires one that is not), int32 fields that
 * are not whole or beyond int32, numbers that are not finite, areas below zero, lifespans under a year, a renovation
 * before the completion, an energy label not of the list and a country that is not a country's code.
 */
export function buildingFormErrors(form: BuildingForm): Partial<Record<BuildingFormField, BuildingFieldError>> {
  const errors: Partial<Record<BuildingFormField, BuildingFieldError>> = {};
  if (form.name.trim() === '') errors.name = 'required';
  if (form.portfolioId === '') errors.portfolioId = 'required';
  for (const field of BUILDING_INTEGER_FIELDS) {
    const value = form[field];
    const error = value === null ? undefined : numberError(field, value, true);
    if (error !== undefined) errors[field] = error;
  }
  for (const field of BUILDING_DECIMAL_FIELDS) {
    const value = form[field];
    const error = value === null ? undefined : numberError(field, value, false);
    if (error !== undefined) errors[field] = error;
  }
  if (form.completionDate !== null && form.lastRenovationDate !== null && form.lastRenovationDate < form.completionDate) {
    errors.lastRenovationDate = 'before-completion';
  }
  const energyLabel = form.energyLabel.trim();
  if (energyLabel !== '' && !isEnergyLabel(energyLabel)) errors.energyLabel = 'not-an-energy-label';
  const country = form.addressCountry.trim();
  if (country !== '' && countryCodeOf(country) === null) errors.addressCountry = 'not-a-country';
  return errors;
}

/** The changes from `before` to `after`: the fields that differ, text trimmed, an emptied field as null. */
export function buildingChangesOf(before: BuildingForm, after: BuildingForm): BuildingChanges {
  const changes: BuildingChanges = {};
  for (const field of BUILDING_TEXT_FIELDS) {
    const value = after[field].trim();
    if (value === before[field].trim()) continue;
    // The name is required: the form refuses a blank one before it gets here.
    if (field === 'name') changes.name = value;
    else changes[field] = value === '' ? null : value;
  }
  for (const field of [...BUILDING_INTEGER_FIELDS, ...BUILDING_DECIMAL_FIELDS]) {
    if (after[field] !== before[field]) changes[field] = after[field];
  }
  for (const field of BUILDING_DATE_FIELDS) {
    if (after[field] !== before[field]) changes[field] = isoOfDateField(after[field]);
  }
  if (after.portfolioId !== before.portfolioId) changes.portfolioId = after.portfolioId;
  return changes;
}

/** A new building from a filled-in form: its portfolio, and every field the user filled in. */
export function newBuildingOf(form: BuildingForm): { portfolioId: string; building: NewBuilding } {
  // Both forms name the same portfolio, so the changes hold the building's own fields only.
  const filled = buildingChangesOf(emptyBuildingForm(form.portfolioId), form);
  return { portfolioId: form.portfolioId, building: { ...filled, name: form.name.trim() } };
}
