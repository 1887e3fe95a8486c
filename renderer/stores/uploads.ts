/**
 * Uploads the user starts in the app: models, spreadsheets and documents added on a building's page, a portfolio's
 * information files. The host's upload service runs them through the connection's queued client and keeps them in a
 * ledger that survives a restart; one chosen while the server cannot be reached waits and starts by itself. This store
 * lists the active connection's uploads, keeps them current by `uploads:changed`, and starts them from a file the
 * host's dialog chose (the host reads it from disk) or from a File of the page (dropped, or picked where the host has
 * no dialog). In Electron the host reads such a File from disk too (`shared/dropped-files.ts`, `upload-choice.ts`);
 * otherwise its bytes go to a spool of the host (`spool-feeding.ts`): in browser mode as PUTs of large pieces that the
 * browser reads from disk itself (`spool-pieces.ts`), in Electron a chunk at a time, each read from the file when it is
 * sent, so the page holds at most a few chunks whatever the file's size. The host starts sending while they arrive.
 * The uploads are kept by id as `upload-ledger.ts` changes them.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { IpcResult } from '../../shared/ipc';
import type { UploadEntry, UploadSource, UploadTarget } from '../../shared/uploads';
import { hostFailed, succeeded, type ApiOutcome } from '../api/outcome';
import { useBridge, useBridgeLink, useDroppedFiles, useSpoolPieceSender } from '../bridge';
import { noteFileUploaded } from '../db/file-timelines';
import { useAppInfoStore } from './app-info';
import { useSyncStore } from './sync';
import { createSpoolFeeding } from './spool-feeding';
import { choiceOnDisk, chooseFiles, type ChooseKinds, type ChooseOutcome, type ChosenFile } from './upload-choice';
import { hasStopped, isRunning, isShownOn, notOnServer, uploadedFileId, uploadsOf, withEntry, withListOf, withoutEntry, type UploadLedger } from './upload-ledger';

export type { ChooseKinds, ChooseOutcome, ChosenFile };
export { isRunning, uploadedFileId };

/** The active connection's uploads, and starting, cancelling, retrying and forgetting them. */
export const useUploadsStore = defineStore('uploads', () => {
  const bridge = useBridge();
  const droppedFiles = useDroppedFiles();
  const sendSpoolPiece = useSpoolPieceSender();
  const link = useBridgeLink();
  const sync = useSyncStore();
  const appInfo = useAppInfoStore();

  const byId = shallowRef<UploadLedger>(new Map());
  /** Uploads that ended while this store followed them: ended ones show until forgotten only then. */
  const endedHere = ref(new Set<string>());
  /** Ended uploads whose cards went (`use-upload-cards.ts`); an upload that runs again is shown again. */
  const retired = ref(new Set<string>());
  const feeding = createSpoolFeeding({
    writeSpool: (request) => bridge.uploads.writeSpool(request),
    sendPiece: sendSpoolPiece,
    stopped: (uploadId) => hasStopped(byId.value, uploadId),
  });
  /** Whether the host has a file dialog: Electron's; browser mode picks files in the page. */
  const dialogAvailable = computed(() => appInfo.info?.host !== 'browser');

  const entries = computed(() => uploadsOf(byId.value, sync.connectionId));

  /** The server took a building file: its timeline begins with Uploaded, and a sync brings the file's new state. */
  async function uploaded(entry: UploadEntry): Promise<void> {
    const db = sync.db;
    const fileId = entry.remoteFileId;
    if (entry.target.kind !== 'building-file' || fileId === null || db === null || db.connectionId !== entry.connectionId) return;
    await noteFileUploaded(db, fileId, entry.target.buildingId, entry.doneAt ?? entry.updatedAt);
    void sync.syncNow();
  }

  function follow(entry: UploadEntry): void {
    const before = byId.value.get(entry.id);
    byId.value = withEntry(byId.value, entry);
    if (before !== undefined && isRunning(before) && !isRunning(entry)) endedHere.value = new Set(endedHere.value).add(entry.id);
    if (entry.state === 'done' && before?.state !== 'done') void uploaded(entry);
  }

  bridge.on('uploads:changed', follow);

  let loading: Promise<void> = Promise.resolve();

  /** Reads the active connection's uploads from the host. */
  function load(): Promise<void> {
    loading = readList();
    return loading;
  }

  async function readList(): Promise<void> {
    const connectionId = sync.connectionId;
    if (connectionId === null) return;
    const result = await bridge.uploads.list({ connectionId });
    if (!result.ok || sync.connectionId !== connectionId) return;
    byId.value = withListOf(byId.value, connectionId, result.value);
  }

  watch(() => sync.connectionId, () => void load(), { immediate: true });
  // Events sent while the link to the host was down are lost: read the list again once it is back.
  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected') void load();
  });
  void appInfo.load();

  /** The uploads to show for a building's or portfolio's page: running and failed ones, and those that ended here. */
  function shownFor(kind: UploadTarget['kind'], id: string): UploadEntry[] {
    return entries.value.filter((entry) => isShownOn(entry, kind, id, endedHere.value) && (isRunning(entry) || !retired.value.has(entry.id)));
  }

  /** Takes the cards of ended uploads off the pages; the host's ledger (and Activity) keep them. */
  function retire(uploadIds: readonly string[]): void {
    const next = new Set(retired.value);
    for (const uploadId of uploadIds) next.add(uploadId);
    retired.value = next;
  }

  /** The latest upload of a building file (a new file or a new version of it), if the host still lists one. */
  async function latestOf(fileId: string): Promise<UploadEntry | undefined> {
    await loading;
    return entries.value.filter((entry) => uploadedFileId(entry) === fileId).at(-1);
  }

  async function start(target: UploadTarget, source: UploadSource, fileName: string, size: number): Promise<ApiOutcome<UploadEntry>> {
    const connectionId = sync.connectionId;
    if (connectionId === null) return { ok: false, failure: { kind: 'no-connection' } };
    const result = await bridge.uploads.start({ connectionId, target, source, fileName, size });
    if (!result.ok) return hostFailed(result.error);
    byId.value = withEntry(byId.value, result.value);
    return succeeded(result.value);
  }

  /** Starts an upload of a file the host's dialog chose. */
  async function startChosen(target: UploadTarget, chosen: ChosenFile): Promise<ApiOutcome<UploadEntry>> {
    if (notOnServer(target)) return { ok: false, failure: { kind: 'not-on-server' } };
    return start(target, { kind: 'chosen', choiceId: chosen.choiceId }, chosen.fileName, chosen.size);
  }

  /**
   * Starts an upload of a file of the page: from where it is on disk when the host can read it there; else a spool for
   * its bytes, the upload from that spool at once (so it is in the ledger and waits for the server like any other),
   * then the bytes, handed over in the background.
   */
  async function startFile(target: UploadTarget, file: File): Promise<ApiOutcome<UploadEntry>> {
    if (notOnServer(target)) return { ok: false, failure: { kind: 'not-on-server' } };
    if (sync.connectionId === null) return { ok: false, failure: { kind: 'no-connection' } };
    const onDisk = await choiceOnDisk(droppedFiles, file);
    if (onDisk !== undefined) return startChosen(target, onDisk);
    const spool = await bridge.uploads.openSpool({ fileName: file.name, size: file.size });
    if (!spool.ok) return hostFailed(spool.error);
    const started = await start(target, { kind: 'spool', spoolId: spool.value.spoolId }, file.name, file.size);
    if (started.ok) void feeding.feed(spool.value.spoolId, started.value.id, file);
    return started;
  }

  async function changed(result: Promise<IpcResult<UploadEntry>>): Promise<IpcResult<UploadEntry>> {
    const answer = await result;
    if (answer.ok) follow(answer.value);
    return answer;
  }

  /** Stops an upload. */
  function cancel(uploadId: string): Promise<IpcResult<UploadEntry>> {
    return changed(bridge.uploads.cancel({ uploadId }));
  }

  /** Sends an upload's bytes again, as far as the host still has them (its answer says when it has not). */
  function retry(uploadId: string): Promise<IpcResult<UploadEntry>> {
    feeding.forgetProblem(uploadId);
    return changed(bridge.uploads.retry({ uploadId }));
  }

  /** Removes an ended upload from the host's ledger and the lists. */
  async function forget(uploadId: string): Promise<IpcResult<null>> {
    const result = await bridge.uploads.forget({ uploadId });
    if (result.ok) byId.value = withoutEntry(byId.value, uploadId);
    return result;
  }

  return {
    entries,
    handedOver: feeding.handedOver,
    handOverProblems: feeding.problems,
    dialogAvailable,
    load,
    shownFor,
    retire,
    latestOf,
    choose: (kinds: ChooseKinds, multiple: boolean, title: string): Promise<ChooseOutcome> => chooseFiles(bridge, kinds, multiple, title),
    startChosen,
    startFile,
    cancel,
    retry,
    forget,
  };
});
