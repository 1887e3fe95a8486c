/**
 * Which build of better-sqlite3 a process loads. Node's build in node_modules serves Node (the server alone, browser
 * mode, the tests). Electron has another ABI and cannot load it: `npm start` builds the module for Electron into a
 * folder of its own and names the file in `ELECTRON_SQLITE_BINDING_ENV`, which only a process running in Electron
 * (its main process, or the Local workspace's utilityProcess) takes. Installers need neither: electron-builder
 * rebuilds node_modules for Electron, so the variable is unset there.
 */

/** Environment variable naming the better-sqlite3 binary built for Electron. */
export const ELECTRON_SQLITE_BINDING_ENV = 'CIRCULARITY_ELECTRON_SQLITE_BINDING';

/** better-sqlite3's option naming the binary it loads, when this process must load another than its default. */
export interface NativeSqliteOptions {
  nativeBinding?: string;
}

/** The options for `new Database(file, options)` in this process: Electron's build under Electron, when one is named. */
export function nativeSqliteOptions(versions: Readonly<Partial<Record<string, string>>>, env: Readonly<Partial<Record<string, string>>>): NativeSqliteOptions {
  const binding = env[ELECTRON_SQLITE_BINDING_ENV];
  if (versions['electron'] === undefined || binding === undefined || binding === '') return {};
  return { nativeBinding: binding };
}
