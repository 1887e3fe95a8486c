/**
 * Electron's API as the shell's parts receive it: `main.ts` loads Electron and hands it to them, so that it stays the
 * only module of the main process that loads it at run time (architecture rule 3); they take its types only.
 */
import type * as ElectronModule from 'electron';

export type ElectronApi = typeof ElectronModule;
