/** What the user typed into a grid cell, as the value an edit sends: text ('' is none) or a quantity. */
import type { ElementColumnKind } from './element-columns';
import type { ElementFieldError } from './element-form';

/** The value of a cell's input, or why it is refused. */
export type CellInput = { ok: true; value: string | number | null } | { ok: false; error: ElementFieldError };

/** Reads a cell's input: text trimmed; a quantity as a finite number not below zero (a decimal comma allowed). */
export function parseCellInput(kind: ElementColumnKind, draft: string): CellInput {
  const text = draft.trim();
  if (kind !== 'quantity') return { ok: true, value: text === '' ? null : text };
  if (text === '') return { ok: true, value: null };
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value)) return { ok: false, error: 'not-finite' };
  if (value < 0) return { ok: false, error: 'negative' };
  return { ok: true, value };
}
