/**
 * The catalogue editor's model for an item's own fields: names and descriptions per language, the texts, the figures
 * (identity, circular and financial blocks) with the limits the API's request schemas set, and the changes a filled-in
 * form makes (only what the user changed, so a save never overwrites the server's other values).
 *
 * Percentages travel as fractions 0..1 (decisions §1) and are edited as 0..100 %; limits are read from the schemas in
 * wire units and shown in the form's units. Values the API takes but the method would not make sense of (a share over
 * 100 %, shares adding up to more than the whole) are warnings, not errors: the server would store them.
 */
import type { TObject } from 'typebox';
import { FinancialImportType, ProductType } from '../../../shared/api/enums';
import {
  LocalizedText,
  MaterialCircularInformationRequest,
  MaterialFinancialInformationRequest,
  MaterialRequest,
  ProductCircularInformationRequest,
} from '../../../shared/api/schemas';
import type { MaterialChanges, ProductChanges } from '../../db/edit-shapes';
import { getField, withField } from '../../db/field-paths';
import type { MaterialRow, ProductRow } from '../../db/schema';
import type { CatalogueKind } from '../../stores/catalogues';

/** Whether a route parameter names a catalogue. */
export function isCatalogueKind(value: unknown): value is CatalogueKind {
  return value === 'materials' || value === 'products';
}

/** A language of the API's texts, in the schema's order. */
export type Language = keyof LocalizedText;

/** The languages a name or description has (nl en de it fr es), read from the schema. */
export const LANGUAGES = Object.keys(LocalizedText.properties) as Language[];

/** A text per language as the form holds it ('' for none). */
export type LocalizedForm = Record<Language, string>;

/** What a figure measures, which decides how it is shown and edited. */
export type FigureUnit = 'percent' | 'years' | 'kgPerM3' | 'eurPerKg' | 'number';

/** Where a figure shows in the editor. */
export type FigureGroup = 'identity' | 'circular' | 'financial';

/** A figure's limits in wire units, as the request schema states them. */
export interface FigureLimits {
  minimum?: number;
  maximum?: number;
  integer: boolean;
}

/** One figure of the form: its path in the request (`circular.recycledPercentageFeedstock`), group, unit and limits. */
export interface FigureSpec {
  path: string;
  group: FigureGroup;
  unit: FigureUnit;
  limits: FigureLimits;
}

/** The units of figures whose name does not say (percentages say `Percentage`, lifetimes `Lifetime`). */
const NAMED_UNITS: Readonly<Record<string, FigureUnit>> = {
  specificWeight: 'kgPerM3',
  lifeTime: 'years',
  transportCosts: 'eurPerKg',
  handlingFeedstockEuroKg: 'eurPerKg',
};

function unitOf(name: string): FigureUnit {
  if (name.includes('Percentage')) return 'percent';
  if (name.endsWith('Lifetime')) return 'years';
  return NAMED_UNITS[name] ?? 'number';
}

function typesOf(property: Record<string, unknown>): string[] {
  const type = property['type'];
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((each): each is string => typeof each === 'string') : [];
}

/** The limits of a numeric property of a schema. */
export function limitsOf(schema: TObject, name: string): FigureLimits {
  const property = (schema.properties[name] ?? {}) as Record<string, unknown>;
  const limits: FigureLimits = { integer: typesOf(property).includes('integer') };
  if (typeof property['minimum'] === 'number') limits.minimum = property['minimum'];
  if (typeof property['maximum'] === 'number') limits.maximum = property['maximum'];
  return limits;
}

/** The numeric properties of a schema (enums, texts and flags left out), in the schema's order. */
export function numericFields(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => typesOf(property as Record<string, unknown>).some((type) => type === 'number' || type === 'integer'))
    .map(([name]) => name);
}

function figures(schema: TObject, group: FigureGroup, prefix: string, only?: readonly string[]): FigureSpec[] {
  return numericFields(schema)
    .filter((name) => only === undefined || only.includes(name))
    .map((name) => ({ path: `${prefix}${name}`, group, unit: unitOf(name), limits: limitsOf(schema, name) }));
}

