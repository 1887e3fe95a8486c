import type { Kysely } from 'kysely';
import { enqueueJob } from '../jobs/queue';
import type { DatabaseSchema } from '../store/tables';

/**
 * Schedules the files that reach a changed material or product to be counted again (jobs/handlers/recount-files.ts): a
 * specific weight, a product's children or its type decide whether their elements have a mass, so their summaries and
 * their buildings' figures would otherwise still say what the catalogue said before. One queued recount per item
 * covers every change made before it runs.
 */
export async function scheduleRecount(db: Kysely<DatabaseSchema>, itemId: string, now: Date): Promise<void> {
  const subjectId = itemId.toLowerCase();
  const queued = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', 'recount-files')
    .where('subjectId', '=', subjectId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  if (queued === undefined) await enqueueJob(db, { kind: 'recount-files', subjectId }, now);
}
