/**
 * What a split element's parent row holds of its parts: the value they share (name, class, type, floor …, and the
 * dimensions of a layer: its area, height, length), and for the quantities that add up (volume, weight) their sum.
 * The grid shows these and a sort orders a split element by them.
 */
import type { ElementColumnKey } from './element-columns';

/** Quantities a split element has as the sum of its parts'. */
const SUMMED: ReadonlySet<ElementColumnKey> = new Set(['volume', 'weight']);

/** The value every one of `values` is, or null when they differ (or there are none). */
export function sharedValue<T>(values: readonly T[]): T | null {
  const [first] = values;
  if (first === undefined) return null;
  return values.every((value) => value === first) ? first : null;
}

/** A parent's quantity of column `key`: the sum of its parts' (none when none has one), or the value they share. */
export function parentQuantity(key: ElementColumnKey, values: readonly (number | null)[]): number | null {
  if (!SUMMED.has(key)) return sharedValue(values);
  let sum = 0;
  let any = false;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    any = true;
  }
  return any ? sum : null;
}
