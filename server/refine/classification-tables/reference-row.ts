/** One row of a classification system's table to NL-SfB, and the shorthand the tables are written in. */

/** One row of a system's table: a code as the system writes it, its name there, and the NL-SfB code it maps to. */
export interface ReferenceRow {
  readonly code: string;
  readonly name: string;
  readonly nlSfb: string;
}

/** Rows from `[code, name, nlSfb]` triples. */
export const rows = (...entries: readonly (readonly [code: string, name: string, nlSfb: string])[]): readonly ReferenceRow[] =>
  entries.map(([code, name, nlSfb]) => ({ code, name, nlSfb }));
