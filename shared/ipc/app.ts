/** The app's own channels: what runs it, diagnostics, updates, start at login and files opened with it. */
import { Type, type Static } from 'typebox';
import { ChosenFiles } from '../uploads';
import { channel, NoInput, Nothing } from './channel';

/** Which host runs the renderer, and facts the renderer shows in its About and settings. */
export const AppInfo = Type.Object(
  {
    version: Type.String(),
    host: Type.Union([Type.Literal('electron'), Type.Literal('browser')]),
    platform: Type.String(),
    userDataDir: Type.String(),
  },
  { additionalProperties: false },
);
/** Which host runs the renderer. */
export type AppInfo = Static<typeof AppInfo>;

/** Where Export diagnostics saved its zip; null when the user cancelled the save dialog. */
export const DiagnosticsExport = Type.Object({ path: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });
/** Where Export diagnostics saved its zip. */
export type DiagnosticsExport = Static<typeof DiagnosticsExport>;

/** Where the app's update is: none looked for or none found, being looked for, downloading, ready to install, failed. */
export const UpdateState = Type.Union([
  Type.Object({ state: Type.Literal('idle') }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('checking') }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('downloading'), percent: Type.Number({ minimum: 0, maximum: 100 }) }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('ready'), version: Type.String() }, { additionalProperties: false }),
  Type.Object({ state: Type.Literal('failed'), message: Type.String() }, { additionalProperties: false }),
]);
/** Where the app's update is. */
export type UpdateState = Static<typeof UpdateState>;

/** Whether the app starts when the user logs in (Electron only: browser mode answers `unavailable`). */
export const StartAtLoginSetting = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
/** Whether the app starts when the user logs in. */
export type StartAtLoginSetting = Static<typeof StartAtLoginSetting>;

/** Files were opened with the app (a launch, a second launch, macOS open-file): `app:take-opened-files` hands them out. */
export const FilesOpened = Type.Object({ count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

/** The `app:` channels. */
export const appChannels = {
  'app:info': channel(NoInput, AppInfo),
  /** Saves the logs, versions and settings (never a key) as a zip where the user chooses (Electron). */
  'app:export-diagnostics': channel(NoInput, DiagnosticsExport),
  'app:open-logs': channel(NoInput, Nothing),
  /** The update's state now; `app:update-changed` tells each change (Electron: browser mode is updated with its checkout). */
  'app:update-state': channel(NoInput, UpdateState),
  /** Quits and installs the downloaded update. */
  'app:restart-to-update': channel(NoInput, Nothing),
  'app:start-at-login': channel(NoInput, StartAtLoginSetting),
  'app:set-start-at-login': channel(StartAtLoginSetting, StartAtLoginSetting),
  /** The files opened with the app since the last call, as chosen files to upload; each is handed out once. */
  'app:take-opened-files': channel(NoInput, ChosenFiles),
} as const;

/** The `app:` events. */
export const appEvents = {
  'app:update-changed': UpdateState,
  /** Files were opened with the app; the window asks which building they go to. */
  'app:files-opened': FilesOpened,
} as const;
