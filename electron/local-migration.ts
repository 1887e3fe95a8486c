/**
 * Takes the Local workspace to a team server: runs the server's own `migrate-to --json` in a process of its own (the
 * same launcher that runs the Local workspace, so it works from the packaged app too) and reports its progress. The
 * command reads the workspace in one transaction, so the Local workspace keeps running and nothing in it changes; the
 * team server's addresses travel in the environment, never on the command line, as they may hold a password.
 */
import { Value } from 'typebox/value';
import { BridgeError } from '../shared/ipc';
import {
  BLOB_STORE_URL_ENV,
  DATABASE_URL_ENV,
  MigrationLine,
  type MigrationProgress,
  type MigrationSummary,
} from '../shared/workspace-migration';
import type { LocalServerLauncher } from './local-server';

/** Where the workspace goes. */
export interface MigrationTarget {
  /** The team server's PostgreSQL database: `postgres://user:password@host:port/database`. */
  databaseUrl: string;
  /** The team server's blob store: `s3://bucket?…`, or a folder the team server reads (a network share). */
  blobs: string;
}

/** What a migration needs. */
export interface LocalMigrationOptions {
  /** The Local workspace's data folder. */
  dataDir: string;
  launch: LocalServerLauncher;
  target: MigrationTarget;
  onProgress?: (progress: MigrationProgress) => void;
}

/** Lines of the command's error output kept for the message of a failure. */
const KEPT_ERROR_LINES = 8;

/** Splits a stream into lines and hands each complete one to `onLine`. */
function eachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let rest = '';
  stream?.on('data', (chunk: Buffer | string) => {
    const lines = (rest + String(chunk)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line.trim());
  });
  stream?.on('end', () => {
    if (rest.trim() !== '') onLine(rest.trim());
  });
}

/**
 * Copies the Local workspace into the target; resolves with what was copied once the command has committed and
 * exited, rejects with the command's own explanation (a target that holds data, an unreachable database, a refused
 * password) when it did not. A failed migration leaves the target as it was, so it can simply be run again.
 */
export function migrateLocalWorkspace(options: LocalMigrationOptions): Promise<MigrationSummary> {
  const child = options.launch(['migrate-to', '--from', options.dataDir, '--json'], {
    [DATABASE_URL_ENV]: options.target.databaseUrl,
    [BLOB_STORE_URL_ENV]: options.target.blobs,
  });
  let summary: MigrationSummary | undefined;
  const errors: string[] = [];
  eachLine(child.stdout, (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    if (!Value.Check(MigrationLine, parsed)) return;
    if (parsed.step === 'done') summary = { tables: parsed.tables, blobs: parsed.blobs };
    else options.onProgress?.(parsed);
  });
  eachLine(child.stderr, (line) => {
    errors.push(line);
    errors.splice(0, Math.max(0, errors.length - KEPT_ERROR_LINES));
  });
  return new Promise((resolve, reject) => {
    child.onExit((code) => {
      // The last output lines may still be on their way: read them before judging the run.
      setImmediate(() => {
        if (code === 0 && summary !== undefined) {
          resolve(summary);
          return;
        }
        const reason = errors.find((line) => !line.startsWith('Usage:')) ?? `The migration stopped (exit code ${code ?? 'none'}).`;
        reject(new BridgeError('unavailable', reason));
      });
    });
  });
}
