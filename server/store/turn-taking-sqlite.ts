/**
 * SQLite through better-sqlite3 answers every statement synchronously, so a job's chain of awaited statements (a
 * refinement's batches, the reads of a building's figures) never gives the event loop a turn: requests that arrive
 * meanwhile wait until the whole job is done, seconds for a large model. This dialect lets the loop take a turn
 * before a statement or transaction takes the connection once the loop has had none for a while.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

/** How long work on the connection may keep the event loop from its next turn, ms. */
export const LONGEST_WITHOUT_TURN_MS = 20;

class TurnTakingSqliteDriver extends SqliteDriver {
  /** When a marker was queued for the loop's next turn; undefined once that turn came. */
  #markerQueuedAt: number | undefined;

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#loopOverdue()) await nextTurn();
    return super.acquireConnection();
  }

  #loopOverdue(): boolean {
    const now = performance.now();
    if (this.#markerQueuedAt === undefined) {
      this.#markerQueuedAt = now;
      setImmediate(() => {
        this.#markerQueuedAt = undefined;
      });
      return false;
    }
    return now - this.#markerQueuedAt > LONGEST_WITHOUT_TURN_MS;
  }
}

/** Kysely's SQLite dialect whose connection lets the event loop take turns during long chains of statements. */
export class TurnTakingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.#config);
  }
}
