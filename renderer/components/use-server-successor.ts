/**
 * A building or portfolio created here gets the server's id once the push has sent it: its page then moves on to the
 * row that has that id, the one row with a server id that `isSuccessor` of the local row it showed.
 */
import { shallowRef, watch, type Ref } from 'vue';
import type { CacheDb } from '../db/cache-db';
import { isLocalId } from '../db/schema';
import { useCacheQuery } from './use-cache-query';

/** What the search needs of a cache table. */
interface FilterableTable<Row> {
  filter(test: (row: Row) => boolean): { toArray(): Promise<Row[]> };
}

export interface ServerSuccessor {
  /** The row was deleted here: there is no server id to move on to. */
  forget: () => void;
}

export function useServerSuccessor<Row extends { id: string }>(
  row: Readonly<Ref<Row | undefined>>,
  table: (db: CacheDb) => NoInfer<FilterableTable<Row>>,
  isSuccessor: (candidate: NoInfer<Row>, local: NoInfer<Row>) => boolean,
  moveTo: (id: string) => void,
): ServerSuccessor {
  const lastLocal = shallowRef<Row | null>(null);
  watch(row, (current) => {
    if (current !== undefined) lastLocal.value = isLocalId(current.id) ? current : null;
  });
  const successor = useCacheQuery(
    () => (row.value === undefined ? lastLocal.value : null),
    async (db, local) => {
      if (local === null) return null;
      const matches = await table(db)
        .filter((candidate) => !isLocalId(candidate.id) && isSuccessor(candidate, local))
        .toArray();
      return matches.length === 1 ? (matches[0]?.id ?? null) : null;
    },
    null,
  );
  watch(
    () => successor.value.value,
    (id) => {
      if (id !== null) moveTo(id);
    },
  );
  return {
    forget: () => {
      lastLocal.value = null;
    },
  };
}
