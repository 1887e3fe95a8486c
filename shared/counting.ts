/**
 * What counts in the circularity index and why an element does not (decisions §6): the one computation behind a
 * file's status summary, its import report, the counts of the building's dashboard and those of its passports. Pure:
 * the server gives each element's facts (its mass needs the catalogue: server/calc/counting.ts); the app reads the
 * same reasons in the same order, and groups elements as the report does to fix a group at once.
 */
import { ElementType, ProductType } from './api/enums';
import { NOT_COUNTED_REASONS, type NotCountedReason } from './api/schemas/import-report';

/** What an element has of what makes it count. */
export interface CountingFacts {
  /** Mapped to a material or product. */
  mapped: boolean;
  /** A weight, or the quantity its mapping is measured by (`isMeasured`). */
  measured: boolean;
  /** A mass > 0, from its weight or its mapping (a volume times a specific weight, a product's composition). */
  weighed: boolean;
  /** One of the six known building layers. */
  layered: boolean;
  /** A part with circular data and a mass: it gives the circularity index a row. */
  circular: boolean;
}

/**
 * Why an element does not count, the first reason that applies in the order of `NOT_COUNTED_REASONS`, or null when it
 * counts. The element's own reasons come before its file's, so an inactive file's report still says what to fix in it.
 */
export function notCountedReason(facts: CountingFacts, fileCounts: boolean): NotCountedReason | null {
  if (!facts.mapped) return 'no-material';
  if (!facts.measured) return 'no-quantity';
  if (!facts.weighed) return 'no-mass';
  if (!facts.layered) return 'no-building-layer';
  if (!facts.circular) return 'no-circular-data';
  return fileCounts ? null : 'file-not-counted';
}

/** What one unit of a mapping is: a cubic metre (a material, a volume product), a square metre, a metre, a piece. */
export type Measure = 'volume' | 'area' | 'length' | 'piece';

/** The measure of an ElementType or ProductType (10 material, 20–50 products); null for a type that is neither. */
export function measureOf(type: number): Measure | null {
  switch (type) {
    case ElementType.Material:
    case ProductType.VolumeProduct:
      return 'volume';
    case ProductType.AreaProduct:
      return 'area';
    case ProductType.LengthProduct:
      return 'length';
    case ProductType.QuantityProduct:
      return 'piece';
    default:
      return null;
  }
}

/** The quantities an element carries. */
export interface ElementQuantities {
  weight?: number | null;
  volume?: number | null;
  area?: number | null;
  length?: number | null;
  /** Pieces, for a quantity product; absent or null: one. */
  count?: number | null;
}

function present(value: number | null | undefined): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * Whether an element has what a mapping of `type` reads its mass from: a weight, else the quantity of the type's
 * measure (an element is one piece of a quantity product). Without it no catalogue can give the element a mass.
 */
export function isMeasured(element: ElementQuantities, type: number): boolean {
  if (present(element.weight)) return true;
  const measure = measureOf(type);
  switch (measure) {
    case 'volume':
      return present(element.volume);
    case 'area':
      return present(element.area);
    case 'length':
      return present(element.length);
    case 'piece':
      return element.count === null || element.count === undefined || present(element.count);
    case null:
      return false;
  }
}

// --- groups ------------------------------------------------------------------------------------------------------------

/** What a mapped element is mapped to: `type` an ElementType. */
export interface MappedItem {
  type: number;
  id: string;
}

/** What the report groups an element by. */
export interface GroupedElement {
  materialName?: string | null;
  elementClass?: string | null;
  typeName?: string | null;
  mapping?: MappedItem | null;
}

/**
 * A group of elements that one fix handles together. Unmapped elements go by material name, else (the model names no
 * material) by IFC class and type name; elements without a quantity by IFC class and type name; those without a mass
 * or circular data by what they are mapped to; those without a building layer by IFC class. Other fields are null.
 */
export interface ElementGroupKey {
  materialName: string | null;
  elementClass: string | null;
  typeName: string | null;
  mapping: MappedItem | null;
}

/** A text that names something, else null (absent, empty or only blanks). */
export function named(text: string | null | undefined): string | null {
  return text === null || text === undefined || text.trim() === '' ? null : text;
}

const NO_KEY: ElementGroupKey = { materialName: null, elementClass: null, typeName: null, mapping: null };