/** Every figure of each catalogue's form, in the order the editor shows them. */
export const FIGURES: Readonly<Record<CatalogueKind, readonly FigureSpec[]>> = {
  materials: [
    ...figures(MaterialRequest, 'identity', ''),
    ...figures(MaterialCircularInformationRequest, 'circular', 'circular.'),
    ...figures(MaterialFinancialInformationRequest, 'financial', 'financial.'),
  ],
  products: figures(ProductCircularInformationRequest, 'circular', 'circular.'),
};

/** The free texts of each catalogue's form besides names and descriptions. */
export const TEXT_FIELDS = {
  materials: ['elementFamily', 'supplier', 'financial.priceSetId'],
  products: ['supplier', 'productCode'],
} as const satisfies Readonly<Record<CatalogueKind, readonly string[]>>;

/** A free text field of either form. */
export type TextField = (typeof TEXT_FIELDS)[CatalogueKind][number];

/** A part of the circular block, as the editor groups its figures. */
export type CircularSection = 'feedstock' | 'endOfLife' | 'efficiency' | 'lifetimes' | 'productFeedstock' | 'productEndOfLife';

/** The sections in the order the editor shows them. */
export const CIRCULAR_SECTIONS: readonly CircularSection[] = ['feedstock', 'endOfLife', 'efficiency', 'lifetimes', 'productFeedstock', 'productEndOfLife'];

/**
 * The sections whose shares make up one whole (what an item is made of, where it goes at its end of life): a sum
 * over 100 % is a warning. A product has the shares of its own material and those of the product as a whole.
 */
const SHARE_SECTIONS: ReadonlySet<CircularSection> = new Set(['feedstock', 'endOfLife', 'productFeedstock', 'productEndOfLife']);

/** The section of a circular figure, by its name in the API. */
export function circularSectionOf(path: string): CircularSection {
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (name.startsWith('efficiency')) return 'efficiency';
  if (name.endsWith('Lifetime')) return 'lifetimes';
  const product = name.startsWith('product');
  if (name.endsWith('EndOfLife')) return product ? 'productEndOfLife' : 'endOfLife';
  return product ? 'productFeedstock' : 'feedstock';
}

/** The circular figures of a catalogue by section, sections without figures left out. */
export function circularSections(kind: CatalogueKind): Array<{ section: CircularSection; specs: FigureSpec[] }> {
  const circular = FIGURES[kind].filter((spec) => spec.group === 'circular');
  return CIRCULAR_SECTIONS.map((section) => ({ section, specs: circular.filter((spec) => circularSectionOf(spec.path) === section) })).filter(
    (entry) => entry.specs.length > 0,
  );
}

/** What the form holds: texts as typed, figures in the form's units (null for none), and the item's one choice. */
export interface ItemForm {
  name: LocalizedForm;
  description: LocalizedForm;
  texts: Record<string, string>;
  figures: Record<string, number | null>;
  /** A material's financial import type; a product's type (null until chosen for a new product). */
  choice: number | null;
}

/** The path of each catalogue's choice. */
export const CHOICE_FIELD: Readonly<Record<CatalogueKind, string>> = { materials: 'financial.importType', products: 'type' };

/** The choices of each catalogue, in the order the editor lists them. */
export const CHOICES: Readonly<Record<CatalogueKind, readonly number[]>> = {
  materials: Object.values(FinancialImportType),
  products: Object.values(ProductType),
};

/** A number without the noise of binary fractions (0.07 × 100 = 7.000000000000001). */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

/** A figure as the form shows it. */
export function toFormUnit(unit: FigureUnit, wire: number): number {
  return unit === 'percent' ? tidy(wire * 100) : wire;
}

/** A figure as the API takes it. */
export function toWireUnit(unit: FigureUnit, shown: number): number {
  return unit === 'percent' ? tidy(shown / 100) : shown;
}

