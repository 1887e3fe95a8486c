/**
 * The rules of the form that takes the Local workspace to a team server, checked as the user types. They mirror the
 * Bridge contract's `LocalMigrationRequest` (which the host checks again) and name each problem so the form can say
 * what to change; the team server's address follows the connection form's own rules.
 */
import type { LocalMigrationRequest } from '../../../shared/ipc';
import { baseUrlIssue, type UrlIssue } from './connection-validation';

/** What the form holds. */
export interface MigrationFields {
  databaseUrl: string;
  blobs: string;
  /** Empty: no connection is added. */
  teamServerUrl: string;
  /** The user's consent to keep the key unencrypted where the system has no keyring. */
  allowInsecureStorage: boolean;
}

/** What is wrong with the database address. */
export type DatabaseIssue = 'required' | 'protocol' | 'invalid' | 'database' | 'too-long';
/** What is wrong with the blob store. */
export type BlobsIssue = 'required' | 'bucket' | 'relative' | 'too-long';

/** Each field's problem, if any. */
export interface MigrationIssues {
  databaseUrl?: DatabaseIssue;
  blobs?: BlobsIssue;
  teamServerUrl?: UrlIssue;
}

const ADDRESS_MAX = 2048;
/** A folder path that does not depend on the app's working folder: POSIX, a Windows drive, or a network share. */
const ABSOLUTE_FOLDER = /^(\/|[a-zA-Z]:[\\/]|\\\\)/;

/** Checks the PostgreSQL address: `postgres://user:password@host:port/database`. */
export function databaseUrlIssue(databaseUrl: string): DatabaseIssue | undefined {
  const trimmed = databaseUrl.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > ADDRESS_MAX) return 'too-long';
  if (!/^postgres(ql)?:\/\//i.test(trimmed)) return 'protocol';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'invalid';
  }
  if (parsed.hostname === '') return 'invalid';
  if (parsed.pathname.replace(/^\//, '') === '') return 'database';
  return undefined;
}

/** Checks the blob store: `s3://bucket?…`, or an absolute folder the team server reads too. */
export function blobsIssue(blobs: string): BlobsIssue | undefined {
  const trimmed = blobs.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > ADDRESS_MAX) return 'too-long';
  if (/^s3:/i.test(trimmed)) return /^s3:\/\/[^/?#]+/i.test(trimmed) ? undefined : 'bucket';
  return ABSOLUTE_FOLDER.test(trimmed) ? undefined : 'relative';
}

/** Every field's problem. */
export function migrationIssues(fields: MigrationFields): MigrationIssues {
  const issues: MigrationIssues = {};
  const database = databaseUrlIssue(fields.databaseUrl);
  if (database !== undefined) issues.databaseUrl = database;
  const blobs = blobsIssue(fields.blobs);
  if (blobs !== undefined) issues.blobs = blobs;
  const teamServer = fields.teamServerUrl.trim() === '' ? undefined : baseUrlIssue(fields.teamServerUrl);
  if (teamServer !== undefined) issues.teamServerUrl = teamServer;
  return issues;
}

/** The request the form makes, once it has no problem. */
export function migrationRequestOf(fields: MigrationFields): LocalMigrationRequest {
  const teamServerUrl = fields.teamServerUrl.trim();
  return {
    databaseUrl: fields.databaseUrl.trim(),
    blobs: fields.blobs.trim(),
    ...(teamServerUrl === '' ? {} : { teamServerUrl }),
    ...(fields.allowInsecureStorage ? { allowInsecureStorage: true } : {}),
  };
}
