/**
 * What an element has of what makes it count (shared/counting.ts), read through the catalogue: its mass and circular
 * rows come from the same expansion the circularity index uses, so an element counts here exactly when
 * `circularAnalysis` counts it.
 */
import { countingTally, isMeasured, type Counting, type CountingFacts } from '../../shared/counting';
import { hasCircularRows } from './circularity';
import { findProduct, isKnownLayer, layerOf, type CalcCatalogue, type CalcElement } from './inputs';
import { expandElement } from './mass';

/** The type a mapping's mass is measured by: a product's own type (it may have changed since the mapping was made). */
function measuredType(element: CalcElement, catalogue: CalcCatalogue): number | null {
  const mapping = element.mapping;
  if (mapping === null || mapping === undefined) return null;
  return findProduct(catalogue, mapping.id)?.type ?? mapping.type;
}

/** The facts of one element. */
export function countingFacts(element: CalcElement, catalogue: CalcCatalogue): CountingFacts {
  const expansion = expandElement(element, catalogue);
  const type = measuredType(element, catalogue);
  return {
    mapped: element.mapping !== null && element.mapping !== undefined,
    measured: type !== null && isMeasured(element, type),
    weighed: expansion.contributions.some((part) => part.mass > 0),
    layered: isKnownLayer(layerOf(element.brandLayerId)),
    circular: hasCircularRows(element, expansion),
  };
}

/** How many of the elements count and why the others do not; `fileCounts`: they are in files that count. */
export function countElements(elements: Iterable<CalcElement>, catalogue: CalcCatalogue, fileCounts: boolean): Counting {
  const tally = countingTally(fileCounts);
  for (const element of elements) tally.add(countingFacts(element, catalogue), element.volume);
  return tally.finish();
}
