/**
 * `npm run watch`: one drop folder without a window, for a file server with no desktop. It runs the same drop folder
 * service as the app, prints one line per state change of a file (`<ISO time> <state> <relative path> [detail]`), and
 * stops cleanly on SIGTERM or SIGINT: the work in flight is stopped (the ledger keeps where each file was), the
 * watcher and the client are closed, and the exit code is 0. With `--passports` it runs the passport service too:
 * passports are requested after each settled change of the building's (or portfolio's) source files and saved into
 * that folder, one line per state change (`<ISO time> passport <state> <format> [file or reason]`).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Value } from 'typebox/value';
import { assertNever } from '../shared/api/enums';
import { PASSPORT_LANGUAGES } from '../shared/api/routes';
import { Uuid } from '../shared/api/schema-kit';
import type { DropFolderEvent, DropFolderTarget } from '../shared/dropfolders';
import { BridgeError } from '../shared/ipc';
import { PassportLanguage, type PassportEvent, type PassportFormat, type PassportState, type PassportSubject } from '../shared/passports';
import { normaliseBaseUrl } from './connections';
import { createQueuedClient } from './http/queued-client';
import { useEnvironmentProxy } from './network/use-environment-proxy';
import { startDropFolderService, type DropFolderService } from './dropfolders/service';
import { valueOf, RemoteFailure, type DropFolderClient } from './dropfolders/remote';
import { checkFolder, isWithin } from './dropfolders/mapping-store';
import { startPassportService, type PassportService } from './passports/passport-service';
import { readKeyFile } from './provisioning';

const usage = `Usage: npm run watch -- --server <url> --key-file <file> --folder <dir> (--building <id> | --portfolio <id>)
                         [--activate] [--information-files] [--poll] [--state <dir>] [--settle <ms>]
                         [--passports <dir> [--passport-language <lang>]]
  --server             the server's address, http:// or https://
  --key-file           a file holding the API key
  --folder             the folder to watch
  --building           its files go to this building: a new name becomes a new source file, the name of an existing
                       source file a new version of it
  --portfolio          each subfolder is a building of this portfolio, found by its name or else created
  --activate           activate each source file once the server has mapped it
  --information-files  upload PDFs and images too, as information files
  --poll               look at the folder every 2 s instead of waiting for change events (network drives)
  --state              where the upload ledger is kept (default: <folder>/.circularity-desk)
  --settle             how long a file must stay unchanged before it counts as complete, in ms (default 2000)
  --passports          save passports into this folder (made when missing), requested after each change of a source
                       file whose elements changed: at once for a file dropped here, after 5 quiet minutes for a
                       change made elsewhere; a building's as PDF and Excel, a portfolio's as PDF
  --passport-language  the passports' language: ${PASSPORT_LANGUAGES.join(', ')} (default en)`;

/** The connection id of the one connection this command has. */
const CONNECTION_ID = 'watch';

/** A command line that cannot be run as it is. */
class UsageError extends Error {}

interface WatchOptions {
  server: string;
  keyFile: string;
  folder: string;
  target: DropFolderTarget;
  activate: boolean;
  informationFiles: boolean;
  poll: boolean;
  stateDir: string;
  settleMs: number | undefined;
  passports: { folder: string; language: PassportLanguage } | undefined;
}

function uuidOption(name: string, value: string): string {
  if (!Value.Check(Uuid(), value)) throw new UsageError(`--${name} must be a uuid, not '${value}'.`);
  return value;
}

