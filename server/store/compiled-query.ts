import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * A query of a hot path, compiled once per database and run again with new parameters. Building and compiling a Kysely
 * query costs as much as running a point select on SQLite, so reads done on every request skip it.
 *
 * The query is built from its arguments; it is reused only when the compiled parameters are exactly those arguments in
 * order (each used once, nothing else bound), which is checked on the first compile: otherwise every call compiles.
 */
export function compiledQuery<DB, Args extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const compiledFor = new WeakMap<Kysely<DB>, CompiledQuery<Row> | null>();
  return async (db, ...args) => {
    let compiled = compiledFor.get(db);
    if (compiled === undefined) {
      const first = build(db, ...args).compile();
      const reusable = first.parameters.length === args.length && first.parameters.every((value, index) => value === args[index]);
      compiled = reusable ? first : null;
      compiledFor.set(db, compiled);
      return (await db.executeQuery(first)).rows;
    }
    const query = compiled === null ? build(db, ...args).compile() : { ...compiled, parameters: args };
    return (await db.executeQuery(query)).rows;
  };
}
