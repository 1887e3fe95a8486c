/** The Local workspace: the embedded server the app runs, and its migration to a team server. */
import { Type, type Static } from 'typebox';
import { MigrationProgress, MigrationSummary } from '../workspace-migration';
import { channel, NoInput } from './channel';
import { Connection } from './connections';

/** The state of the embedded server of the Local workspace. */
export const LocalWorkspaceStatus = Type.Object(
  {
    state: Type.Enum(['starting', 'running', 'restarting', 'stopped', 'failed']),
    message: Type.Optional(Type.String()),
    /** While `restarting`: the wait before the next start, and which restart in a row it is (1, 2, …). */
    restartInMs: Type.Optional(Type.Integer({ minimum: 0 })),
    attempt: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
/** The state of the embedded server. */
export type LocalWorkspaceStatus = Static<typeof LocalWorkspaceStatus>;

/** Where to take the Local workspace: a team server's PostgreSQL database and blob store, and optionally its address. */
export const LocalMigrationRequest = Type.Object(
  {
    databaseUrl: Type.String({ minLength: 1, maxLength: 2048, pattern: '^postgres(ql)?://' }),
    /** `s3://bucket?…`, or a folder the team server reads too. */
    blobs: Type.String({ minLength: 1, maxLength: 2048 }),
    /** The team server's API address: a connection to it is added, holding the Local workspace's key. */
    teamServerUrl: Type.Optional(Type.String({ maxLength: 2048, pattern: '^https?://' })),
    /** The user's consent to keep that key where the OS offers no encryption (as for `vault:set-key`). */
    allowInsecureStorage: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
/** Where to take the Local workspace. */
export type LocalMigrationRequest = Static<typeof LocalMigrationRequest>;

/** What a migration copied, and the connection to the team server it added (null when no address was given). */
export const LocalMigrationResult = Type.Object(
  { summary: MigrationSummary, connection: Type.Union([Connection, Type.Null()]) },
  { additionalProperties: false },
);
/** What a migration copied. */
export type LocalMigrationResult = Static<typeof LocalMigrationResult>;

/** The `local:` channels. */
export const localChannels = {
  'local:status': channel(NoInput, LocalWorkspaceStatus),
  'local:restart': channel(NoInput, LocalWorkspaceStatus),
  'local:migrate': channel(LocalMigrationRequest, LocalMigrationResult),
} as const;

/** The `local:` events. */
export const localEvents = {
  'local:status-changed': LocalWorkspaceStatus,
  /** How far a migration of the Local workspace to a team server got. */
  'local:migration-progress': MigrationProgress,
} as const;
