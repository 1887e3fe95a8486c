/** The host's native dialogs, attached to the window when there is one. */
import path from 'node:path';
import type { BrowserWindow } from 'electron';
import type { DesktopHostOptions } from '../desktop';
import { migrationConfirmationText, type MigrationTargets } from '../migration-confirmation';
import type { FileDialogRequest } from '../uploads/choices';
import type { ElectronApi } from './electron-api';

/** The dialogs the desktop host asks for. */
export type NativeDialogs = Required<Pick<DesktopHostOptions, 'chooseFolder' | 'chooseFiles' | 'chooseSaveTarget' | 'confirmMigration'>>;

export function nativeDialogs({ app, dialog }: ElectronApi, currentWindow: () => BrowserWindow | undefined): NativeDialogs {
  return {
    /** The folder dialog. */
    async chooseFolder(title: string | undefined): Promise<string | null> {
      const dialogOptions: Electron.OpenDialogOptions = { title: title ?? 'Choose a folder', properties: ['openDirectory', 'createDirectory'] };
      const window = currentWindow();
      const result = window === undefined ? await dialog.showOpenDialog(dialogOptions) : await dialog.showOpenDialog(window, dialogOptions);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },

    /** The open dialog for files to upload; answers the chosen paths, none when cancelled. */
    async chooseFiles(request: FileDialogRequest): Promise<string[]> {
      const dialogOptions: Electron.OpenDialogOptions = {
        title: request.title,
        filters: request.filters,
        properties: request.multiple ? ['openFile', 'multiSelections'] : ['openFile'],
      };
      const window = currentWindow();
      const result = window === undefined ? await dialog.showOpenDialog(dialogOptions) : await dialog.showOpenDialog(window, dialogOptions);
      return result.canceled ? [] : result.filePaths;
    },

    /** The host's own confirmation of a move of the Local workspace: a message box naming every target. */
    async confirmMigration(targets: MigrationTargets): Promise<boolean> {
      const { question, detail } = migrationConfirmationText(targets);
      const boxOptions: Electron.MessageBoxOptions = {
        type: 'warning',
        message: question,
        detail: detail.join('\n'),
        buttons: ['Copy', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      };
      const window = currentWindow();
      const answer = window === undefined ? await dialog.showMessageBox(boxOptions) : await dialog.showMessageBox(window, boxOptions);
      return answer.response === 0;
    },

    /** The save dialog for a download, offering its name in the Downloads folder; null when cancelled. */
    async chooseSaveTarget(fileName: string): Promise<string | null> {
      const dialogOptions: Electron.SaveDialogOptions = { defaultPath: path.join(app.getPath('downloads'), fileName) };
      const window = currentWindow();
      const result = window === undefined ? await dialog.showSaveDialog(dialogOptions) : await dialog.showSaveDialog(window, dialogOptions);
      return result.canceled || result.filePath === '' ? null : result.filePath;
    },
  };
}
