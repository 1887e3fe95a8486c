/**
 * The Local workspace: the embedded server the app runs for itself, with its data in the user-data folder and a
 * random key kept in the vault. It is started as a separate process (an Electron utilityProcess in the app, a Node
 * child process in browser mode) so a crash or a long import never freezes the window, and it is restarted when it
 * dies unexpectedly: after 1 s, then 2 s, 4 s … so that a server that keeps crashing does not take the cores.
 */
import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { BOOTSTRAP_KEY_ENV, embeddedServerMessageOf, LOCAL_WORKSPACE_ACCOUNT_NAME } from '../shared/embedded-server';
import type { LocalWorkspaceStatus } from '../shared/ipc';
import { BLOB_STORE_URL_ENV, DATABASE_URL_ENV } from '../shared/workspace-migration';
import { LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN } from './connections';
import type { Vault } from './vault';

/** A running server process, whatever kind of process hosts it. */
export interface EmbeddedServerProcess {
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  send(message: unknown): void;
  kill(): void;
  stdout: NodeJS.ReadableStream | null;
  stderr: NodeJS.ReadableStream | null;
}

/** Starts the server's `serve` command with these arguments and extra environment variables. */
export type LocalServerLauncher = (args: string[], env: Record<string, string>) => EmbeddedServerProcess;

/** How the Local workspace runs. */
export interface LocalWorkspaceOptions {
  /** Folder of the workspace's database and blobs. */
  dataDir: string;
  vault: Vault;
  launch: LocalServerLauncher;
  log: (message: string, error?: unknown) => void;
  /** How long a start may take before it counts as failed. */
  startTimeoutMs?: number;
  /** How long a shutdown may take before the process is killed. */
  stopTimeoutMs?: number;
  /** Unexpected exits restarted in a row before the workspace is left failed. */
  maxRestarts?: number;
  /** The wait before the first restart in a row; each further one waits twice as long as the one before. */
  restartDelayMs?: number;
  /** The longest wait before a restart. */
  maxRestartDelayMs?: number;
  /** How long a restarted server must run before an exit counts as the first in a row again. */
  stableAfterMs?: number;
}

const DATABASE_FILE = 'circularity.sqlite';

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the last lines a process wrote, so a failed start can say why. */
function tailOf(stream: NodeJS.ReadableStream | null, lines: string[]): void {
  stream?.on('data', (chunk: Buffer | string) => {
    lines.push(...String(chunk).split('\n').filter((line) => line.trim() !== ''));
    lines.splice(0, Math.max(0, lines.length - 20));
  });
}

/** The embedded server of the Local workspace. */
export class LocalWorkspace {
  private current: LocalWorkspaceStatus = { state: 'stopped' };
  private process: EmbeddedServerProcess | undefined;
  private url: string | undefined;
  private starting: Promise<string> | undefined;
  private stopping = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private runningSince = 0;
  private readonly listeners = new Set<(status: LocalWorkspaceStatus) => void>();
  private readonly urlListeners = new Set<(url: string) => void>();

  constructor(private readonly options: LocalWorkspaceOptions) {}

  /** The workspace's state now. */
  status(): LocalWorkspaceStatus {
    return this.current;
  }

  /** The address the server listens at, once it runs. */
  baseUrl(): string | undefined {
    return this.url;
  }

