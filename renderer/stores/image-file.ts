/**
 * The checks an image passes before it is sent to the server (a building's image, a portfolio's logo): PNG or JPEG by
 * its declared type and by its first bytes, at most 10 MiB, not empty, and a file name the API takes (a name, never a
 * path). Pure, so the screens can say what is wrong before anything is sent, in the user's language.
 */
import { MAX_IMAGE_UPLOAD_BYTES, type ImageContentType } from '../../shared/ipc';

/** The largest image that is sent, 10 MiB: the server's limit for a logo, and the bridge's for any image. */
export const MAX_IMAGE_BYTES = MAX_IMAGE_UPLOAD_BYTES;

/** What the file picker offers. */
export const IMAGE_ACCEPT = 'image/png,image/jpeg';

/** Why an image is not sent: not PNG/JPEG (by its type or its bytes), empty, or larger than 10 MiB. */
export type ImageFileProblem = { kind: 'not-an-image' } | { kind: 'empty' } | { kind: 'too-big'; size: number };

/** An image ready to send: its type as its bytes say, and the file name it is stored under. */
export interface CheckedImage {
  contentType: ImageContentType;
  fileName: string;
}

/** The outcome of the checks. */
export type ImageFileCheck = { ok: true; image: CheckedImage } | { ok: false; problem: ImageFileProblem };

const MAX_FILE_NAME_LENGTH = 255;

const EXTENSIONS: Record<ImageContentType, readonly string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg', '.jpe', '.jfif'],
};

/** The image type the first bytes of a file announce: PNG `\x89PNG`, JPEG `FF D8 FF`; undefined for anything else. */
export function sniffImageType(head: Uint8Array): ImageContentType | undefined {
  if (head.length >= 4 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/**
 * A file name the API takes, made from the name of a picked file: only its last path segment, control characters and
 * separators replaced, no `..`, at most 255 characters with the extension kept, and an extension of its type when it
 * has none that fits.
 */
export function sanitiseImageFileName(name: string, contentType: ImageContentType): string {
  const lastSegment = name.split(/[/\\]/).pop() ?? '';
  let cleaned = lastSegment
    .replace(/\p{Cc}/gu, '-')
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/^\.+/, '');
  const lower = cleaned.toLowerCase();
  if (!EXTENSIONS[contentType].some((extension) => lower.endsWith(extension))) {
    const base = cleaned === '' ? 'image' : cleaned;
    cleaned = `${base}${EXTENSIONS[contentType][0] ?? ''}`;
  }
  if (cleaned.length <= MAX_FILE_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = cleaned.slice(dot);
  return `${cleaned.slice(0, MAX_FILE_NAME_LENGTH - extension.length)}${extension}`;
}

/**
 * Checks what a file says of itself (`type`, `size`, `name`) and its first bytes. A file that declares no type (some
 * systems give none for a dropped file) is judged by its bytes alone; one that declares another type than its bytes
 * show is refused, because the server stores the declared type.
 */
export function checkImage(file: { name: string; type: string; size: number }, head: Uint8Array): ImageFileCheck {
  const declared = file.type;
  if (declared !== '' && declared !== 'image/png' && declared !== 'image/jpeg') return { ok: false, problem: { kind: 'not-an-image' } };
  if (file.size === 0) return { ok: false, problem: { kind: 'empty' } };
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, problem: { kind: 'too-big', size: file.size } };
  const sniffed = sniffImageType(head);
  if (sniffed === undefined || (declared !== '' && declared !== sniffed)) return { ok: false, problem: { kind: 'not-an-image' } };
  return { ok: true, image: { contentType: sniffed, fileName: sanitiseImageFileName(file.name, sniffed) } };
}

/** Reads the first bytes of a file and checks it. */
export async function checkImageFile(file: File): Promise<ImageFileCheck> {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return checkImage(file, head);
}

/** The bytes of a file as base64, as the bridge carries them; in slices, so a large image never builds one huge argument list. */
export function base64Of(bytes: Uint8Array): string {
  const slice = 0x8000;
  let binary = '';
  for (let start = 0; start < bytes.length; start += slice) {
    binary += String.fromCharCode(...bytes.subarray(start, start + slice));
  }
  return btoa(binary);
}
