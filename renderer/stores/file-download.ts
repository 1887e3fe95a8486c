/**
 * How a file of the server reaches the user. The API answers a signed, expiring address of a file's bytes
 * (`…/download`); in browser mode the page hands that address to the browser, which saves the file (the server answers
 * it as an attachment), while Electron's host saves a building file where the user picks in its save dialog and opens
 * other addresses in the system's browser. The window never holds a file's bytes.
 */
import type { CallArgs } from '../../shared/api/client';
import type { Routes } from '../../shared/api/routes';
import type { Bridge } from '../../shared/ipc';
import { callApi } from '../api/call-api';
import { failed, hostFailed, mapOutcome, succeeded, type ApiOutcome } from '../api/outcome';
import type { ApiPort } from '../api/port';

/**
 * What a download did: saved by the host (where, how many bytes), the save dialog cancelled, handed to the browser
 * (which saves it and shows it among its downloads), or opened in the system's browser.
 */
export type DownloadOutcome =
  | { kind: 'saved'; path: string; bytes: number }
  | { kind: 'cancelled' }
  | { kind: 'browser' }
  | { kind: 'opened' };

/** Lets the browser follow an address, as a click on a link would. */
function follow(url: string, configure: (anchor: HTMLAnchorElement) => void): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.style.display = 'none';
  configure(anchor);
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/** Hands an address to the browser to save, under a file name (the server's own name wins for another origin). */
export function saveAddress(url: string, fileName: string): void {
  follow(url, (anchor) => {
    anchor.download = fileName;
  });
}

/** Opens an address in a new tab of the browser. */
export function openAddress(url: string): void {
  follow(url, (anchor) => {
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer';
  });
}

function addressOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const url = (answer as Record<string, unknown>)['url'];
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

/** Asks the server for a file's signed address (`getBuildingFileDownload`, `getPortfolioFileDownload`). */
export async function signedAddress<Id extends 'getBuildingFileDownload' | 'getPortfolioFileDownload'>(
  api: ApiPort,
  operationId: Id,
  ...input: CallArgs<Routes[Id]>
): Promise<ApiOutcome<string>> {
  const outcome = mapOutcome(await callApi(api, operationId, ...input), addressOf);
  if (!outcome.ok) return outcome;
  const address = outcome.value;
  if (address === null) return failed({ kind: 'invalid-answer', message: `${operationId} answered no download address.` });
  return { ...outcome, value: address };
}

/** Opens a signed address the way the host can: the system's browser in Electron, a new tab in browser mode. */
export async function openSigned(bridge: Bridge, inElectron: boolean, url: string): Promise<ApiOutcome<DownloadOutcome>> {
  if (!inElectron) {
    openAddress(url);
    return succeeded({ kind: 'opened' });
  }
  const opened = await bridge.shell.openExternal({ url });
  return opened.ok ? succeeded({ kind: 'opened' }) : hostFailed(opened.error);
}
