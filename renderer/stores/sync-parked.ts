/** What the user can do with a parked outbox entry, done through the db layer. */
import { assertNever } from '../../shared/api/enums';
import type { CacheDb } from '../db/cache-db';
import { discardParked, resolveConflict, retryParked } from '../db/edits';

/** Where a parked entry goes: back to the outbox, or away with the server's values restored. */
export type ParkedAction = 'retry' | 'discard' | 'keep-mine' | 'take-theirs';

export async function settleParkedEntry(db: CacheDb, seq: number, action: ParkedAction): Promise<void> {
  switch (action) {
    case 'retry':
      await retryParked(db, seq);
      break;
    case 'discard':
      await discardParked(db, seq);
      break;
    case 'keep-mine':
      await resolveConflict(db, seq, 'mine');
      break;
    case 'take-theirs':
      await resolveConflict(db, seq, 'theirs');
      break;
    default:
      assertNever(action, 'parked entry action');
  }
}