function localizedForm(text: unknown): LocalizedForm {
  const form = Object.fromEntries(LANGUAGES.map((language) => [language, ''])) as LocalizedForm;
  if (typeof text !== 'object' || text === null) return form;
  for (const language of LANGUAGES) {
    const value = (text as Record<string, unknown>)[language];
    if (typeof value === 'string') form[language] = value;
  }
  return form;
}

/** The form of a cached item. */
export function itemFormOf(kind: CatalogueKind, row: MaterialRow | ProductRow): ItemForm {
  const texts: Record<string, string> = {};
  for (const path of TEXT_FIELDS[kind]) {
    const value = getField(row, path);
    texts[path] = typeof value === 'string' ? value : '';
  }
  const values: Record<string, number | null> = {};
  for (const spec of FIGURES[kind]) {
    const value = getField(row, spec.path);
    values[spec.path] = typeof value === 'number' ? toFormUnit(spec.unit, value) : null;
  }
  const choice = getField(row, CHOICE_FIELD[kind]);
  return {
    name: localizedForm(row.name),
    description: localizedForm(row.description),
    texts,
    figures: values,
    choice: typeof choice === 'number' ? choice : null,
  };
}

/** The form of a new item: nothing filled in; a material imports no prices, a product's type is yet to be chosen. */
export function emptyItemForm(kind: CatalogueKind): ItemForm {
  return {
    name: localizedForm(null),
    description: localizedForm(null),
    texts: Object.fromEntries(TEXT_FIELDS[kind].map((path) => [path, ''])),
    figures: Object.fromEntries(FIGURES[kind].map((spec) => [spec.path, null])),
    choice: kind === 'materials' ? FinancialImportType.None : null,
  };
}

/** Why the form refuses a value; limits in the form's units. */
export type FigureError = { kind: 'notFinite' } | { kind: 'notInteger' } | { kind: 'below'; limit: number } | { kind: 'above'; limit: number };

/** Why the form refuses to save: per figure, and the name or product type missing. */
export interface ItemErrors {
  figures: Partial<Record<string, FigureError>>;
  /** A name in no language: the item could not be found again, in a list or by the sync. */
  nameMissing: boolean;
  /** A new product without a type: the API requires one. */
  choiceMissing: boolean;
}

/** A value the API takes that is most likely a mistake. */
export type FigureWarning = 'outsideWhole' | 'negative';

/** Likely mistakes: per figure, and sections of shares adding up to more than 100 % (with their total, in %). */
export interface ItemWarnings {
  figures: Partial<Record<string, FigureWarning>>;
  sums: Array<{ section: CircularSection; total: number }>;
}

/** The error of one figure, or undefined when its value is acceptable. */
export function figureError(spec: FigureSpec, value: number | null): FigureError | undefined {
  if (value === null) return undefined;
  if (!Number.isFinite(value)) return { kind: 'notFinite' };
  const wire = toWireUnit(spec.unit, value);
  if (spec.limits.integer && !Number.isInteger(wire)) return { kind: 'notInteger' };
  if (spec.limits.minimum !== undefined && wire < spec.limits.minimum) return { kind: 'below', limit: toFormUnit(spec.unit, spec.limits.minimum) };
  if (spec.limits.maximum !== undefined && wire > spec.limits.maximum) return { kind: 'above', limit: toFormUnit(spec.unit, spec.limits.maximum) };
  return undefined;
}

/** Whether a form holds a name in some language. */
export function hasName(form: ItemForm): boolean {
  return LANGUAGES.some((language) => form.name[language].trim() !== '');
}

/** The values the form refuses. `isNew`: a product must then get its type. */
export function itemErrors(kind: CatalogueKind, form: ItemForm, isNew: boolean): ItemErrors {
  const errors: ItemErrors['figures'] = {};
  for (const spec of FIGURES[kind]) {
    const error = figureError(spec, form.figures[spec.path] ?? null);
    if (error !== undefined) errors[spec.path] = error;
  }
  return { figures: errors, nameMissing: !hasName(form), choiceMissing: isNew && kind === 'products' && form.choice === null };
}