function parseOptions(args: string[]): WatchOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: 'string' },
        'key-file': { type: 'string' },
        folder: { type: 'string' },
        building: { type: 'string' },
        portfolio: { type: 'string' },
        activate: { type: 'boolean', default: false },
        'information-files': { type: 'boolean', default: false },
        poll: { type: 'boolean', default: false },
        state: { type: 'string' },
        settle: { type: 'string' },
        passports: { type: 'string' },
        'passport-language': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help';
  const { server, folder, building, portfolio } = values;
  const keyFile = values['key-file'];
  if (server === undefined || keyFile === undefined || folder === undefined) {
    throw new UsageError('--server, --key-file and --folder are required.');
  }
  if ((building === undefined) === (portfolio === undefined)) throw new UsageError('Give either --building or --portfolio.');
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(server);
  } catch (error) {
    throw new UsageError(`--server: ${error instanceof Error ? error.message : String(error)}`);
  }
  let settleMs: number | undefined;
  if (values.settle !== undefined) {
    settleMs = Number(values.settle);
    if (!/^\d+$/.test(values.settle) || settleMs < 1) throw new UsageError(`--settle must be a whole number of milliseconds, not '${values.settle}'.`);
  }
  const language = values['passport-language'];
  if (language !== undefined && values.passports === undefined) throw new UsageError('--passport-language needs --passports.');
  if (language !== undefined && !Value.Check(PassportLanguage, language)) {
    throw new UsageError(`--passport-language must be one of ${PASSPORT_LANGUAGES.join(', ')}, not '${language}'.`);
  }
  const absoluteFolder = path.resolve(folder);
  if (values.passports !== undefined && isWithin(absoluteFolder, path.resolve(values.passports))) {
    throw new UsageError('--passports must not lie inside --folder: the passports would be uploaded as new files.');
  }
  return {
    server: baseUrl,
    keyFile,
    folder: absoluteFolder,
    target:
      building !== undefined
        ? { kind: 'building', buildingId: uuidOption('building', building) }
        : { kind: 'portfolio', portfolioId: uuidOption('portfolio', portfolio as string) },
    activate: values.activate,
    informationFiles: values['information-files'],
    poll: values.poll,
    stateDir: path.resolve(values.state ?? path.join(absoluteFolder, '.circularity-desk')),
    settleMs,
    passports: values.passports === undefined ? undefined : { folder: path.resolve(values.passports), language: language ?? 'en' },
  };
}

function time(): string {
  return new Date().toISOString();
}

function log(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
  console.error(`${time()} ${message}${detail}`);
}

/** One line per state change; the other events are for screens. */
function printEvent(event: DropFolderEvent): void {
  switch (event.kind) {
    case 'file': {
      const detail = event.detail ?? (event.file.state === 'failed' ? event.file.lastError : null);
      process.stdout.write(`${time()} ${event.file.state} ${event.file.path}${detail === null ? '' : ` ${detail}`}\n`);
      return;
    }
    case 'folders':
      for (const folder of event.folders) if (folder.problem !== null) log(folder.problem);
      return;
    case 'file-removed':
    case 'progress':
    case 'notice':
      return;
  }
}

/** The passport subject of the watched building or portfolio, and the formats it has. */
function passportSubjectOf(target: DropFolderTarget): { subject: PassportSubject; formats: PassportFormat[] } {
  return target.kind === 'building'
    ? { subject: { kind: 'building', id: target.buildingId }, formats: ['pdf', 'xlsx'] }
    : { subject: { kind: 'portfolio', id: target.portfolioId }, formats: ['pdf'] };
}

/** One line per passport state change, and the reason whenever the checks of the target start or stop failing. */
function passportPrinter(): (event: PassportEvent) => void {
  const states = new Map<string, PassportState>();
  let lastError: string | null = null;
  return (event) => {
    switch (event.type) {
      case 'entry-changed': {
        const { entry } = event;
        if (states.get(entry.id) === entry.state) return;
        states.set(entry.id, entry.state);
        const detail = entry.state === 'downloaded' ? entry.filePath : entry.state === 'failed' ? entry.error : null;
        process.stdout.write(`${time()} passport ${entry.state} ${entry.format}${detail === null ? '' : ` ${detail}`}\n`);
        return;
      }
      case 'targets-changed': {
        const error = event.targets[0]?.lastError ?? null;
        if (error !== lastError && error !== null) log(`Passports: ${error}`);
        lastError = error;
        return;
      }
      default:
        assertNever(event, 'passport event');
    }
  };
}

/** Makes the passport service's targets exactly the one this command line asks for, keeping its history when it was there before. */
async function ensurePassportTarget(service: PassportService, options: WatchOptions, passports: NonNullable<WatchOptions['passports']>): Promise<void> {
  const { subject, formats } = passportSubjectOf(options.target);
  const settings = { folder: passports.folder, formats, language: passports.language, requestOnMapped: true };
  const existing = service.targets();
  const same = existing.find((target) => target.subject.kind === subject.kind && target.subject.id === subject.id);
  for (const other of existing) {
    if (other === same) continue;
    log(`Forgetting the earlier passport folder ${other.folder} of ${other.subject.kind} ${other.subject.id} of this state folder.`);
    await service.removeTarget(other.id);
  }
  if (same === undefined) await service.addTarget({ connectionId: CONNECTION_ID, subject, ...settings });
  else await service.updateTarget(same.id, settings);
}

