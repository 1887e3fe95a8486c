/**
 * What the tray shows: a tooltip and a menu built from the desktop host's status. Plain data, so main.ts only turns
 * it into Electron's Tray and Menu, and the wording is tested without Electron.
 */
import { assertNever } from '../shared/api/enums';
import type { LocalWorkspaceStatus } from '../shared/ipc';

/** The status the tray is built from: the Local workspace, the calls of all queued clients together, and the uploads. */
export interface TrayStatusInput {
  local: LocalWorkspaceStatus;
  queued: number;
  running: number;
  /** Uploads of the pages and drop folder files on their way to the server, and those that failed. */
  uploadsInFlight: number;
  uploadsFailed: number;
}

/** What a clickable tray item does. */
export type TrayAction = 'open' | 'restart-local' | 'quit';

/** One line of the tray menu. */
export type TrayMenuItem =
  | { kind: 'label'; label: string }
  | { kind: 'separator' }
  | { kind: 'action'; action: TrayAction; label: string };

/** The tray's tooltip and menu. */
export interface TrayView {
  tooltip: string;
  items: TrayMenuItem[];
}

/** The app's name, which starts the tooltip. */
export const TRAY_TITLE = 'Circularity Desk';

/** Windows cuts tray tooltips at 127 characters; a longer one is shortened with an ellipsis instead. */
export const MAX_TOOLTIP_LENGTH = 127;

/** The Local workspace's state as one phrase. */
export function localWorkspaceLabel(status: LocalWorkspaceStatus): string {
  switch (status.state) {
    case 'starting':
      return 'Local workspace: starting';
    case 'running':
      return 'Local workspace: running';
    case 'restarting':
      return 'Local workspace: restarting';
    case 'stopped':
      return 'Local workspace: stopped';
    case 'failed':
      return 'Local workspace: failed';
    default:
      return assertNever(status.state);
  }
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The HTTP activity of all connections as one phrase. */
export function httpActivityLabel(queued: number, running: number): string {
  if (queued <= 0 && running <= 0) return 'No requests in progress';
  const parts: string[] = [];
  if (running > 0) parts.push(`${count(running, 'request', 'requests')} in progress`);
  if (queued > 0) parts.push(`${queued} waiting`);
  return parts.join(', ');
}

/** The uploads as one phrase. */
export function uploadsLabel(inFlight: number, failed: number): string {
  if (inFlight <= 0 && failed <= 0) return 'No uploads in progress';
  const parts: string[] = [];
  if (inFlight > 0) parts.push(`${count(inFlight, 'upload', 'uploads')} in progress`);
  if (failed > 0) parts.push(`${count(failed, 'upload', 'uploads')} failed`);
  return parts.join(', ');
}

function shorten(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** Builds the tray's tooltip and menu; a stopped or failed Local workspace gets a restart item. */
export function trayView(status: TrayStatusInput): TrayView {
  const local = localWorkspaceLabel(status.local);
  const http = httpActivityLabel(status.queued, status.running);
  const uploads = uploadsLabel(status.uploadsInFlight, status.uploadsFailed);
  const items: TrayMenuItem[] = [{ kind: 'label', label: local }];
  if (status.local.state === 'failed' && status.local.message !== undefined && status.local.message !== '') {
    items.push({ kind: 'label', label: shorten(status.local.message, 80) });
  }
  items.push({ kind: 'label', label: uploads }, { kind: 'label', label: http }, { kind: 'separator' }, { kind: 'action', action: 'open', label: 'Open Circularity Desk' });
  if (status.local.state === 'failed' || status.local.state === 'stopped') {
    items.push({ kind: 'action', action: 'restart-local', label: 'Restart Local workspace' });
  }
  items.push({ kind: 'separator' }, { kind: 'action', action: 'quit', label: 'Quit' });
  return { tooltip: shorten(`${TRAY_TITLE} — ${local} — ${uploads} — ${http}`, MAX_TOOLTIP_LENGTH), items };
}
