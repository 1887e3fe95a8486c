/**
 * What a file added on a building becomes, by its name: an IFC model or a spreadsheet is a source file (type 0, which
 * the server imports and maps), a PDF or an image an information file (type 1, stored as it is); anything else, an
 * empty file and one over the server's limit are refused before anything is sent. Pure, so the page can say why at once.
 */
import { MAX_UPLOAD_BYTES } from '../../../shared/uploads';

/** What a file becomes, or why it is refused. */
export type UploadKind =
  | { kind: 'source' }
  | { kind: 'information' }
  | { kind: 'refused'; reason: 'unknown-type' | 'empty' | 'too-large' };

const SOURCE_EXTENSIONS = ['.ifc', '.xlsx', '.csv'] as const;
const INFORMATION_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.tif', '.tiff', '.bmp'] as const;

/** What the file inputs offer (the user may still pick any file; `uploadKindOf` decides). */
export const BUILDING_FILE_ACCEPT = [...SOURCE_EXTENSIONS, ...INFORMATION_EXTENSIONS].join(',');

/** What the input for a source file's new version offers. */
export const SOURCE_FILE_ACCEPT = SOURCE_EXTENSIONS.join(',');

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/** Whether a name is that of a source file (a model or a spreadsheet). */
export function isSourceName(name: string): boolean {
  return (SOURCE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** Refuses an empty file and one over the server's limit; undefined when its size is fine. */
export function sizeProblem(size: number): 'empty' | 'too-large' | undefined {
  if (size === 0) return 'empty';
  return size > MAX_UPLOAD_BYTES ? 'too-large' : undefined;
}

/** What a file of this name and size becomes on a building. */
export function uploadKindOf(name: string, size: number): UploadKind {
  const extension = extensionOf(name);
  const source = (SOURCE_EXTENSIONS as readonly string[]).includes(extension);
  if (!source && !(INFORMATION_EXTENSIONS as readonly string[]).includes(extension)) return { kind: 'refused', reason: 'unknown-type' };
  const problem = sizeProblem(size);
  if (problem !== undefined) return { kind: 'refused', reason: problem };
  return source ? { kind: 'source' } : { kind: 'information' };
}
