/**
 * The confirmation the host itself shows before the Local workspace is copied to a team server. The page only
 * passes the targets; a page that was made to pass others cannot move the workspace without the user seeing where.
 */
import { isInsecureAddress } from '../shared/connection-address';

/** Where a move goes, spelled out for the user (the database password left out). */
export interface MigrationTargets {
  database: string;
  blobs: string;
  /** The team server whose connection gets the Local workspace's key; null when none is added. */
  teamServer: string | null;
}

/** Asks the user to confirm a move (Electron: a native message box; browser mode: the terminal it runs in). */
export type ConfirmMigration = (targets: MigrationTargets) => Promise<boolean>;

/** The targets of a move as the user reads them: the database address without its password. */
export function migrationTargetsOf(databaseUrl: string, blobs: string, teamServerUrl: string | undefined): MigrationTargets {
  let database = databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = '********';
    database = url.toString();
  } catch {
    // The request's schema already checked the scheme; an address URL cannot parse is shown as typed.
  }
  return { database, blobs, teamServer: teamServerUrl ?? null };
}

/** The question and the lines of detail the confirmation shows. */
export function migrationConfirmationText(targets: MigrationTargets): { question: string; detail: string[] } {
  const detail = [`Database: ${targets.database}`, `Files: ${targets.blobs}`];
  if (targets.teamServer !== null) {
    const unencrypted = isInsecureAddress(targets.teamServer) ? '; plain http: the key travels unencrypted' : '';
    detail.push(`Team server: ${targets.teamServer} (a connection to it gets the Local workspace's key${unencrypted})`);
  }
  return { question: 'Copy the Local workspace, with all its data, to this team server?', detail };
}
