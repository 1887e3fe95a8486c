/**
 * Starts the embedded server as a Node child process: the Local workspace of browser mode. The server runs from its
 * TypeScript sources through tsx, or from the built bundle when one is given.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { EmbeddedServerProcess, LocalServerLauncher } from './local-server';

/** The server's command-line entry in this repository. */
export const SERVER_SOURCE_ENTRY = fileURLToPath(new URL('../server/cli.ts', import.meta.url));

/** A launcher forking `entry` (a `.ts` entry runs through tsx) with an IPC channel for the embedded-server messages. */
export function nodeProcessLauncher(entry: string = SERVER_SOURCE_ENTRY): LocalServerLauncher {
  const execArgv = entry.endsWith('.ts') ? ['--import', createRequire(import.meta.url).resolve('tsx')] : [];
  return (args, env): EmbeddedServerProcess => {
    const child = fork(entry, args, {
      execArgv,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    return {
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => {
        if (child.exitCode !== null || child.signalCode !== null) listener(child.exitCode);
        else child.once('exit', (code) => listener(code));
      },
      send: (message) => {
        if (child.connected) child.send(message as object);
      },
      kill: () => child.kill('SIGKILL'),
      stdout: child.stdout,
      stderr: child.stderr,
    };
  };
}