/** Whether the form can be saved. */
export function isItemValid(errors: ItemErrors): boolean {
  return Object.keys(errors.figures).length === 0 && !errors.nameMissing && !errors.choiceMissing;
}

/** The likely mistakes of a form. */
export function itemWarnings(kind: CatalogueKind, form: ItemForm): ItemWarnings {
  const warnings: ItemWarnings['figures'] = {};
  for (const spec of FIGURES[kind]) {
    const value = form.figures[spec.path] ?? null;
    if (value === null || !Number.isFinite(value) || figureError(spec, value) !== undefined) continue;
    if (spec.unit === 'percent' && (value < 0 || value > 100)) warnings[spec.path] = 'outsideWhole';
    else if (value < 0) warnings[spec.path] = 'negative';
  }
  const sums: ItemWarnings['sums'] = [];
  for (const { section, specs } of circularSections(kind)) {
    if (!SHARE_SECTIONS.has(section)) continue;
    const total = tidy(specs.reduce((sum, spec) => sum + (form.figures[spec.path] ?? 0), 0));
    if (Number.isFinite(total) && total > 100) sums.push({ section, total });
  }
  return { figures: warnings, sums };
}

/**
 * The changes from `before` to `after`, in the API's request terms: changed languages of the name and description
 * (an emptied one as ''), texts trimmed with an emptied one as null, figures in wire units. A product's type is always
 * part of the changes of a new product (the API requires it); the caller adds it.
 */
export function itemChangesOf(kind: CatalogueKind, before: ItemForm, after: ItemForm): MaterialChanges & ProductChanges {
  let changes: Record<string, unknown> = {};
  for (const field of ['name', 'description'] as const) {
    for (const language of LANGUAGES) {
      const value = after[field][language].trim();
      if (value !== before[field][language].trim()) changes = withField(changes, `${field}.${language}`, value);
    }
  }
  for (const path of TEXT_FIELDS[kind]) {
    const value = (after.texts[path] ?? '').trim();
    if (value !== (before.texts[path] ?? '').trim()) changes = withField(changes, path, value === '' ? null : value);
  }
  for (const spec of FIGURES[kind]) {
    const was = before.figures[spec.path] ?? null;
    const now = after.figures[spec.path] ?? null;
    const wire = (value: number | null): number | null => (value === null ? null : toWireUnit(spec.unit, value));
    if (wire(was) !== wire(now)) changes = withField(changes, spec.path, wire(now));
  }
  if (after.choice !== before.choice && after.choice !== null) changes = withField(changes, CHOICE_FIELD[kind], after.choice);
  // The paths come from the request schemas of this catalogue, so the record is that catalogue's change.
  return changes as MaterialChanges & ProductChanges;
}

/** The language whose name of an item shows in `language`: that one, else English, else the first that has one. */
function shownLanguage(text: LocalizedText | undefined, language: string): string | null {
  if (text === undefined) return null;
  const order = [language, 'en', ...LANGUAGES];
  return order.find((each) => ((text as Record<string, string | undefined>)[each] ?? '').trim() !== '') ?? null;
}

/** The name of an item in a language, else in English, else in the first language that has one; '' for none. */
export function displayName(text: LocalizedText | undefined, language: string): string {
  const shown = shownLanguage(text, language);
  return shown === null ? '' : ((text as Record<string, string | undefined>)[shown] ?? '');
}

/** The language of the name `displayName` shows when it is not `language` (a fallback to mark); null otherwise. */
export function fallbackLanguage(text: LocalizedText | undefined, language: string): string | null {
  const shown = shownLanguage(text, language);
  return shown === language ? null : shown;
}

/**
 * A number as typed in the user's way: a decimal comma or point, spaces ignored; null for nothing, NaN for something
 * that is not a number (so the form refuses it rather than keep the last value).
 */
export function parseNumberText(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (compact === '') return null;
  const normal = compact.includes('.') ? compact : compact.replace(',', '.');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(normal) ? Number(normal) : Number.NaN;
}
