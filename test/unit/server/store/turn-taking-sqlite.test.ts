import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type OpenedDatabase } from '../../../../server/store/dialect';
import { LONGEST_WITHOUT_TURN_MS } from '../../../../server/store/turn-taking-sqlite';

let opened: OpenedDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

/** Runs awaited statements one after another until `done()` or `limitMs` has passed. */
async function statementsUntil(store: OpenedDatabase, done: () => boolean, limitMs: number): Promise<void> {
  const started = performance.now();
  for (let count = 0; !done() && performance.now() - started < limitMs; count += 1) await sql`select ${count} as n`.execute(store.db);
}

describe('the SQLite store', () => {
  it('lets the event loop take a turn during a long chain of statements, which SQLite answers without one', async () => {
    opened = openSqlite(':memory:');
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const started = performance.now();
    await statementsUntil(opened, () => turned, 10_000);
    // Without its turns the loop would have run the marker only once the whole chain had ended.
    expect(turned).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(LONGEST_WITHOUT_TURN_MS);
  });
});
