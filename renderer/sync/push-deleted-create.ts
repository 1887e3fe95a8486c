/** A create whose row is gone before it was sent: the user deleted the row again. */
import { readDetail } from '../db/outbox-rows';
import { dropUnsentEntries } from '../db/push-writes';
import type { EditEntry, PushRun, Step } from './push-run';

/**
 * A create whose row is gone: the user deleted it again. An element's create and edits are dropped and its delete is
 * sent. A create with a server id that was never sent is dropped with everything up to its delete; one sent before
 * (the answer was lost) goes on with the body of that attempt, and the delete follows.
 */
export async function dropUnsentCreate(run: PushRun, entry: EditEntry): Promise<Step | null> {
  const { db } = run.options;
  const ofRow = await db.outbox.where('[entity+key]').equals([entry.entity, entry.key]).sortBy('seq');
  const end = ofRow.findIndex((each) => each.op === 'delete');
  if (end < 0) return null;
  if (entry.entity === 'elements') {
    // An element create may have reached the server even with no attempt recorded (the app can die between sending
    // it and hearing the answer): the create and the edits after it are dropped, the delete is kept and sent (a 404
    // when the create never arrived costs one request; a skipped DELETE would lose the user's delete).
    await dropUnsentEntries(db, ofRow.slice(0, end).map((each) => each.seq));
    return { kind: 'acked', key: entry.key };
  }
  // A create with a server id records its first send before it goes out: one that may have been sent is reconciled.
  if ((await readDetail(db, entry.seq))?.create != null) return null;
  await dropUnsentEntries(
    db,
    ofRow.slice(0, end + 1).map((each) => each.seq),
  );
  return { kind: 'acked', key: entry.key };
}
