/**
 * An element of a layered or composite material as one element per part (material-splits.ts), and the tally of what
 * the splitting did over an import. A part keeps everything of its element but its id, material and share of the
 * quantities:
 * - id `<GlobalId>-L<n>` for a layer, `<GlobalId>-C<n>` for a constituent or listed material, n from 1 in the set's
 *   order over the parts made (a contract: checks and a user's edits on a new version find a part by it);
 * - a layer's volume is the element's area × its thickness where the element has an area, else the element's volume
 *   by its share (the thickness over the parts' total); its width is its thickness; a constituent's or listed
 *   material's volume is the element's by its share; the weight is shared as the volume is where there is one;
 * - area, length and height are the element's.
 * The parts share the element's lookup and hint arrays (never changed once made) and one `part`: a batch hands them
 * over packed (../part-batches.ts).
 */
import type { ImportPartsFindings } from '../../../shared/api';
import { NO_PARTS, quantitySourceOf, type ImportedElement } from '../imported-element';
import { partRow, type PartOwn } from '../part-batches';
import type { MaterialSplit } from './material-splits';

/** Adds what splitting an element did to `findings`, and answers its parts, or the element itself when it stays whole. */
export function splitElement(element: ImportedElement, split: MaterialSplit | null, findings: ImportPartsFindings): ImportedElement[] {
  if (split === null) return [element];
  findings.layersLeftOut += split.layersLeftOut;
  const { parts } = split;
  if (parts.length < 2) return [element];
  findings.elementsSplit += 1;
  findings.partsMade += parts.length;
  if (split.shareAssumed) findings.elementsWithAssumedShares += 1;
  if (split.fractionsNormalised) findings.elementsWithFractionsNormalised += 1;

  const prefix = `${element.id}-${split.kind === 'layer' ? 'L' : 'C'}`;
  const { volume, area, weight } = element;
  const byArea = area !== null && area > 0;
  const owns = parts.map(({ name, share, thickness }, index): PartOwn => {
    if (name === null) findings.partsWithoutMaterial += 1;
    const partVolume = thickness !== null && byArea ? area * thickness : volume === null ? null : volume * share;
    const partWeight = weight === null ? null : weight * share;
    return {
      id: `${prefix}${index + 1}`,
      materialName: name,
      volume: partVolume,
      width: thickness ?? element.width,
      weight: partWeight,
      // An element without a volume or weight of its own may get one here from the model's area and thicknesses.
      quantitySource: element.quantitySource ?? quantitySourceOf(partVolume, partWeight),
    };
  });
  // The first part carries the element's fields and `part`; the others are made from it as the thread taking the
  // batch makes them again (part-batches.ts), sharing its arrays and `part`.
  const first: ImportedElement = { ...element, ...owns[0], part: { of: element.id, kind: split.kind, shareAssumed: split.shareAssumed } };
  return [first, ...owns.slice(1).map((own) => partRow(first, own))];
}

/** A fresh tally. */
export function noPartsYet(): ImportPartsFindings {
  return { ...NO_PARTS };
}
