/** An element's classification hints, in the order refinement tries them. */
import { classificationSystemOf, nlSfbOfReference } from '../../refine/classification-systems';
import { inferNlSfbCode, nlSfbCodeOfLayerName, type ElementFacts } from '../../refine/classification-inference';
import { normaliseNlSfbCode } from '../../refine/nl-sfb';
import type { ClassificationHint } from '../imported-element';
import type { ModelClassification } from './classifications';
import { refOf, refsOf, type LineSource, type RawLine } from './raw';

/**
 * The NL-SfB code a classification reference of the model stands for: an NL-SfB code as it is, another system's code
 * through its table. A reference whose system the model does not name is read as NL-SfB, else by its shape (Uniclass,
 * OmniClass, Uniformat codes tell their system).
 */
function nlSfbOfModelReference(reference: ModelClassification): string | null {
  const system = reference.systemNames.map(classificationSystemOf).find((found) => found !== null) ?? null;
  if (system === 'nl-sfb') return normaliseNlSfbCode(reference.code);
  if (system === null) return normaliseNlSfbCode(reference.code) ?? nlSfbOfReference(null, reference.code);
  return nlSfbOfReference(system, reference.code);
}

/** What an element's hints are read from. */
export interface HintSources {
  madasterClassification: string | null;
  /** The element's references (own, type's or assembly's). */
  references: readonly ModelClassification[];
  /** The name of its shape's presentation layer (`layerNameOf`). */
  layer: string | null;
  facts: ElementFacts;
  /** What its nearest assembly is, for a part whose class says nothing. */
  assemblyFacts: ElementFacts | null;
}

/**
 * The classification hints of an element, in the order refinement tries them: what its references (own, type's or
 * assembly's; Pset_Madaster's first) stand for in NL-SfB, the NL-SfB code of its presentation layer, and the code its
 * class suggests (its own, else its assembly's for a part whose class says nothing).
 */
export function classificationHintsOf(sources: HintSources): ClassificationHint[] {
  const { madasterClassification, references, layer, facts, assemblyFacts } = sources;
  const hints: ClassificationHint[] = [];
  const add = (source: ClassificationHint['source'], code: string | null): void => {
    if (code !== null && !hints.some((hint) => hint.source === source && hint.code === code)) hints.push({ source, code });
  };
  if (madasterClassification !== null) add('model', normaliseNlSfbCode(madasterClassification));
  for (const reference of references) add('model', nlSfbOfModelReference(reference));
  if (layer !== null) add('layer', nlSfbCodeOfLayerName(layer));
  add('inferred', inferNlSfbCode(facts) ?? (assemblyFacts === null ? null : inferNlSfbCode(assemblyFacts)));
  return hints;
}

/**
 * The name of the presentation layer of an element's shape: its Representation (IfcProductDefinitionShape, argument
 * 6) → Representations (argument 2) → each IfcShapeRepresentation or, failing that, its Items (argument 3).
 */
export function layerNameOf(reader: LineSource, layerOf: ReadonlyMap<number, string>, line: RawLine): string | null {
  if (layerOf.size === 0) return null;
  const shape = reader.line(refOf(line.arguments[6]) ?? -1);
  const representations = refsOf(shape?.arguments[2]);
  for (const representation of representations) {
    const layer = layerOf.get(representation);
    if (layer !== undefined) return layer;
  }
  for (const representation of representations) {
    for (const item of refsOf(reader.line(representation)?.arguments[3])) {
      const layer = layerOf.get(item);
      if (layer !== undefined) return layer;
    }
  }
  return null;
}
