import type { LocalizedText, LocalizedTextRequest } from '../../shared/api';
import { enumValue, type EnumInput, type EnumObject, type EnumValue } from '../../shared/api';
import { badRequest, type ApiError } from '../errors';

/** The languages of a localized text, in the order the API documents them. */
const LANGUAGES = ['nl', 'en', 'de', 'it', 'fr', 'es'] as const;

/** 400 naming one request field by its path (`circular.recycledPercentageFeedstock`, `0.childId`). */
export function invalidField(path: string, message: string): ApiError {
  return badRequest(`${path}: ${message}.`, [{ path, message }]);
}

/** The path of a field of the item at `index` of a list body (`1.currency`), or of a single-item body (`currency`). */
export function itemPath(index: number | undefined, field: string): string {
  return index === undefined ? field : `${index}.${field}`;
}

/** The integer of an enum input that may be a name (decisions §1), or 400 naming the field. */
export function checkedEnum<E extends EnumObject>(enumObject: E, input: EnumInput<E>, path: string): EnumValue<E> {
  const value = enumValue(enumObject, input);
  if (value === undefined) throw invalidField(path, `'${String(input)}' is not one of ${Object.keys(enumObject).join(', ')}`);
  return value;
}

/** The JSON column of a localized text: the languages that have a text; absent or null ones are left out. */
export function localizedTextColumn(request: LocalizedTextRequest | null | undefined): string {
  const text: LocalizedText = {};
  for (const language of LANGUAGES) {
    const value = request?.[language];
    if (typeof value === 'string') text[language] = value;
  }
  return JSON.stringify(text);
}
