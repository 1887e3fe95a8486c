/**
 * Which of an element's matches the server inferred rather than read from what the element says: a phase matched while
 * the element names none (the server then assumes Existing), and a classification matched while none of the element's
 * lookups names its code (the server took it from the IFC class, a layer name or another hint, server/refine/README.md).
 * The grid and the element form show such a value as inferred, so that a user tells it from one they or the model gave.
 */
import type { ClassificationMatch, PhaseMatch } from '../../../shared/api/schemas';
import type { ElementRow } from '../../db/schema';
import { classifiedHere, phasedHere } from './local-report';

/** The phase the server matched, unless the user changed the element's phase here since (the match follows then). */
export function shownPhaseMatch(row: ElementRow): PhaseMatch | null {
  return phasedHere(row) ? null : row.phaseMatch;
}

/** The classification the server matched, unless the user chose another here since. */
export function shownClassificationMatch(row: ElementRow): ClassificationMatch | null {
  return classifiedHere(row) ? null : row.classificationMatch;
}

/** Whether the phase shown is the server's assumption: the element names no phase. */
export function phaseInferred(row: ElementRow): boolean {
  return shownPhaseMatch(row) !== null && (row.phaseLookup ?? []).every((value) => value.trim() === '');
}

/** Whether the classification shown is the server's inference: no lookup of the element names its code. */
export function classificationInferred(row: ElementRow): boolean {
  const match = shownClassificationMatch(row);
  return match !== null && !(row.classificationLookup ?? []).some((value) => value.includes(match.code));
}