/**
 * Reads the building or portfolio once, so a wrong id or a key without access stops the command with a clear
 * message; a server that cannot be reached yet is only reported: the uploads wait for it.
 */
async function checkTarget(client: DropFolderClient, target: DropFolderTarget): Promise<void> {
  try {
    if (target.kind === 'building') {
      valueOf(await client.call('getBuilding', { params: { id: target.buildingId } }, { retry: false }), `Building ${target.buildingId}`);
    } else {
      valueOf(await client.call('getPortfolio', { params: { id: target.portfolioId } }, { retry: false }), `Portfolio ${target.portfolioId}`);
    }
  } catch (error) {
    if (error instanceof RemoteFailure && error.kind === 'transient') {
      log(`${error.message.replace(/\.$/, '')}; the uploads wait until the server can be reached.`);
      return;
    }
    throw error;
  }
}

/** Makes the service's mappings exactly the one this command line asks for, keeping its ledger when it was there before. */
async function ensureMapping(service: DropFolderService, options: WatchOptions): Promise<void> {
  const wanted = JSON.stringify(options.target);
  const existing = service.list();
  const same = existing.find((mapping) => mapping.folder === options.folder && JSON.stringify(mapping.target) === wanted);
  for (const other of existing) {
    if (other === same) continue;
    log(`Forgetting the earlier drop folder ${other.folder} → ${JSON.stringify(other.target)} of this state folder.`);
    await service.remove(other.id);
  }
  const settings = { activate: options.activate, informationFiles: options.informationFiles, polling: options.poll };
  if (same === undefined) {
    await service.add({ folder: options.folder, target: options.target, connectionId: CONNECTION_ID, ...settings });
    return;
  }
  await service.update(same.id, settings);
  if (same.paused) await service.resume(same.id);
}

async function main(): Promise<number> {
  // Listened to from the start: a stop asked for while starting up is honoured once the start is done.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  let options: WatchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${usage}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  try {
    await checkFolder(options.folder);
  } catch (error) {
    console.error(`--folder: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (options.passports !== undefined) {
    try {
      await mkdir(options.passports.folder, { recursive: true });
      await checkFolder(options.passports.folder);
    } catch (error) {
      console.error(`--passports: ${error instanceof Error ? error.message : String(error)}\n${usage}`);
      return 2;
    }
  }
  const key = await readKeyFile(options.keyFile);
  const proxyNote = useEnvironmentProxy(process.env);
  if (proxyNote !== undefined) log(proxyNote);
  const client = createQueuedClient({ baseUrl: options.server, apiVersion: 'v2.3', apiKey: async () => key });
  let service: DropFolderService | undefined;
  let passports: PassportService | undefined;
  const onDropFolderEvent = (event: DropFolderEvent): void => {
    printEvent(event);
    if (event.kind === 'file' && event.file.state === 'mapped' && event.file.buildingId !== null) {
      passports?.sourceFileMapped(event.file.buildingId).catch((error: unknown) => log('Requesting passports failed', error));
    }
  };
  try {
    await checkTarget(client, options.target);
    if (options.passports !== undefined) {
      passports = await startPassportService({ stateDir: options.stateDir, clientFor: () => client, onEvent: passportPrinter(), log });
      await ensurePassportTarget(passports, options, options.passports);
    }
    service = await startDropFolderService({
      stateDir: options.stateDir,
      clientFor: (connectionId) => (connectionId === CONNECTION_ID ? client : undefined),
      onEvent: onDropFolderEvent,
      log,
      passportFolders: () => (options.passports === undefined ? [] : [options.passports.folder]),
      timing: options.settleMs === undefined ? {} : { stableMs: options.settleMs },
    });
    await ensureMapping(service, options);
  } catch (error) {
    await service?.close();
    await passports?.close();
    await client.close();
    throw error;
  }
  const stateNote = isWithin(options.folder, options.stateDir) ? '' : ` (ledger in ${options.stateDir})`;
  const passportNote = options.passports === undefined ? '' : `; passports go to ${options.passports.folder}`;
  log(`Watching ${options.folder}${stateNote}${passportNote}.`);

  const signal = await stopSignal;
  log(`${signal} received: stopping.`);
  await service.close();
  await passports?.close();
  await client.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof BridgeError || error instanceof RemoteFailure ? error.message : error);
    process.exit(1);
  },
);
