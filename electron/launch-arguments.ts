/**
 * What a launch of the app asks for: `--connect <url> --key-file <file>` (managed installs) and files to upload (a
 * double-click on a model, "Open with", a drop on the app's icon). The same for the first launch's `process.argv` and
 * for the command line a second launch hands the running app, which comes from another working directory.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** The extensions of the files the app opens (the source files the server imports), as electron-builder associates them. */
export const OPENED_FILE_EXTENSIONS: readonly string[] = ['ifc', 'xlsx', 'csv'];

/** What a command line asked for; `keyFile` and `files` are absolute paths. */
export interface LaunchArguments {
  connect?: string;
  keyFile?: string;
  /** Existing regular files with one of OPENED_FILE_EXTENSIONS, each once, in the order given. */
  files: string[];
}

/** Whether a path names a file the app opens, by its extension (any case). */
export function isOpenedFileName(filePath: string): boolean {
  const extension = path.extname(filePath).slice(1).toLowerCase();
  return OPENED_FILE_EXTENSIONS.includes(extension);
}

/** The paths among `candidates` that are regular files the app opens, made absolute against `workingDirectory`. */
export async function openedFilesOf(candidates: readonly string[], workingDirectory: string): Promise<string[]> {
  const files: string[] = [];
  for (const candidate of candidates) {
    if (!isOpenedFileName(candidate)) continue;
    const absolute = path.resolve(workingDirectory, candidate);
    if (files.includes(absolute)) continue;
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile() === true) files.push(absolute);
  }
  return files;
}

/**
 * The app's options on a whole command line, the program first (`process.argv`, or the `argv` of `second-instance`).
 * Chromium's and Electron's own switches share it, and a development run has the script's path there: unknown options
 * are ignored, and positionals are only candidates for files.
 */
function commandLineOf(argv: readonly string[]) {
  return parseArgs({
    args: argv.slice(1),
    options: { connect: { type: 'string' }, 'key-file': { type: 'string' }, 'user-data': { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
}

/** `--user-data <dir>`: the folder of the app's data for this launch, absolute; undefined when not given. */
export function userDataDirOf(argv: readonly string[], workingDirectory: string): string | undefined {
  const userData = commandLineOf(argv).values['user-data'];
  return typeof userData === 'string' && userData !== '' ? path.resolve(workingDirectory, userData) : undefined;
}

/** Reads what a command line asks of the running app; positionals that are not files the app opens are ignored. */
export async function launchArgumentsOf(argv: readonly string[], workingDirectory: string): Promise<LaunchArguments> {
  const { values, positionals } = commandLineOf(argv);
  const connect = typeof values.connect === 'string' ? values.connect : undefined;
  const keyFile = typeof values['key-file'] === 'string' ? path.resolve(workingDirectory, values['key-file']) : undefined;
  return {
    ...(connect === undefined ? {} : { connect }),
    ...(keyFile === undefined ? {} : { keyFile }),
    files: await openedFilesOf(positionals, workingDirectory),
  };
}
