import { badRequest } from '../errors';

/** A file name from the caller: a name, never a path (decisions §11), at most 255 characters. */
export function checkedFileName(name: string, field: string): string {
  const reason =
    name.length === 0
      ? 'is empty'
      : name.length > 255
        ? 'is longer than 255 characters'
        : name === '.' || name.includes('..')
          ? "contains '..'"
          : /[/\\]/.test(name)
            ? 'contains a path separator'
            : [...name].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)
              ? 'contains a control character'
              : undefined;
  if (reason !== undefined) throw badRequest(`${field} must be a file name: it ${reason}.`, [{ path: field, message: reason }]);
  return name;
}
