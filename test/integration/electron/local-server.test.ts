/**
 * The Local workspace with the real server in a real child process: first start with sample data and a key from
 * the vault, restart without sample data, recovery after a crash with a growing wait, a clear failure when it cannot
 * start.
 */
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN } from '../../../electron/connections';
import { LocalWorkspace, type EmbeddedServerProcess } from '../../../electron/local-server';
import { nodeProcessLauncher } from '../../../electron/node-process-launcher';
import { MemoryVault } from '../../../electron/vault';
import type { LocalWorkspaceStatus } from '../../../shared/ipc';
import { eventually } from '../server/harness';

let folder: string;
let workspace: LocalWorkspace | undefined;

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'local-workspace-'));
});

afterEach(async () => {
  await workspace?.stop();
  workspace = undefined;
  await rm(folder, { recursive: true, force: true });
});

async function portfolios(url: string, key: string | undefined): Promise<string[]> {
  const response = await fetch(`${url}/api/v2.3/portfolios`, { headers: { 'x-api-key': key ?? '' } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((portfolio) => portfolio.name);
}

describe('the Local workspace', () => {
  it('starts with sample data and a fresh key on first start, and without sample data after that', async () => {
    const vault = new MemoryVault();
    const statuses: LocalWorkspaceStatus['state'][] = [];
    workspace = new LocalWorkspace({ dataDir: path.join(folder, 'data'), vault, launch: nodeProcessLauncher(), log: () => undefined });
    workspace.onStatus((status) => statuses.push(status.state));
    const url = await workspace.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await portfolios(url, key)).toEqual(['Demo portfolio']);

    const headers = { 'x-api-key': key ?? '' };
    for (const building of (await (await fetch(`${url}/api/v2.3/buildings`, { headers })).json()) as { id: string }[]) {
      expect((await fetch(`${url}/api/v2.3/buildings/${building.id}`, { method: 'DELETE', headers })).status).toBe(204);
    }
    for (const portfolio of (await (await fetch(`${url}/api/v2.3/portfolios`, { headers })).json()) as { id: string }[]) {
      expect((await fetch(`${url}/api/v2.3/portfolios/${portfolio.id}`, { method: 'DELETE', headers })).status).toBe(204);
    }
    await workspace.stop();
    expect(workspace.status().state).toBe('stopped');

    // A user who deleted the sample portfolio does not get it back on the next start.
    const again = await workspace.start();
    expect(await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN)).toBe(key);
    expect(await portfolios(again, key)).toEqual([]);
    expect(statuses).toEqual(['starting', 'running', 'stopped', 'starting', 'running']);
  });

  it('a key it had to make anew (the old one lost) revokes the old one on the server', async () => {
    const dataDir = path.join(folder, 'data');
    const vault = new MemoryVault();
    workspace = new LocalWorkspace({ dataDir, vault, launch: nodeProcessLauncher(), log: () => undefined });
    await workspace.start();
    const lost = await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
    await workspace.stop();
    // A vault that no longer holds it: another machine's copy, a reset keyring.
    const emptied = new MemoryVault();
    workspace = new LocalWorkspace({ dataDir, vault: emptied, launch: nodeProcessLauncher(), log: () => undefined });
    const url = await workspace.start();
    const made = await emptied.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
    expect(made).not.toBe(lost);
    expect(await portfolios(url, made)).toEqual(['Demo portfolio']);
    expect((await fetch(`${url}/api/v2.3/portfolios`, { headers: { 'x-api-key': lost ?? '' } })).status).toBe(401);
  });

  it('is started again when its process dies, and says so', async () => {
    const processes: EmbeddedServerProcess[] = [];
    const launch = nodeProcessLauncher();
    const vault = new MemoryVault();
    workspace = new LocalWorkspace({
      dataDir: path.join(folder, 'data'),
      vault,
      launch: (args, env) => {
        const started = launch(args, env);
        processes.push(started);
        return started;
      },
      log: () => undefined,
    });
    const first = await workspace.start();
    processes[0]?.kill();
    const second = await eventually(
      async () => workspace?.baseUrl(),
      (url) => url !== undefined && url !== first && workspace?.status().state === 'running',
    );
    expect(processes).toHaveLength(2);
    expect(await portfolios(second ?? '', await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN))).toEqual(['Demo portfolio']);
  });

  // Three starts of the real server: more than the default timeout allows on a busy machine.
  it('waits longer before each restart in a row, says so, and is left failed after the last', { timeout: 120_000 }, async () => {
    const processes: EmbeddedServerProcess[] = [];
    const launch = nodeProcessLauncher();
    const statuses: LocalWorkspaceStatus[] = [];
    workspace = new LocalWorkspace({
      dataDir: path.join(folder, 'data'),
      vault: new MemoryVault(),
      launch: (args, env) => {
        const started = launch(args, env);
        processes.push(started);
        return started;
      },
      log: () => undefined,
      maxRestarts: 2,
      restartDelayMs: 100,
      stableAfterMs: 600_000,
    });
    workspace.onStatus((status) => statuses.push(status));
    await workspace.start();
    for (const crashed of [0, 1]) {
      processes[crashed]?.kill();
      await eventually(
        async () => processes.length,
        (count) => count === crashed + 2 && workspace?.status().state === 'running',
      );
    }
    processes[2]?.kill();
    await eventually(async () => workspace?.status().state, (state) => state === 'failed');
    const restarting = statuses.filter((status) => status.state === 'restarting');
    expect(restarting).toEqual([
      { state: 'restarting', message: expect.stringMatching(/stopped/), restartInMs: 100, attempt: 1 },
      { state: 'restarting', message: expect.stringMatching(/stopped/), restartInMs: 200, attempt: 2 },
    ]);
    expect(processes).toHaveLength(3);
  });

  // Three starts of the real server: more than the default timeout allows on a busy machine.
  it('counts a crash after a while of running well as the first in a row again', { timeout: 120_000 }, async () => {
    const processes: EmbeddedServerProcess[] = [];
    const launch = nodeProcessLauncher();
    const attempts: (number | undefined)[] = [];
    workspace = new LocalWorkspace({
      dataDir: path.join(folder, 'data'),
      vault: new MemoryVault(),
      launch: (args, env) => {
        const started = launch(args, env);
        processes.push(started);
        return started;
      },
      log: () => undefined,
      maxRestarts: 1,
      restartDelayMs: 100,
      // Any time running counts as running well here.
      stableAfterMs: 0,
    });
    workspace.onStatus((status) => {
      if (status.state === 'restarting') attempts.push(status.attempt);
    });
    await workspace.start();
    for (const crashed of [0, 1]) {
      processes[crashed]?.kill();
      await eventually(
        async () => processes.length,
        (count) => count === crashed + 2 && workspace?.status().state === 'running',
      );
    }
    expect(attempts).toEqual([1, 1]);
  });

  it('a restart that is waited for is called off when the workspace is stopped', async () => {
    const processes: EmbeddedServerProcess[] = [];
    const launch = nodeProcessLauncher();
    workspace = new LocalWorkspace({
      dataDir: path.join(folder, 'data'),
      vault: new MemoryVault(),
      launch: (args, env) => {
        const started = launch(args, env);
        processes.push(started);
        return started;
      },
      log: () => undefined,
      restartDelayMs: 300,
    });
    await workspace.start();
    processes[0]?.kill();
    await eventually(async () => workspace?.status().state, (state) => state === 'restarting');
    await workspace.stop();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(workspace.status().state).toBe('stopped');
    expect(processes).toHaveLength(1);
  });

  it('stays in its own folder when the environment names a team server database', async () => {
    const saved = { database: process.env['DATABASE_URL'], blobs: process.env['BLOB_STORE_URL'] };
    process.env['DATABASE_URL'] = 'postgres://nobody@127.0.0.1:1/unreachable';
    process.env['BLOB_STORE_URL'] = path.join(folder, 'team-blobs');
    try {
      const vault = new MemoryVault();
      workspace = new LocalWorkspace({ dataDir: path.join(folder, 'data'), vault, launch: nodeProcessLauncher(), log: () => undefined });
      const url = await workspace.start();
      expect(await portfolios(url, await vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN))).toEqual(['Demo portfolio']);
      await expect(access(path.join(folder, 'data', 'circularity.sqlite'))).resolves.toBeUndefined();
    } finally {
      for (const [name, value] of [['DATABASE_URL', saved.database], ['BLOB_STORE_URL', saved.blobs]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('fails with a reason the user can read when the server cannot start', async () => {
    const blocked = path.join(folder, 'not-a-folder');
    await writeFile(blocked, 'a file where the data folder should be');
    workspace = new LocalWorkspace({ dataDir: blocked, vault: new MemoryVault(), launch: nodeProcessLauncher(), log: () => undefined });
    await expect(workspace.start()).rejects.toThrow(/Local workspace server/);
    expect(workspace.status()).toMatchObject({ state: 'failed', message: expect.stringMatching(/Local workspace server/) });
  });
});
