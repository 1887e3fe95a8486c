/**
 * The classification of one element (decisions §9 and the import report): from its own lookups, the importer's hints and
 * its IFC class, in a fixed order. Pure: no I/O. See README.md beside this file, "Classification".
 */
import type { ClassificationSource } from '../../shared/api';
import type { ClassificationHint } from '../imports/imported-element';
import { inferNlSfbCode } from './classification-inference';
import { nlSfbOfReference } from './classification-systems';
import { classify, listedCodeOf, type ClassificationCode, type NlSfbCodes } from './nl-sfb';

/** What classifying an element reads. */
export interface ClassifiableElement {
  /** The element's classification lookups: what its source (or a user) said. */
  lookups: readonly string[];
  /** The importer's hints, in its order (model references through their systems, presentation layer, IFC class). */
  hints: readonly ClassificationHint[];
  /** Whether a user set the element's classification lookups: then they are the user's word and come first. */
  lookupsByUser: boolean;
  elementClass: string | null;
}

/** A classification and what it came from. */
export interface ElementClassification {
  code: ClassificationCode;
  source: Exclude<ClassificationSource, 'none'>;
}

/**
 * The classification of an element, the first of:
 * 1. the model's references as the importer read them with their systems (a code of NS 3451 is not the NL-SfB code
 *    with the same digits) — unless a user set the element's lookups, which are then their word;
 * 2. its lookups read as NL-SfB codes;
 * 3. its lookups that are codes of a system their shape tells (Uniclass 2015, OmniClass table 21, Uniformat II);
 * 4. the other hints in their order: the presentation layer, then what the importer inferred from the IFC class;
 * 5. what its class alone suggests (elements made through the API or from a sheet that names the IFC class).
 * Each code counts only where the code list has it or a parent down to two digits. Null: unclassified.
 */
export function classifyElement(element: ClassifiableElement, codes: NlSfbCodes): ElementClassification | null {
  const fromHints = (hints: readonly ClassificationHint[]): ElementClassification | null => {
    for (const hint of hints) {
      const code = listedCodeOf(hint.code, codes);
      if (code !== null) return { code, source: hint.source };
    }
    return null;
  };
  if (!element.lookupsByUser) {
    const fromModel = fromHints(element.hints.filter((hint) => hint.source === 'model'));
    if (fromModel !== null) return fromModel;
  }
  const fromLookup = classify(element.lookups, codes);
  if (fromLookup !== null) return { code: fromLookup, source: 'model' };
  for (const lookup of element.lookups) {
    const code = listedCodeOf(nlSfbOfReference(null, lookup), codes);
    if (code !== null) return { code, source: 'model' };
  }
  const fromOtherHints = fromHints(element.hints);
  if (fromOtherHints !== null) return fromOtherHints;
  if (element.elementClass === null) return null;
  const inferred = listedCodeOf(
    inferNlSfbCode({ ifcClass: element.elementClass, predefinedType: null, typeClass: null, isExternal: null, loadBearing: null }),
    codes,
  );
  return inferred === null ? null : { code: inferred, source: 'inferred' };
}