/** The group of an unmapped element: its material name, else its IFC class and type name. */
export function unmappedGroupKey(element: GroupedElement): ElementGroupKey {
  const materialName = named(element.materialName);
  if (materialName !== null) return { ...NO_KEY, materialName };
  return { ...NO_KEY, elementClass: named(element.elementClass), typeName: named(element.typeName) };
}

/** The group of an element that does not count for `reason`. */
export function reasonGroupKey(reason: NotCountedReason, element: GroupedElement): ElementGroupKey {
  switch (reason) {
    case 'no-material':
      return unmappedGroupKey(element);
    case 'no-quantity':
      return { ...NO_KEY, elementClass: named(element.elementClass), typeName: named(element.typeName) };
    case 'no-mass':
    case 'no-circular-data':
      return { ...NO_KEY, mapping: element.mapping === null || element.mapping === undefined ? null : { type: element.mapping.type, id: element.mapping.id.toLowerCase() } };
    case 'no-building-layer':
      return { ...NO_KEY, elementClass: named(element.elementClass) };
    case 'file-not-counted':
      return NO_KEY;
  }
}

/** A group key as one text, equal for equal keys (a map's key, a list's key). */
export function groupKeyText(key: ElementGroupKey): string {
  return JSON.stringify([key.materialName, key.elementClass, key.typeName, key.mapping?.type ?? null, key.mapping?.id ?? null]);
}

/** A group with its elements and their volume (m³). */
export interface GroupTally<Key> {
  key: Key;
  elements: number;
  volume: number;
}

/** Groups as they grow, by the text of their key. */
export class Groups<Key> {
  private readonly byText = new Map<string, GroupTally<Key>>();

  constructor(private readonly textOf: (key: Key) => string) {}

  add(key: Key, volume: number): void {
    const text = this.textOf(key);
    const group = this.byText.get(text) ?? { key, elements: 0, volume: 0 };
    group.elements += 1;
    group.volume += volume;
    this.byText.set(text, group);
  }

  /** The largest volume first, then the most elements, then by the text of the key. */
  ordered(): GroupTally<Key>[] {
    return [...this.byText.entries()]
      .sort(([textA, a], [textB, b]) => b.volume - a.volume || b.elements - a.elements || textA.localeCompare(textB))
      .map(([, group]) => group);
  }
}

// --- counts ------------------------------------------------------------------------------------------------------------

/** The elements that do not count for one reason. */
export interface ReasonCount {
  reason: NotCountedReason;
  elements: number;
  /** m³. */
  volume: number;
  /** Elements of the reason that have no volume. */
  withoutVolume: number;
}

/** How many elements count and why the others do not, in the order of `NOT_COUNTED_REASONS`, reasons with none left out. */
export interface Counting {
  elements: number;
  /** m³ of every element with a volume. */
  volume: number;
  counted: { elements: number; volume: number };
  notCounted: ReasonCount[];
}

/** A count fed an element at a time (`add` answers its reason) and read once (`finish`). */
export interface CountingTally {
  add(facts: CountingFacts, volume: number | null | undefined): NotCountedReason | null;
  finish(): Counting;
}

/** A new count over the elements of files that count in their building's figures (`fileCounts`) or not. */
export function countingTally(fileCounts: boolean): CountingTally {
  let elements = 0;
  let total = 0;
  const counted = { elements: 0, volume: 0 };
  const reasons = new Map<NotCountedReason, ReasonCount>();
  return {
    add(facts, rawVolume) {
      const volume = present(rawVolume) ? (rawVolume as number) : 0;
      elements += 1;
      total += volume;
      const reason = notCountedReason(facts, fileCounts);
      if (reason === null) {
        counted.elements += 1;
        counted.volume += volume;
        return null;
      }
      const count = reasons.get(reason) ?? { reason, elements: 0, volume: 0, withoutVolume: 0 };
      count.elements += 1;
      count.volume += volume;
      if (volume === 0) count.withoutVolume += 1;
      reasons.set(reason, count);
      return reason;
    },
    finish: () => ({
      elements,
      volume: total,
      counted: { ...counted },
      notCounted: NOT_COUNTED_REASONS.flatMap((reason) => {
        const count = reasons.get(reason);
        return count === undefined ? [] : [{ ...count }];
      }),
    }),
  };
}
