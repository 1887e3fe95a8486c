/**
 * Moving a Local workspace to a team server: what `serve migrate-to --json` prints, one JSON object per line, and
 * what the desktop app reads back. The server writes these lines and the app parses them, so both take them from here.
 */
import { Type, type Static } from 'typebox';

/** The environment variable naming the team server's PostgreSQL database (kept off the command line: it may hold a password). */
export const DATABASE_URL_ENV = 'DATABASE_URL';
/** The environment variable naming the team server's blob store (`s3://…` or a folder). */
export const BLOB_STORE_URL_ENV = 'BLOB_STORE_URL';

/** How far a migration got: a table's rows, the blobs, or the commit. */
export const MigrationProgress = Type.Union([
  Type.Object(
    {
      step: Type.Literal('table'),
      table: Type.String(),
      copied: Type.Integer({ minimum: 0 }),
      total: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      step: Type.Literal('blobs'),
      copied: Type.Integer({ minimum: 0 }),
      total: Type.Integer({ minimum: 0 }),
      bytes: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ step: Type.Literal('committed') }, { additionalProperties: false }),
]);
/** How far a migration got. */
export type MigrationProgress = Static<typeof MigrationProgress>;

/** What a finished migration copied. */
export const MigrationSummary = Type.Object(
  {
    /** Rows per table, in the order they were copied. */
    tables: Type.Array(Type.Object({ table: Type.String(), rows: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
    blobs: Type.Object({ count: Type.Integer({ minimum: 0 }), bytes: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
/** What a finished migration copied. */
export type MigrationSummary = Static<typeof MigrationSummary>;

/** The last line of `migrate-to --json`: the migration is committed and this is what it copied. */
export const MigrationDone = Type.Object(
  { step: Type.Literal('done'), tables: MigrationSummary.properties.tables, blobs: MigrationSummary.properties.blobs },
  { additionalProperties: false },
);
/** The last line of `migrate-to --json`. */
export type MigrationDone = Static<typeof MigrationDone>;

/** Any line of `migrate-to --json`. */
export const MigrationLine = Type.Union([MigrationProgress, MigrationDone]);
/** Any line of `migrate-to --json`. */
export type MigrationLine = Static<typeof MigrationLine>;
