/**
 * The derived columns of one element (decisions §9): its mapping, phase, classification and brand layer, from its
 * fields and what the run loaded (`refine-context.ts`). Pure but for the run's memo of lookups already seen, so the
 * same element gives the same columns in a run over stored elements and while an import stages it.
 */
import type { Selectable } from 'kysely';
import { BuildingLevel, Phase } from '../../shared/api/enums';
import type { ClassificationHint } from '../imports/imported-element';
import { setsField } from '../services/user-fields';
import { parseJsonColumn } from '../store/repositories/json';
import { NL_SFB_METHOD_ID } from '../store/seed/system-data';
import type { ElementsTable, RefinedElementColumns } from '../store/tables';
import { matchCatalogue, type ReadableCatalogueItems } from './catalogue-match';
import { classifyElement } from './classify-element';
import { brandLayerOf, classificationCodeId } from './nl-sfb';
import { phaseOf } from './phase';
import type { ClassificationColumns, PhaseColumns, RefineContext } from './refine-context';

/** Results kept per distinct lookup text: models repeat a few hundred values over many thousand elements. */
const LOOKUP_MEMO_LIMIT = 100_000;

/**
 * An element as an import reads it, with its lookups and hints as the tables store them (JSON text) and the catalogue
 * item its source names by id (a spreadsheet's Material/Product id), if any.
 */
export type ImportedForRefinement = Pick<
  Selectable<ElementsTable>,
  'materialName' | 'typeName' | 'materialId' | 'phaseLookup' | 'classificationLookup' | 'classificationHints' | 'materialHints' | 'elementClass'
>;

/** What refinement reads of an element; without `userFields`, no user has edited it. */
type RefinableElement = ImportedForRefinement & Partial<Pick<Selectable<ElementsTable>, 'userFields'>>;

/** The derived columns of one element. */
export function refineElement(element: RefinableElement, context: RefineContext, readable: ReadableCatalogueItems): RefinedElementColumns {
  // Without a readable materialId and a matching rule the element is unmapped, whatever an earlier run found.
  const mapping = matchCatalogue(
    {
      materialName: element.materialName,
      typeName: element.typeName,
      materialId: element.materialId,
      materialHints: lookupValues(element.materialHints, 'materialHints'),
    },
    context.rules,
    readable,
  );
  // Named, not spread: this runs for every element an import reads.
  const phase = phaseColumns(element.phaseLookup, context);
  const classification = classificationColumns(element, context);
  return {
    mappingType: mapping?.type ?? null,
    mappingId: mapping?.id ?? null,
    mappingSource: mapping?.source ?? null,
    phaseMatchId: phase.phaseMatchId,
    phaseMatchName: phase.phaseMatchName,
    brandLayerMatchId: classification.brandLayerMatchId,
    brandLayerMatchName: classification.brandLayerMatchName,
    classificationMatchId: classification.classificationMatchId,
    classificationMatchName: classification.classificationMatchName,
    classificationMatchCode: classification.classificationMatchCode,
    classificationSource: classification.classificationSource,
  };
}

/** Classification and brand layer of an element, from its lookups, the importer's hints and its class. */
function classificationColumns(element: RefinableElement, context: RefineContext): ClassificationColumns {
  // The lookups are the user's word where a user set them (decisions §3).
  const lookupsByUser = setsField(element.userFields ?? null, 'classificationLookup');
  // Models repeat a few hundred combinations over many thousand elements.
  const key = `${lookupsByUser ? 1 : 0}\u0000${element.elementClass ?? ''}\u0000${element.classificationLookup}\u0000${element.classificationHints}`;
  const known = context.classificationByLookup.get(key);
  if (known !== undefined) return known;
  const classification = classifyElement(
    {
      lookups: lookupValues(element.classificationLookup, 'classificationLookup'),
      hints: hintsOf(element.classificationHints),
      lookupsByUser,
      elementClass: element.elementClass,
    },
    context.codes,
  );
  const layer = BuildingLevel[brandLayerOf(classification?.code.code ?? null)];
  const columns: ClassificationColumns = {
    brandLayerMatchId: layer.id,
    brandLayerMatchName: layer.label,
    classificationMatchId: classification === null ? null : classificationCodeId(NL_SFB_METHOD_ID, classification.code.code),
    classificationMatchName: classification?.code.name ?? null,
    classificationMatchCode: classification?.code.code ?? null,
    classificationSource: classification?.source ?? null,
  };
  remember(context.classificationByLookup, key, columns);
  return columns;
}

const HINT_SOURCES: ReadonlySet<unknown> = new Set<ClassificationHint['source']>(['model', 'layer', 'inferred']);

/** The importer's hints of a `classificationHints` column; anything malformed in it is left out. */
function hintsOf(column: string): ClassificationHint[] {
  const value = parseJsonColumn<unknown>(column, 'elements.classificationHints');
  if (!Array.isArray(value)) return [];
  return value.filter(
    (hint): hint is ClassificationHint =>
      typeof hint === 'object' && hint !== null && HINT_SOURCES.has((hint as ClassificationHint).source) && typeof (hint as ClassificationHint).code === 'string',
  );
}

/** Phase of a `phaseLookup` column. */
function phaseColumns(lookup: string, context: RefineContext): PhaseColumns {
  const known = context.phaseByLookup.get(lookup);
  if (known !== undefined) return known;
  const phase = Phase[phaseOf(lookupValues(lookup, 'phaseLookup'))];
  const columns: PhaseColumns = { phaseMatchId: phase.id, phaseMatchName: phase.name };
  remember(context.phaseByLookup, lookup, columns);
  return columns;
}

function remember<Value>(memo: Map<string, Value>, key: string, value: Value): void {
  if (memo.size >= LOOKUP_MEMO_LIMIT) memo.clear();
  memo.set(key, value);
}

/** The strings of a lookup column (a JSON array of strings); anything else in it is ignored. */
function lookupValues(column: string, name: string): string[] {
  const value = parseJsonColumn<unknown>(column, `elements.${name}`);
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
