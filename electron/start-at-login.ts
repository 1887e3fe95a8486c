/**
 * *Start at login*: on Windows and macOS through Electron's login items, on Linux as an XDG autostart entry
 * (`$XDG_CONFIG_HOME/autostart/<name>.desktop`, `~/.config` without it), which every desktop environment reads and
 * Electron does not write.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The part of Electron's `app` this needs. */
export interface LoginItemApi {
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

/** Where the setting is kept and what starts. */
export interface StartAtLoginOptions {
  platform: NodeJS.Platform;
  loginItems: LoginItemApi;
  /** The program to start: the AppImage's path when run from one (`$APPIMAGE`), else the executable. */
  executable: string;
  /** What follows the program on its command line: the app's folder in a development run, nothing when packaged. */
  args: readonly string[];
  /** The desktop entry's file name without `.desktop`, and its Name. */
  entryName: string;
  displayName: string;
  env: NodeJS.ProcessEnv;
  homeDir: string;
}

/** Reads and changes whether the app starts when the user logs in. */
export interface StartAtLogin {
  enabled(): Promise<boolean>;
  set(enabled: boolean): Promise<void>;
}

/** The autostart folder of the XDG Base Directory spec: a relative `XDG_CONFIG_HOME` is ignored, as the spec says. */
export function autostartDir(env: NodeJS.ProcessEnv, homeDir: string): string {
  const configHome = env['XDG_CONFIG_HOME'];
  const base = configHome !== undefined && path.isAbsolute(configHome) ? configHome : path.join(homeDir, '.config');
  return path.join(base, 'autostart');
}

/** Quotes a path for a desktop entry's Exec key, with the escapes its spec asks for inside quotes. */
export function execArgument(value: string): string {
  if (/^[A-Za-z0-9_./+-]+$/.test(value)) return value;
  return `"${value.replace(/(["`$\\])/g, '\\$1')}"`;
}

/** The autostart desktop entry that starts `executable` with `args`. */
export function autostartEntry(executable: string, args: readonly string[], displayName: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${displayName}`,
    `Exec=${[executable, ...args].map(execArgument).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The setting for this platform. */
export function startAtLogin(options: StartAtLoginOptions): StartAtLogin {
  if (options.platform !== 'linux') {
    // Windows finds its login item by program and arguments: reading it back takes the same arguments.
    const args = options.args.length === 0 ? {} : { args: [...options.args] };
    return {
      enabled: async () => options.loginItems.getLoginItemSettings(args).openAtLogin,
      set: async (enabled) => options.loginItems.setLoginItemSettings({ openAtLogin: enabled, ...args }),
    };
  }
  const file = path.join(autostartDir(options.env, options.homeDir), `${options.entryName}.desktop`);
  return {
    enabled: async () => (await stat(file).catch(() => undefined))?.isFile() === true,
    set: async (enabled) => {
      if (!enabled) {
        await rm(file, { force: true });
        return;
      }
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, autostartEntry(options.executable, options.args, options.displayName), { mode: 0o644 });
    },
  };
}
