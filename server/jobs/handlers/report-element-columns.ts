import type { ReportElement } from '../../calc/import-report';

/** The numbers of a report element, each kept in its own column (NaN for null). */
const NUMBER_FIELDS = ['volume', 'area', 'length', 'weight'] as const;
/** The texts of a report element, each kept as a number that names it in the table of distinct texts (-1 for null). */
const TEXT_FIELDS = [
  'materialName', 'materialId', 'classificationId', 'brandLayerId', 'elementClass', 'mappingSource', 'quantitySource',
  'geometryIssue', 'classificationSource', 'typeName',
] as const satisfies readonly (keyof ReportElement)[];
/** Per element: the numbers, then the mapping's type. */
const NUMBERS = NUMBER_FIELDS.length + 1;
/** Per element: the texts, then the mapping's id. */
const TEXTS = TEXT_FIELDS.length + 1;
const ABSENT = -1;

/**
 * What a file's figures read of each of its elements (ReportElement), kept while an import stages them: numbers in
 * typed arrays, and each distinct text once. An object per element, held through a whole import, would keep the
 * server's heap several times their size, since V8 lets garbage grow with what stays alive; these columns take a
 * fraction of it and none of that growth.
 */
export class ReportElementColumns {
  private readonly ids: string[] = [];
  private numbers = new Float64Array(1024 * NUMBERS);
  private texts = new Int32Array(1024 * TEXTS);
  private readonly textIndex = new Map<string, number>();
  private readonly textTable: string[] = [];
  /** The element of each id once a replacement or removal asked for it; built on the first of them. */
  private positionOf: Map<string, number> | undefined;
  /** The positions of removed elements, which `toElements` leaves out until their id is added again. */
  private readonly removed = new Set<number>();

  get size(): number {
    return this.ids.length - this.removed.size;
  }

  /** Adds an element; an id added before is replaced, as a new version of the element. */
  add(element: ReportElement): void {
    const known = this.positionOf?.get(element.id);
    if (known !== undefined) {
      this.removed.delete(known);
      this.write(known, element);
      return;
    }
    const position = this.ids.length;
    if ((position + 1) * TEXTS > this.texts.length) this.grow();
    this.ids.push(element.id);
    this.positionOf?.set(element.id, position);
    this.write(position, element);
  }

  /** Each element replaces the one with its id, or is added. */
  replace(elements: readonly ReportElement[]): void {
    // Most imports keep no user's edits: no index of every id for nothing.
    if (elements.length === 0) return;
    this.positionOf ??= new Map(this.ids.map((id, position) => [id, position]));
    for (const element of elements) this.add(element);
  }

  /** Removes the elements of these ids; ids never added are ignored. */
  remove(ids: readonly string[]): void {
    // Most imports remove nothing: no index of every id for nothing.
    if (ids.length === 0) return;
    this.positionOf ??= new Map(this.ids.map((id, position) => [id, position]));
    for (const id of ids) {
      const position = this.positionOf.get(id);
      if (position !== undefined) this.removed.add(position);
    }
  }

  /** The elements as objects again, in the order they were first added. */
  toElements(): ReportElement[] {
    const elements = this.ids.map((id, position) => {
      const element: Record<string, unknown> = { id };
      NUMBER_FIELDS.forEach((field, index) => {
        element[field] = this.numberAt(position * NUMBERS + index);
      });
      TEXT_FIELDS.forEach((field, index) => {
        element[field] = this.textAt(position * TEXTS + index);
      });
      const mappingType = this.numberAt(position * NUMBERS + NUMBER_FIELDS.length);
      const mappingId = this.textAt(position * TEXTS + TEXT_FIELDS.length);
      element['mapping'] = mappingType === null || mappingId === null ? null : { type: mappingType, id: mappingId };
      return element as unknown as ReportElement;
    });
    return this.removed.size === 0 ? elements : elements.filter((_, position) => !this.removed.has(position));
  }

  private write(position: number, element: ReportElement): void {
    NUMBER_FIELDS.forEach((field, index) => {
      this.numbers[position * NUMBERS + index] = element[field] ?? Number.NaN;
    });
    this.numbers[position * NUMBERS + NUMBER_FIELDS.length] = element.mapping?.type ?? Number.NaN;
    TEXT_FIELDS.forEach((field, index) => {
      this.texts[position * TEXTS + index] = this.textNumber(element[field] ?? null);
    });
    this.texts[position * TEXTS + TEXT_FIELDS.length] = this.textNumber(element.mapping?.id ?? null);
  }

  private grow(): void {
    const numbers = new Float64Array(this.numbers.length * 2);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const texts = new Int32Array(this.texts.length * 2);
    texts.set(this.texts);
    this.texts = texts;
  }

  private textNumber(text: string | null): number {
    if (text === null) return ABSENT;
    let number = this.textIndex.get(text);
    if (number === undefined) {
      number = this.textTable.length;
      this.textTable.push(text);
      this.textIndex.set(text, number);
    }
    return number;
  }

  private numberAt(offset: number): number | null {
    const value = this.numbers[offset] ?? Number.NaN;
    return Number.isNaN(value) ? null : value;
  }

  private textAt(offset: number): string | null {
    const number = this.texts[offset] ?? ABSENT;
    return number === ABSENT ? null : (this.textTable[number] ?? null);
  }
}
