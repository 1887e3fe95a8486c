/**
 * The real processes the e2e specs drive: the browser host (`npm run web`'s entry) with a fresh user-data folder,
 * and a separately started API server. Each prints the line the specs wait for; nothing waits on sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');

/** A started process and what its output told. */
export interface StartedProcess {
  lines: string[];
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** How much of a process's stderr is kept for its failure message. */
const STDERR_TAIL_CHARS = 64 * 1024;

/** A started entry: `stop` ends it; an exit before that is reported with its stderr, where the test's output shows it. */
interface StartedEntry {
  lines: string[];
  match: RegExpExecArray;
  stop(): Promise<void>;
}

/** Starts a TypeScript entry of the repository and resolves once `ready` matches a line of its stdout. */
async function startEntry(entry: string, args: string[], ready: RegExp, timeoutMs = 120_000): Promise<StartedEntry> {
  const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env },
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + String(chunk)).slice(-STDERR_TAIL_CHARS);
  });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} printed no ready line in ${timeoutMs} ms. ${stderr}`)), timeoutMs);
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += String(chunk);
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const found = ready.exec(line);
        if (found !== null) {
          clearTimeout(timer);
          resolve(found);
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}. ${stderr}`));
    });
  });
  let stopping = false;
  // A process that dies while a test drives it takes the reason with it unless it is told here.
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`${entry} ${args.join(' ')} exited while in use (${signal ?? `exit code ${code}`}). Its stderr:\n${stderr}\n`);
  });
  return {
    lines,
    match,
    async stop() {
      stopping = true;
      await stopChild(child);
    },
  };
}
/** The app in browser mode on a free port with a fresh user-data folder. */
export interface BrowserHost extends StartedProcess {
  url: string;
  userDataDir: string;
}

/**
 * Starts `npm run web -- --port 0 --user-data <dir> [extra]` and resolves with the address it printed. The folder is a
 * fresh one, removed when the host stops, unless `userDataDir` names one the caller keeps.
 */
export async function startBrowserHost(extra: string[] = [], userDataDir?: string): Promise<BrowserHost> {
  const owned = userDataDir === undefined;
  const dataDir = userDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-')));
  const started = await startEntry(
    'electron/web-cli.ts',
    ['--port', '0', '--user-data', dataDir, ...extra],
    /(http:\/\/127\.0\.0\.1:\d+\/\S*)/,
  );
  return {
    url: started.match[1] ?? '',
    userDataDir: dataDir,
    lines: started.lines,
    async stop() {
      await started.stop();
      if (owned) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A separately started API server and the administrator key it runs with. */
export interface RemoteServer extends StartedProcess {
  url: string;
  key: string;
  /** Its data folder, removed when it stops unless the caller gave it. */
  dataDir: string;
}

/** How a remote server is started: by default on a fresh folder with sample data, a free port and a printed key. */
export interface RemoteServerOptions {
  /** A folder to keep using (a restart of the same server); kept when the server stops. */
  dataDir?: string;
  /** The port to listen on (a restart at the same address). */
  port?: number;
  /** The administrator key; without one the server makes and prints one. */
  key?: string;
  /** Sample data (default: true without `dataDir`). */
  demo?: boolean;
}

/** Starts `serve` on 127.0.0.1 and resolves once it listens. */
export async function startRemoteServer(options: RemoteServerOptions = {}): Promise<RemoteServer> {
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-server-')));
  const args = ['serve', '--port', String(options.port ?? 0), '--data', dataDir, '--quiet'];
  if (options.demo ?? owned) args.push('--demo');
  // The joined form: a random key may begin with a dash, which would read as an option.
  if (options.key !== undefined) args.push(`--bootstrap-key=${options.key}`);
  const keyLine = /^Administrator key for this start: (\S+)/;
  const listeningLine = /listening on (http:\/\/\S+)/;
  // A made-up key is printed after the address: then that line is the one to wait for.
  const printsKey = options.key === undefined && args.includes('--demo');
  const started = await startEntry('server/cli.ts', args, printsKey ? keyLine : listeningLine);
  const found = (pattern: RegExp): string => started.lines.map((line) => pattern.exec(line)?.[1]).find((value) => value !== undefined) ?? '';
  return {
    url: found(listeningLine),
    key: options.key ?? found(keyLine),
    dataDir,
    lines: started.lines,
    async stop() {
      await started.stop();
      if (owned) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One request to a remote server with its administrator key (JSON, or bytes as an upload); throws unless it is 2xx. */
export async function remoteApi<T>(server: RemoteServer, method: string, route: string, body?: unknown): Promise<T> {
  const binary = body instanceof Uint8Array;
  const response = await fetch(`${server.url}/api/v2.3${route}`, {
    method,
    headers: {
      'x-api-key': server.key,
      ...(body === undefined ? {} : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
    },
    body: body === undefined ? undefined : binary ? Uint8Array.from(body) : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}
