/**
 * A batch of imported elements as an import worker hands it to the thread that started it. The parts of a split
 * element (ifc/element-parts.ts) differ only in what `PartOwn` holds, so the first part goes whole and the others as
 * those fields alone; the taking thread makes their rows again from the first, sharing its arrays and its `part` as the
 * worker's rows did. Copying an object between threads costs by its fields: a batch of three-layer walls copies a
 * third of the rows whole, and the rows made again cost a fraction of what their copies would.
 */
import type { ImportedElement } from './imported-element';

/** What a part has of its own; everything else is its element's, and so the same as its siblings'. */
export type PartOwn = Pick<ImportedElement, 'id' | 'materialName' | 'volume' | 'width' | 'weight' | 'quantitySource'>;

/** The parts of one element: the first whole, the others by what they have of their own. */
export interface PackedParts {
  first: ImportedElement;
  others: PartOwn[];
}

/** An element as a batch carries it: whole, or the parts of a split element together. */
export type PackedElement = ImportedElement | PackedParts;

/** The row of a part: its first sibling's, with what it has of its own. */
export function partRow(first: ImportedElement, own: PartOwn): ImportedElement {
  return { ...first, ...own };
}

/** A batch with the consecutive parts of each split element (rows sharing one `part`) packed together. */
export function packParts(rows: readonly ImportedElement[]): PackedElement[] {
  const packed: PackedElement[] = [];
  let index = 0;
  while (index < rows.length) {
    const first = rows[index] as ImportedElement;
    index += 1;
    const { part } = first;
    if (part === null || rows[index]?.part !== part) {
      packed.push(first);
      continue;
    }
    const others: PartOwn[] = [];
    for (let row = rows[index]; row !== undefined && row.part === part; row = rows[index]) {
      others.push({ id: row.id, materialName: row.materialName, volume: row.volume, width: row.width, weight: row.weight, quantitySource: row.quantitySource });
      index += 1;
    }
    packed.push({ first, others });
  }
  return packed;
}

/** The rows of a packed batch, in order. */
export function unpackParts(packed: readonly PackedElement[]): ImportedElement[] {
  const rows: ImportedElement[] = [];
  for (const item of packed) {
    if (!('others' in item)) {
      rows.push(item);
      continue;
    }
    rows.push(item.first);
    for (const own of item.others) rows.push(partRow(item.first, own));
  }
  return rows;
}
