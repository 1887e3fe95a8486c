import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaunchRequests, type LaunchActions } from '../../../electron/launch-requests';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'launch-requests-'));
  await writeFile(path.join(dir, 'model.ifc'), 'ISO-10303-21;');
  await writeFile(path.join(dir, 'rows.csv'), 'a;b');
  await writeFile(path.join(dir, 'notes.txt'), 'x');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The app's side, recording what it was asked to do in order. */
function recordingActions(): LaunchActions & { done: string[] } {
  const done: string[] = [];
  return {
    done,
    provision: async (request) => {
      done.push(`provision ${request.connect ?? '-'} ${request.keyFile ?? '-'}`);
    },
    openFiles: async (paths) => {
      done.push(`open ${paths.map((each) => path.basename(each)).join(',')}`);
    },
    log: (message) => {
      done.push(`log ${message}`);
    },
  };
}

describe('LaunchRequests', () => {
  it('acts on a second instance’s arguments, its files found from its own working directory', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    await requests.ready(actions);
    await requests.commandLine(['/opt/desk/desk', '--no-sandbox', '--connect', 'https://desk.example.org', '--key-file', 'key.txt', 'model.ifc'], dir);
    expect(actions.done).toEqual([`provision https://desk.example.org ${path.join(dir, 'key.txt')}`, 'open model.ifc']);
  });

  it('does nothing for a second launch without arguments (main only shows the window)', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    await requests.ready(actions);
    await requests.commandLine(['/opt/desk/desk', '--original-process-start-time=1'], dir);
    expect(actions.done).toEqual([]);
  });

  it('hands half of the connection options on, so that the user hears they go together', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    await requests.ready(actions);
    await requests.commandLine(['desk', '--connect', 'https://desk.example.org'], dir);
    expect(actions.done).toEqual(['provision https://desk.example.org -']);
  });

  it('keeps launches and macOS open-file events that come before the app is ready, and acts on them in order', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    const first = requests.openFile(path.join(dir, 'rows.csv'));
    const second = requests.commandLine(['desk', 'model.ifc'], dir);
    expect(actions.done).toEqual([]);
    await requests.ready(actions);
    await Promise.all([first, second]);
    expect(actions.done).toEqual(['open rows.csv', 'open model.ifc']);
  });

  it('logs an opened file the app does not take instead of acting on it', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    await requests.ready(actions);
    await requests.openFile(path.join(dir, 'notes.txt'));
    expect(actions.done).toHaveLength(1);
    expect(actions.done[0]).toMatch(/^log .*notes\.txt is not a model or spreadsheet/);
  });

  it('logs a failing action and goes on with the next launch', async () => {
    const requests = new LaunchRequests();
    const actions = recordingActions();
    await requests.ready({
      ...actions,
      provision: async () => {
        throw new Error('no key file');
      },
    });
    await requests.commandLine(['desk', '--connect', 'https://a.example.org', '--key-file', 'k', 'model.ifc'], dir);
    await requests.commandLine(['desk', 'rows.csv'], dir);
    expect(actions.done).toEqual(['log Acting on a launch of the app failed', 'open rows.csv']);
  });
});
