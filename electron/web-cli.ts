/**
 * `npm run web`: the app in a browser, for machines where Electron cannot run. Builds the renderer if needed, starts
 * the same desktop services as the Electron app (with a file vault) and the browser host, and prints the one address
 * to open.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { startDesktopHost } from './desktop';
import { openLocalKeyCipher } from './local-key-cipher';
import { migrationConfirmationText, type MigrationTargets } from './migration-confirmation';
import { useEnvironmentProxy } from './network/use-environment-proxy';
import { nodeProcessLauncher } from './node-process-launcher';
import { provisioningRequestOf, readKeyFile } from './provisioning';
import { ensureRendererBuilt } from './renderer-build';
import { defaultUserDataDir } from './user-data-dir';
import { FileVault } from './vault';
import { startWebHost } from './web-host';
import { listenOnInstallationPort } from './web-port';

const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

const usage = `Usage: npm run web -- [--port <n>] [--user-data <dir>] [--open] [--connect <url> --key-file <file>] [--new-vault-key]
  --port           port on 127.0.0.1 (default: one chosen at random at the first start and kept; 0 picks a free one)
  --user-data      folder of connections, keys and the Local workspace (default: the installed app's)
  --open           open the address in the system browser
  --connect        add or update the connection to this server and make it active (with --key-file: its API key)
  --new-vault-key  start with a new vault key when the OS keyring that held the old one is gone for good
                   (the API keys of all connections must then be entered again)`;

function log(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
  console.error(`${new Date().toISOString()} ${message}${detail}`);
}

/**
 * Opens an address in the system browser, or a folder or file with its application, through the platform's opener;
 * browser mode has no Electron shell.
 */
async function openWithSystem(target: string): Promise<void> {
  const command = process.platform === 'win32' ? 'explorer' : process.platform === 'darwin' ? 'open' : 'xdg-open';
  const child = spawn(command, [target], { detached: true, stdio: 'ignore' });
  child.on('error', (error) => log(`Opening ${target} failed`, error));
  child.unref();
}

/**
 * The confirmation of a move of the Local workspace, asked in the terminal browser mode runs in: the page cannot
 * answer it, so a page made to pass other targets cannot move the workspace unseen.
 */
async function confirmMigrationInTerminal(targets: MigrationTargets): Promise<boolean> {
  const { question, detail } = migrationConfirmationText(targets);
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await terminal.question(`\n${question}\n  ${detail.join('\n  ')}\nType yes to copy: `);
    return answer.trim().toLowerCase() === 'yes';
  } finally {
    terminal.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'user-data': { type: 'string' },
      open: { type: 'boolean', default: false },
      connect: { type: 'string' },
      'key-file': { type: 'string' },
      'new-vault-key': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) throw new Error(`--port must be 0..65535, not '${values.port}'.\n${usage}`);
  const userDataDir = path.resolve(values['user-data'] ?? defaultUserDataDir());
  const proxyNote = useEnvironmentProxy(process.env);
  if (proxyNote !== undefined) log(proxyNote);
  const provisioning = provisioningRequestOf(values);
  const provisionedKey = provisioning === undefined ? undefined : await readKeyFile(provisioning.keyFile);

  const staticDir = path.join(REPOSITORY_ROOT, 'dist', 'renderer');
  if (await ensureRendererBuilt(REPOSITORY_ROOT, staticDir)) log('Built the app.');

  // Its own file: the app's vault is encrypted by Electron's safeStorage, which browser mode cannot read.
  const vaultFile = path.join(userDataDir, 'vault-browser.json');
  const cipher = await openLocalKeyCipher(userDataDir, {
    newVaultKey: values['new-vault-key'],
    keysStored: await FileVault.holdsKeys(vaultFile),
    log,
  });
  const vault = await FileVault.open(vaultFile, cipher);
  if (vault.setAside !== undefined) log(`The key vault could not be read and was moved aside to ${vault.setAside}; keys must be entered again.`);
  const version = (JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const host = await startDesktopHost({
    userDataDir,
    host: 'browser',
    version,
    vault,
    startLocalServer: nodeProcessLauncher(),
    openExternal: openWithSystem,
    openPath: openWithSystem,
    ...(process.stdin.isTTY ? { confirmMigration: confirmMigrationInTerminal } : {}),
    log,
  });
  if (provisioning !== undefined && provisionedKey !== undefined) {
    const connection = await host.provision(provisioning.baseUrl, provisionedKey).catch(async (error: unknown) => {
      await host.close();
      throw error;
    });
    log(`Connection ${connection.name} (${connection.baseUrl}) is set up with its key and active.`);
  }
  const startOn = (webPort: number) => startWebHost({ port: webPort, staticDir, handlers: host.handlers, onEvent: (sink) => host.onEvent(sink), log });
  const web = await (port === undefined ? listenOnInstallationPort(userDataDir, startOn, log) : startOn(port)).catch(async (error: unknown) => {
    await host.close();
    throw error;
  });
  const protection = (await vault.status()).protection;
  log(`User data in ${userDataDir}; keys protected by ${protection === 'os-keyring' ? 'a vault key in the OS keyring' : 'a vault key file only this user can read'}.`);
  console.log(`Circularity Desk is running at ${web.url}`);
  if (values.open) await openWithSystem(web.url);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: stopping.`);
    Promise.all([web.close(), host.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        log('Stopping failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
