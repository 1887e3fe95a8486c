/**
 * What launches ask of the running app: the first launch's command line, a second launch's (`second-instance`, handed
 * over by the single-instance lock) and macOS's `open-file`. Those that come before the host has started wait for it,
 * in order; after that each is acted on as it comes.
 */
import { launchArgumentsOf, openedFilesOf } from './launch-arguments';

/** What the app does for a launch. */
export interface LaunchActions {
  /** `--connect <url> --key-file <file>`: set up that connection (both, or one of them to say they go together). */
  provision(request: { connect?: string; keyFile?: string }): Promise<void>;
  /** Files to upload, absolute paths of existing `.ifc`, `.xlsx` or `.csv` files. */
  openFiles(paths: string[]): Promise<void>;
  log(message: string, error?: unknown): void;
}

/** Takes launches as they come and acts on them once the app can. */
export class LaunchRequests {
  #actions: LaunchActions | undefined;
  readonly #waiting: ((actions: LaunchActions) => Promise<void>)[] = [];

  /** A command line (the program first) and the directory it was started in. */
  commandLine(argv: readonly string[], workingDirectory: string): Promise<void> {
    return this.#act(async (actions) => {
      const { files, ...provisioning } = await launchArgumentsOf(argv, workingDirectory);
      if (provisioning.connect !== undefined || provisioning.keyFile !== undefined) await actions.provision(provisioning);
      if (files.length > 0) await actions.openFiles(files);
    });
  }

  /** A file macOS asks the app to open (a double-click in the Finder, a drop on the Dock icon). */
  openFile(filePath: string): Promise<void> {
    return this.#act(async (actions) => {
      const files = await openedFilesOf([filePath], '/');
      if (files.length > 0) await actions.openFiles(files);
      else actions.log(`${filePath} is not a model or spreadsheet the app opens (.ifc, .xlsx, .csv); it is ignored.`);
    });
  }

  /** The app can act now: the launches that waited are acted on, in the order they came. */
  async ready(actions: LaunchActions): Promise<void> {
    const waiting = this.#waiting.splice(0);
    this.#actions = actions;
    for (const each of waiting) await this.#run(each, actions);
  }

  async #act(request: (actions: LaunchActions) => Promise<void>): Promise<void> {
    if (this.#actions === undefined) this.#waiting.push(request);
    else await this.#run(request, this.#actions);
  }

  async #run(request: (actions: LaunchActions) => Promise<void>, actions: LaunchActions): Promise<void> {
    try {
      await request(actions);
    } catch (error) {
      actions.log('Acting on a launch of the app failed', error);
    }
  }
}
