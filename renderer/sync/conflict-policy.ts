/**
 * The three-way merge of an update whose PUT replaces the whole resource (design: docs/sync.md, Push). For
 * each field the user changed, it compares the row's base (the server's values the change was made on), the user's
 * value and the server's current value:
 *
 * - `equal`: the server already holds the user's value; nothing to send for it;
 * - `unchanged`: the user's value is the base again (changed and changed back), so the server's value stands;
 * - `apply`: only the user changed it; the user's value is sent;
 * - `conflict`: both changed it, differently; the user decides (keep mine / take theirs).
 *
 * Fields the user did not change always keep the server's value. Values compare as the API means them: deep, with
 * null and absent the same. Pure: no I/O.
 */
import { getField, sameValue, type FlatFields } from '../db/field-paths';
import type { FieldConflict } from '../db/schema';

/** What the merge does with one field the user changed. */
export type FieldDecision = 'unchanged' | 'apply' | 'equal' | 'conflict';

/** Decides one field from its base, the user's value and the server's value. */
export function decideField(base: unknown, mine: unknown, theirs: unknown): FieldDecision {
  if (sameValue(mine, theirs)) return 'equal';
  if (sameValue(mine, base)) return 'unchanged';
  if (sameValue(theirs, base)) return 'apply';
  return 'conflict';
}

/** The outcome of merging a change into the server's current values. */
export interface MergePlan {
  /** The decision for each path the user changed. */
  decisions: Record<string, FieldDecision>;
  /** The user's values to set on the server's values before sending them back. */
  apply: FlatFields;
  /** The fields changed on both sides; when any, nothing is sent. */
  conflicts: FieldConflict[];
}

/**
 * Merges the user's changed fields (`mine`, by path) into the server's current values (`theirs`), relative to `base`.
 * `base` and `theirs` are whole resources in the same terms as `mine` (the API's request fields).
 */
export function planMerge(base: Readonly<Record<string, unknown>>, theirs: Readonly<Record<string, unknown>>, mine: Readonly<FlatFields>): MergePlan {
  const plan: MergePlan = { decisions: {}, apply: {}, conflicts: [] };
  for (const [path, value] of Object.entries(mine)) {
    const was = getField(base, path);
    const now = getField(theirs, path);
    const decision = decideField(was, value, now);
    plan.decisions[path] = decision;
    if (decision === 'apply') plan.apply[path] = value;
    if (decision === 'conflict') plan.conflicts.push({ path, base: was ?? null, mine: value ?? null, theirs: now ?? null });
  }
  return plan;
}
