/**
 * Elements through API v2.1 (decisions §12): its element bodies name the lookups `phase` and `classification` and have
 * no `name` or `materialId`. The app speaks v2.3 shapes everywhere; the client translates at the edge, so an edit made
 * on a v2.1 connection keeps its phase and classification, and what a v2.1 server answers reads like v2.3.
 */
import { isRecord } from '../is-record';
import type { BuildingFileElementRequest, BuildingFileElementRequestV21 } from './schemas';

/** The operations whose request body is an element. */
const ELEMENT_BODY_OPERATIONS: ReadonlySet<string> = new Set(['createElement', 'replaceElement']);
/** The operations whose answer is an element or a list of them. */
const ELEMENT_ANSWER_OPERATIONS: ReadonlySet<string> = new Set(['createElement', 'replaceElement', 'getElement', 'listElements']);

/**
 * A v2.3 element body as v2.1 takes it: `phaseLookup` → `phase`, `classificationLookup` → `classification`; `name` and
 * `materialId` have no place in v2.1 and are left out. A body already in v2.1's shape passes unchanged.
 */
export function elementBodyForV21(body: BuildingFileElementRequest | BuildingFileElementRequestV21): BuildingFileElementRequestV21 {
  if ('phase' in body || 'classification' in body) return body as BuildingFileElementRequestV21;
  const { name: _name, materialId: _materialId, phaseLookup, classificationLookup, ...rest } = body as BuildingFileElementRequest;
  return {
    ...rest,
    ...(phaseLookup === undefined ? {} : { phase: phaseLookup }),
    ...(classificationLookup === undefined ? {} : { classification: classificationLookup }),
  };
}

/** An element a v2.1 server answered, in v2.3's shape: `phase`/`classification` read as one-value lookups. */
export function elementFromV21(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if (!('phase' in value) && !('classification' in value)) return value;
  const { phase, classification, ...rest } = value;
  const lookup = (text: unknown): string[] => (typeof text === 'string' && text !== '' ? [text] : []);
  return {
    name: null,
    ...rest,
    phaseLookup: 'phaseLookup' in rest ? rest['phaseLookup'] : lookup(phase),
    classificationLookup: 'classificationLookup' in rest ? rest['classificationLookup'] : lookup(classification),
  };
}

/** The request body of a call on a v2.1 server. */
export function v21RequestBody(operationId: string, body: unknown): unknown {
  return ELEMENT_BODY_OPERATIONS.has(operationId) && isRecord(body) ? elementBodyForV21(body as BuildingFileElementRequest) : body;
}

/** The answer of a call on a v2.1 server, in v2.3's shape. */
export function v21AnswerValue(operationId: string, value: unknown): unknown {
  if (!ELEMENT_ANSWER_OPERATIONS.has(operationId)) return value;
  return Array.isArray(value) ? value.map(elementFromV21) : elementFromV21(value);
}
