import { afterEach, describe, expect, it } from 'vitest';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, databaseArgs, serverEnvironment, type TestDatabase } from './test-database';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'server/cli.ts');
const run = promisify(execFile);

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let database: TestDatabase | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
  await database?.drop();
  database = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

/** Starts `serve` and resolves with the address it prints once ready. */
function serve(args: string[]): Promise<string> {
  child = spawn(tsx, [cli, 'serve', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: serverEnvironment() });
  return new Promise((resolve, reject) => {
    let output = '';
    child?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match !== null) resolve(match[0]);
    });
    child?.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child?.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

// Each test starts the command line (tsx compiles it first) one or more times: on a busy machine that takes a while.
describe('the command line', { timeout: 90_000 }, () => {
  it('serves with a bootstrap key, creates scoped keys, and shuts down gracefully on SIGTERM', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-cli-'));
    database = await createTestDatabase();
    const store = ['--data', dataDir, ...databaseArgs(database)];
    const url = await serve(['--port', '0', ...store, '--bootstrap-key', 'bootstrap-key-for-the-cli-test-0123456789', '--quiet', '--account-name', 'Team Noord']);
    const account = await fetch(`${url}/api/v2.3/accounts/current`, { headers: { 'x-api-key': 'bootstrap-key-for-the-cli-test-0123456789' } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ name: 'Team Noord', accountType: 3 });

    const portfolio = (await (
      await fetch(`${url}/api/v2.3/portfolios`, {
        method: 'POST',
        headers: { 'x-api-key': 'bootstrap-key-for-the-cli-test-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From the CLI test' }),
      })
    ).json()) as { id: string };
    const { stdout } = await run(tsx, [cli, 'token', 'create', '--scope', `portfolio:${portfolio.id}`, '--level', '50', ...store], {
      cwd: repoRoot,
      env: serverEnvironment(),
    });
    const key = stdout.trim();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const seen = await fetch(`${url}/api/v2.3/portfolios`, { headers: { 'x-api-key': key } });
    expect(((await seen.json()) as { id: string }[]).map((p) => p.id)).toEqual([portfolio.id]);
    const write = await fetch(`${url}/api/v2.3/portfolios/${portfolio.id}`, {
      method: 'PUT',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(write.status).toBe(403);

    child?.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a bootstrap key shorter than 32 characters, from the option or the environment', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-cli-'));
    for (const [args, env] of [
      [['--bootstrap-key=short-key-0123456789'], {}],
      [[], { CIRCULARITY_BOOTSTRAP_KEY: 'short-key-0123456789' }],
    ] as const) {
      const failure = await run(tsx, [cli, 'serve', '--port', '0', '--data', dataDir, ...args], {
        cwd: repoRoot,
        env: { ...serverEnvironment(), ...env },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure).toMatchObject({ code: 2 });
      expect(failure.stderr).toContain('at least 32 characters');
    }
  });

  it('refuses a bad scope with a clear message', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-cli-'));
    const failure = await run(tsx, [cli, 'token', 'create', '--scope', 'galaxy', '--level', '50', '--data', dataDir], {
      cwd: repoRoot,
      env: serverEnvironment(),
    }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('--scope must be account');
  });
});
