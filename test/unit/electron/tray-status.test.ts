import { describe, expect, it } from 'vitest';
import {
  MAX_TOOLTIP_LENGTH,
  httpActivityLabel,
  localWorkspaceLabel,
  trayView,
  uploadsLabel,
  type TrayMenuItem,
  type TrayStatusInput,
} from '../../../electron/tray-status';

const running: TrayStatusInput = { local: { state: 'running' }, queued: 0, running: 0, uploadsInFlight: 0, uploadsFailed: 0 };

function actions(items: TrayMenuItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'action' ? [item.action] : []));
}

function labels(items: TrayMenuItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'label' ? [item.label] : []));
}

describe('localWorkspaceLabel', () => {
  it.each([
    ['starting', 'Local workspace: starting'],
    ['running', 'Local workspace: running'],
    ['restarting', 'Local workspace: restarting'],
    ['stopped', 'Local workspace: stopped'],
    ['failed', 'Local workspace: failed'],
  ] as const)('names the %s state', (state, label) => {
    expect(localWorkspaceLabel({ state })).toBe(label);
  });
});

describe('httpActivityLabel', () => {
  it('says when nothing is going on', () => {
    expect(httpActivityLabel(0, 0)).toBe('No requests in progress');
  });

  it('counts running and waiting requests, singular and plural', () => {
    expect(httpActivityLabel(0, 1)).toBe('1 request in progress');
    expect(httpActivityLabel(0, 3)).toBe('3 requests in progress');
    expect(httpActivityLabel(5, 2)).toBe('2 requests in progress, 5 waiting');
    expect(httpActivityLabel(4, 0)).toBe('4 waiting');
  });
});

describe('uploadsLabel', () => {
  it('says when no upload is on its way', () => {
    expect(uploadsLabel(0, 0)).toBe('No uploads in progress');
  });

  it('counts uploads on their way and failed ones, singular and plural', () => {
    expect(uploadsLabel(1, 0)).toBe('1 upload in progress');
    expect(uploadsLabel(3, 2)).toBe('3 uploads in progress, 2 uploads failed');
    expect(uploadsLabel(0, 1)).toBe('1 upload failed');
  });
});

describe('trayView', () => {
  it('shows the Local workspace, the uploads and the activity, then Open and Quit', () => {
    const view = trayView({ ...running, running: 2, queued: 1, uploadsInFlight: 1 });
    expect(view.tooltip).toBe('Circularity Desk — Local workspace: running — 1 upload in progress — 2 requests in progress, 1 waiting');
    expect(labels(view.items)).toEqual(['Local workspace: running', '1 upload in progress', '2 requests in progress, 1 waiting']);
    expect(actions(view.items)).toEqual(['open', 'quit']);
    expect(view.items.at(-1)).toEqual({ kind: 'action', action: 'quit', label: 'Quit' });
  });

  it('offers a restart when the Local workspace failed, with the reason', () => {
    const view = trayView({ ...running, local: { state: 'failed', message: 'Port in use' } });
    expect(labels(view.items)).toContain('Port in use');
    expect(actions(view.items)).toEqual(['open', 'restart-local', 'quit']);
  });

  it('offers a restart when the Local workspace stopped, and none while it starts', () => {
    expect(actions(trayView({ ...running, local: { state: 'stopped' } }).items)).toContain('restart-local');
    expect(actions(trayView({ ...running, local: { state: 'starting' } }).items)).not.toContain('restart-local');
  });

  it('keeps the tooltip and a long failure reason within their limits', () => {
    const message = 'x'.repeat(500);
    const view = trayView({ local: { state: 'failed', message }, queued: 123_456, running: 654_321, uploadsInFlight: 98_765, uploadsFailed: 4_321 });
    expect(view.tooltip.length).toBeLessThanOrEqual(MAX_TOOLTIP_LENGTH);
    const reason = labels(view.items).find((label) => label.startsWith('x'));
    expect(reason?.length).toBe(80);
    expect(reason?.endsWith('…')).toBe(true);
  });
});
