/**
 * What the user does with one file of a building, online: activate or deactivate it (the server recalculates the
 * building's figures), download or open it, delete it, read and change its tags and the databases its materials are
 * matched against, and refine it again. Each needs the server now, so each is guarded as the other online actions
 * are (no connection, a building not yet on the server, offline) and answers an `ApiOutcome`; a change is followed
 * by a sync, which brings the file's new state into the cache the page reads; an activation's answer is written into
 * the cache at once.
 */
import { defineStore } from 'pinia';
import type { AccountResponse, BuildingFileResponse, BuildingFileSettings } from '../../shared/api/schemas';
import { isRecord } from '../../shared/is-record';
import { callApi, callApiList } from '../api/call-api';
import { hostFailed, mapOutcome, succeeded, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { applyServerFile } from '../db/apply-pull';
import { useBridge } from '../bridge';
import { useAppInfoStore } from './app-info';
import { useBuildingsStore } from './buildings';
import { openSigned, saveAddress, signedAddress, type DownloadOutcome } from './file-download';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** A building file as the actions name it. */
export interface FileRef {
  buildingId: string;
  fileId: string;
  fileName: string;
}

/**
 * A file's settings, or `unsupported`: the server lacks this project's extension (it answers 404 or 405 for the
 * route), so it sets tags and databases only when a file is created.
 */
export type SettingsAnswer = { kind: 'settings'; settings: BuildingFileSettings } | { kind: 'unsupported' };

/** Answers of a server that has no such route. */
const NO_ROUTE: ReadonlySet<number> = new Set([404, 405, 501]);

/** Whether an answer is the file itself, as this server and the spec answer an activation. */
function isFileAnswer(value: unknown, fileId: string): value is BuildingFileResponse {
  return isRecord(value) && value['id'] === fileId && typeof value['isActive'] === 'boolean' && typeof value['lastModifiedDate'] === 'string';
}

function settingsOf(value: unknown): BuildingFileSettings {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  return { tags: strings(record['tags']), preferredAccountIds: strings(record['preferredAccountIds']) };
}

/** The actions on one building file. */
export const useBuildingFilesStore = defineStore('buildingFiles', () => {
  const bridge = useBridge();
  const sync = useSyncStore();
  const buildings = useBuildingsStore();
  const appInfo = useAppInfoStore();

  function params(file: FileRef): { buildingId: string; fileId: string } {
    return { buildingId: file.buildingId, fileId: file.fileId };
  }

  async function inElectron(): Promise<boolean> {
    await appInfo.load();
    return appInfo.info?.host === 'electron';
  }

  /**
   * Includes a file in the building's figures or leaves it out; the server then recalculates the building, which is
   * followed until its figures are back.
   */
  async function setActive(file: FileRef, active: boolean): Promise<ApiOutcome<void>> {
    const outcome = await whenOnline(sync, file.buildingId, async (connectionId) => {
      const set = await callApi(bridgeApiPort(bridge, connectionId), 'setBuildingFileActive', { params: params(file), body: active });
      if (set.ok) buildings.followServerRecalculation(connectionId, file.buildingId);
      // The row says at once what the server answered (active or not, and so its summary's words), not after a sync.
      if (set.ok && sync.db !== null && isFileAnswer(set.value, file.fileId)) await applyServerFile(sync.db, set.value);
      return mapOutcome(set, () => undefined);
    });
    if (outcome.ok) void sync.syncNow();
    return outcome;
  }

  /** Deletes a file with its elements and content. */
  async function remove(file: FileRef): Promise<ApiOutcome<void>> {
    const outcome = await whenOnline(sync, file.buildingId, async (connectionId) =>
      mapOutcome(await callApi(bridgeApiPort(bridge, connectionId), 'deleteBuildingFile', { params: params(file) }), () => undefined),
    );
    if (outcome.ok) void sync.syncNow();
    return outcome;
  }

  /** Saves a file's content: where the user picks in Electron's save dialog, or through the browser's downloads. */
  function download(file: FileRef): Promise<ApiOutcome<DownloadOutcome>> {
    return whenOnline<DownloadOutcome>(sync, file.buildingId, async (connectionId) => {
      if (await inElectron()) {
        const saved = await bridge.files.download({ connectionId, buildingId: file.buildingId, fileId: file.fileId, fileName: file.fileName });
        if (!saved.ok) return hostFailed(saved.error);
        return succeeded(saved.value === null ? { kind: 'cancelled' } : { kind: 'saved', ...saved.value });
      }
      const address = await signedAddress(bridgeApiPort(bridge, connectionId), 'getBuildingFileDownload', { params: params(file) });
      if (address.ok) saveAddress(address.value, file.fileName);
      return mapOutcome(address, (): DownloadOutcome => ({ kind: 'browser' }));
    });
  }

  /** Opens a file (a passport) in the browser: a new tab, or the system's browser in Electron. */
  function open(file: FileRef): Promise<ApiOutcome<DownloadOutcome>> {
    return whenOnline(sync, file.buildingId, async (connectionId) => {
      const address = await signedAddress(bridgeApiPort(bridge, connectionId), 'getBuildingFileDownload', { params: params(file) });
      return address.ok ? openSigned(bridge, await inElectron(), address.value) : address;
    });
  }

  /** A file's tags and preferred databases, or `unsupported` on a server without the extension. */
  function settings(file: FileRef): Promise<ApiOutcome<SettingsAnswer>> {
    return whenOnline(sync, file.buildingId, async (connectionId) => {
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), 'getBuildingFileSettings', { params: params(file) });
      if (!outcome.ok && outcome.failure.kind === 'problem' && NO_ROUTE.has(outcome.failure.status)) {
        return { ok: true, status: outcome.failure.status, value: { kind: 'unsupported' }, location: null };
      }
      return mapOutcome(outcome, (value): SettingsAnswer => ({ kind: 'settings', settings: settingsOf(value) }));
    });
  }

  /** Replaces a file's tags and preferred databases; the databases count from its next refinement. */
  function replaceSettings(file: FileRef, changed: BuildingFileSettings): Promise<ApiOutcome<SettingsAnswer>> {
    return whenOnline(sync, file.buildingId, async (connectionId) => {
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), 'replaceBuildingFileSettings', { params: params(file), body: changed });
      if (!outcome.ok && outcome.failure.kind === 'problem' && NO_ROUTE.has(outcome.failure.status)) {
        return { ok: true, status: outcome.failure.status, value: { kind: 'unsupported' }, location: null };
      }
      if (outcome.ok) void sync.syncNow();
      return mapOutcome(outcome, (value): SettingsAnswer => ({ kind: 'settings', settings: settingsOf(value) }));
    });
  }

  /** The element databases the account may match against. */
  function availableDatabases(buildingId: string): Promise<ApiOutcome<AccountResponse[]>> {
    return whenOnline(sync, buildingId, async (connectionId) =>
      callApiList(bridgeApiPort(bridge, connectionId), 'listAvailableDatabases'),
    );
  }

  /**
   * Refines a file again (its elements mapped anew, with its current databases): Importing, then the refinement. Its
   * status is read at once, so the page shows the new processing and follows it to the end.
   */
  function refineAgain(file: FileRef): Promise<ApiOutcome<void>> {
    return whenOnline(sync, file.buildingId, async (connectionId) => {
      const api = bridgeApiPort(bridge, connectionId);
      const importing = await callApi(api, 'setBuildingFileImporting', { params: params(file) });
      if (!importing.ok) return importing;
      const refining = await callApi(api, 'startBuildingFileRefinement', { params: params(file) });
      if (refining.ok) await buildings.refreshFileStatus(file.buildingId, file.fileId);
      return mapOutcome(refining, () => undefined);
    });
  }

  return { setActive, remove, download, open, settings, replaceSettings, availableDatabases, refineAgain };
});