  /** Calls `listener` on every change of state. */
  onStatus(listener: (status: LocalWorkspaceStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` whenever the server listens at a (new) address, e.g. after a restart. */
  onListening(listener: (url: string) => void): () => void {
    this.urlListeners.add(listener);
    return () => this.urlListeners.delete(listener);
  }

  /** Starts the server unless it runs; resolves with its address, rejects with the reason it could not start. */
  start(): Promise<string> {
    if (this.url !== undefined && this.process !== undefined) return Promise.resolve(this.url);
    this.stopping = false;
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Stops and starts the server again (the user's "Restart" after a failure). */
  async restart(): Promise<string> {
    await this.stop();
    this.restarts = 0;
    return this.start();
  }

  /** Asks the server to finish its work and exit; kills it when it does not within the time limit. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer !== undefined) {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      this.setStatus({ state: 'stopped' });
    }
    const running = this.process;
    if (running === undefined) return;
    const exited = new Promise<void>((resolve) => running.onExit(() => resolve()));
    running.send({ type: 'shutdown' });
    const timeout = this.options.stopTimeoutMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeout);
    });
    if ((await Promise.race([exited, timedOut])) === 'timeout') {
      this.options.log(`The Local workspace server did not stop within ${timeout} ms; it was killed.`);
      running.kill();
      await exited;
    }
    clearTimeout(timer);
  }

  private setStatus(status: LocalWorkspaceStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }

  /**
   * The workspace's key: created on first start and kept in the vault, never on the command line. `fresh` when it was
   * made now, so that the server deletes the keys made before it (one the vault could no longer read may be held by
   * someone else).
   */
  private async key(): Promise<{ key: string; fresh: boolean }> {
    let key: string | undefined;
    try {
      key = await this.options.vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN);
    } catch (error) {
      // An unreadable key (vault moved to another machine, OS key changed) is replaced: the server takes any key it is given.
      this.options.log('The Local workspace key could not be read; a new one is made.', error);
    }
    if (key !== undefined) return { key, fresh: false };
    const fresh = randomBytes(32).toString('base64url');
    // The key guards a server on 127.0.0.1 whose data lies unencrypted in the same user folder, so an
    // obfuscation-only vault protects it as well as anything could: no consent is asked for it, and none is recorded
    // for the user's own keys.
    await this.options.vault.set(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN, fresh, { allowInsecureStorage: true, rememberConsent: false });
    return { key: fresh, fresh: true };
  }

  private async launch(): Promise<string> {
    this.setStatus({ state: 'starting' });
    try {
      const { key, fresh } = await this.key();
      // Sample data only on the very first start: a user who deletes the demo portfolio does not get it back.
      const firstStart = !(await exists(path.join(this.options.dataDir, DATABASE_FILE)));
      // One user on 127.0.0.1: no limit on requests per key, which is for servers many share.
      const args = [
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data',
        this.options.dataDir,
        '--quiet',
        '--rate-limit=0',
        `--account-name=${LOCAL_WORKSPACE_ACCOUNT_NAME}`,
      ];
      if (firstStart) args.push('--demo');
      if (fresh) args.push('--replace-bootstrap-keys');
      // Empty team-server addresses: a DATABASE_URL or BLOB_STORE_URL in the user's environment must not move the
      // Local workspace off its own folder.
      const url = await this.spawn(args, { [BOOTSTRAP_KEY_ENV]: key, [DATABASE_URL_ENV]: '', [BLOB_STORE_URL_ENV]: '' });
      this.runningSince = Date.now();
      this.setStatus({ state: 'running' });
      return url;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.setStatus({ state: 'failed', message });
      throw error;
    }
  }

  private spawn(args: string[], env: Record<string, string>): Promise<string> {
    const child = this.options.launch(args, env);
    this.process = child;
    const output: string[] = [];
    tailOf(child.stdout, output);
    tailOf(child.stderr, output);
    const timeoutMs = this.options.startTimeoutMs ?? 120_000;
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settle(() => reject(new Error(`The Local workspace server did not start within ${timeoutMs / 1000} s.`)));
        child.kill();
      }, timeoutMs);
      const settle = (action: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
      };
      child.onMessage((raw) => {
        const message = embeddedServerMessageOf(raw);
        if (message === undefined) return;
        switch (message.type) {
          case 'listening':
            this.url = message.url;
            for (const listener of this.urlListeners) listener(message.url);
            settle(() => resolve(message.url));
            break;
          case 'failed':
            settle(() => reject(new Error(`The Local workspace server could not start: ${message.message}`)));
            break;
        }
      });
      child.onExit((code) => {
        if (this.process === child) {
          this.process = undefined;
          this.url = undefined;
        }
        const reason = `The Local workspace server stopped (exit code ${code ?? 'none'}).${output.length > 0 ? ` Last output: ${output.slice(-3).join(' | ')}` : ''}`;
        if (!settled) {
          settle(() => reject(new Error(reason)));
          return;
        }
        if (this.stopping) {
          this.setStatus({ state: 'stopped' });
          return;
        }
        this.recover(reason, Date.now() - this.runningSince);
      });
    });
  }

  /**
   * Restarts a server that died on its own after a wait that doubles with each exit in a row, then leaves it failed
   * for the user to see. A server that ran well for a while starts a new row: one crash a day is not a crash loop.
   */
  private recover(reason: string, ranForMs: number): void {
    const limit = this.options.maxRestarts ?? 5;
    this.options.log(reason);
    if (ranForMs >= (this.options.stableAfterMs ?? 5 * 60_000)) this.restarts = 0;
    if (this.restarts >= limit) {
      this.setStatus({ state: 'failed', message: reason });
      return;
    }
    this.restarts += 1;
    const delayMs = Math.min((this.options.restartDelayMs ?? 1000) * 2 ** (this.restarts - 1), this.options.maxRestartDelayMs ?? 30_000);
    this.options.log(`The Local workspace server is restarted in ${delayMs} ms (attempt ${this.restarts} of ${limit}).`);
    this.setStatus({ state: 'restarting', message: reason, restartInMs: delayMs, attempt: this.restarts });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start().catch((error: unknown) => {
        this.options.log('Restarting the Local workspace server failed.', error);
        if (!this.stopping) this.recover(error instanceof Error ? error.message : String(error), 0);
      });
    }, delayMs);
  }
}
