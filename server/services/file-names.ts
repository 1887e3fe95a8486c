import { badRequest } from '../errors';

/** Longest file name, for names given by callers and names the server makes. */
const maxFileNameLength = 255;

/**
 * Names Windows reserves for devices, with or without an extension (`CON`, `nul.txt`, `COM1`): a file of that name
 * cannot be saved there, and a client that saves one may write to a device instead.
 */
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;

/**
 * A file name from the caller: a name, never a path (decisions §11), at most 255 characters, and one every desktop
 * system can save: no Windows device name, no `:` (an NTFS stream, a drive), no trailing dot or space.
 */
export function checkedFileName(name: string, field: string): string {
  const reason =
    name.length === 0
      ? 'is empty'
      : name.length > maxFileNameLength
        ? `is longer than ${maxFileNameLength} characters`
        : name === '.' || name.includes('..')
          ? "contains '..'"
          : /[/\\]/.test(name)
            ? 'contains a path separator'
            : [...name].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)
              ? 'contains a control character'
              : name.includes(':')
                ? "contains ':'"
                : /[. ]$/.test(name)
                  ? 'ends with a dot or a space'
                  : WINDOWS_DEVICE_NAME.test(name)
                    ? 'is a name Windows reserves for a device'
                    : undefined;
  if (reason !== undefined) throw badRequest(`${field} must be a file name: it ${reason}.`, [{ path: field, message: reason }]);
  return name;
}

/** A file name made from a title: path separators, control characters and `..` become harmless (decisions §11). */
export function fileNameFromTitle(title: string, suffix: string): string {
  const name = title
    .replace(/[/\\\p{Cc}]/gu, '-')
    .replace(/\.{2,}/g, '.')
    .trim();
  return `${name.slice(0, maxFileNameLength - suffix.length)}${suffix}`;
}
