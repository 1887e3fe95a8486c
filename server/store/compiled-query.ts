import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * A statement of a hot path, compiled once per database and then given new parameters: answers the compiled statement
 * for these arguments, to run on the database or in a transaction of it. Building and compiling a Kysely query costs
 * as much as running a point select on SQLite, so reads done on every request, and an import's writes, skip it.
 *
 * The statement is built from its arguments; it is reused only when the compiled parameters are exactly those
 * arguments in order (each used once, nothing else bound), which is checked on the first compile: otherwise every call
 * compiles.
 */
export function compiledStatement<DB, Args extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => CompiledQuery<Row> {
  const compiledFor = new WeakMap<Kysely<DB>, CompiledQuery<Row> | null>();
  return (db, ...args) => {
    const compiled = compiledFor.get(db);
    if (compiled === undefined) {
      const first = build(db, ...args).compile();
      const reusable = first.parameters.length === args.length && first.parameters.every((value, index) => value === args[index]);
      compiledFor.set(db, reusable ? first : null);
      return first;
    }
    return compiled === null ? build(db, ...args).compile() : { ...compiled, parameters: args };
  };
}

/** A query of a hot path, compiled once per database (as {@link compiledStatement}) and run on it, answering its rows. */
export function compiledQuery<DB, Args extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const compile = compiledStatement(build);
  return async (db, ...args) => (await db.executeQuery(compile(db, ...args))).rows;
}
