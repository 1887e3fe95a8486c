/**
 * Uploads the user starts in the app: models, spreadsheets and documents added on a building's page, a portfolio's
 * information files. The host's upload service runs them through the connection's queued client and keeps them in a
 * ledger that survives a restart; one chosen while the server cannot be reached waits and starts by itself. This store
 * lists the active connection's uploads, keeps them current by `uploads:changed`, and starts them from a file the
 * host's dialog chose (the host reads it from disk) or from a File of the page (dropped, or picked where the host has
 * no dialog). In Electron the host reads such a File from disk too (`shared/dropped-files.ts`); otherwise its bytes go
 * to a spool of the host: in browser mode as PUTs of large pieces that the browser reads from disk itself
 * (`spool-pieces.ts`), in Electron a chunk at a time, each read from the file when it is sent, so the page holds at most
 * a few chunks whatever the file's size. The host starts sending while they arrive.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { IpcResult } from '../../shared/ipc';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT, type ChosenFiles, type UploadEntry, type UploadSource, type UploadTarget } from '../../shared/uploads';
import { SPOOL_PIECE_BYTES } from '../../shared/web-bridge-protocol';
import { useBridge, useBridgeLink, useDroppedFiles, useSpoolPieceSender } from '../bridge';
import { noteFileUploaded } from '../db/file-timelines';
import { isLocalId } from '../db/schema';
import type { SpoolPieceSender } from '../spool-pieces';
import { useAppInfoStore } from './app-info';
import type { OnlineOutcome } from './online-outcome';
import { useSyncStore } from './sync';

/** One file the host's dialog handed out. */
export type ChosenFile = ChosenFiles[number];

/** What the host's file dialog gave: files (none when cancelled), no dialog at all (browser mode), or a failure. */
export type ChooseOutcome = { kind: 'chosen'; files: ChosenFile[] } | { kind: 'unavailable' } | { kind: 'failed'; message: string };

/** Which files the dialog offers. */
export type ChooseKinds = 'source' | 'information' | 'any';

/** Whether an upload still runs: it waits, creates the file or sends. */
export function isRunning(entry: UploadEntry): boolean {
  return entry.state === 'waiting' || entry.state === 'creating' || entry.state === 'sending';
}

/** The server file an upload is about: the one it created, or the source file it gives a new version. */
export function uploadedFileId(entry: UploadEntry): string | null {
  if (entry.remoteFileId !== null) return entry.remoteFileId;
  return entry.target.kind === 'building-file' ? (entry.target.replaceFileId ?? null) : null;
}

function targetId(target: UploadTarget): string {
  return target.kind === 'building-file' ? target.buildingId : target.portfolioId;
}

/** The active connection's uploads, and starting, cancelling, retrying and forgetting them. */
export const useUploadsStore = defineStore('uploads', () => {
  const bridge = useBridge();
  const droppedFiles = useDroppedFiles();
  const sendSpoolPiece = useSpoolPieceSender();
  const link = useBridgeLink();
  const sync = useSyncStore();
  const appInfo = useAppInfoStore();

  const byId = shallowRef<ReadonlyMap<string, UploadEntry>>(new Map());
  /** Uploads that ended while this store followed them: ended ones show until forgotten only then. */
  const endedHere = ref(new Set<string>());
  /** Bytes of a page's file handed to the host's spool so far, by upload, while they are being handed over. */
  const handedOver = ref<Record<string, number>>({});
  /** Why handing a page's file over stopped, by upload. */
  const handOverProblems = ref<Record<string, string>>({});
  /** Whether the host has a file dialog: Electron's; browser mode picks files in the page. */
  const dialogAvailable = computed(() => appInfo.info?.host !== 'browser');

  const entries = computed(() =>
    [...byId.value.values()]
      .filter((entry) => entry.connectionId === sync.connectionId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
  );

  function put(entry: UploadEntry): void {
    const next = new Map(byId.value);
    next.set(entry.id, entry);
    byId.value = next;
  }

  function drop(uploadId: string): void {
    const next = new Map(byId.value);
    next.delete(uploadId);
    byId.value = next;
  }

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
    put(entry);
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
    const next = new Map([...byId.value].filter(([, entry]) => entry.connectionId !== connectionId));
    for (const entry of result.value) next.set(entry.id, entry);
    byId.value = next;
  }

  watch(() => sync.connectionId, () => void load(), { immediate: true });
  // Events sent while the link to the host was down are lost: read the list again once it is back.
  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected') void load();
  });
  void appInfo.load();

  /** The uploads to show for a building's or portfolio's page: running and failed ones, and those that ended here. */
  function shownFor(kind: UploadTarget['kind'], id: string): UploadEntry[] {
    return entries.value.filter(
      (entry) =>
        entry.target.kind === kind &&
        targetId(entry.target) === id &&
        (isRunning(entry) || entry.state === 'failed' || endedHere.value.has(entry.id)),
    );
  }

  /** The latest upload of a building file (a new file or a new version of it), if the host still lists one. */
  async function latestOf(fileId: string): Promise<UploadEntry | undefined> {
    await loading;
    return entries.value.filter((entry) => uploadedFileId(entry) === fileId).at(-1);
  }

  /** Asks the host's dialog for files; in browser mode it answers `unavailable`, and the page's file input picks them. */
  async function choose(kinds: ChooseKinds, multiple: boolean, title: string): Promise<ChooseOutcome> {
    const result = await bridge.dialog.chooseFiles({ kinds, multiple, title });
    if (result.ok) return { kind: 'chosen', files: result.value };
    return result.error.code === 'unavailable' ? { kind: 'unavailable' } : { kind: 'failed', message: result.error.message };
  }

  async function start(target: UploadTarget, source: UploadSource, fileName: string, size: number): Promise<OnlineOutcome<UploadEntry>> {
    const connectionId = sync.connectionId;
    if (connectionId === null) return { ok: false, refusal: { kind: 'no-connection' } };
    const result = await bridge.uploads.start({ connectionId, target, source, fileName, size });
    if (!result.ok) return { ok: false, refusal: { kind: 'failed', failure: { kind: 'host', message: result.error.message } } };
    put(result.value);
    return { ok: true, value: result.value };
  }

  /** Where an upload cannot go: a building or portfolio created here is not on the server yet. */
  function notOnServer(target: UploadTarget): boolean {
    return isLocalId(targetId(target));
  }

  /** Starts an upload of a file the host's dialog chose. */
  async function startChosen(target: UploadTarget, chosen: ChosenFile): Promise<OnlineOutcome<UploadEntry>> {
    if (notOnServer(target)) return { ok: false, refusal: { kind: 'not-on-server' } };
    return start(target, { kind: 'chosen', choiceId: chosen.choiceId }, chosen.fileName, chosen.size);
  }

  function stoppedHere(uploadId: string): boolean {
    const state = byId.value.get(uploadId)?.state;
    return state === 'cancelled' || state === 'failed';
  }

  /** Notes how far a page's file is handed over, or why the host refused it; answers whether to go on. */
  function noteHandOver(uploadId: string, result: IpcResult<unknown>, end: number): boolean {
    if (!result.ok) {
      handOverProblems.value = { ...handOverProblems.value, [uploadId]: result.error.message };
      return false;
    }
    if (uploadId in handedOver.value) {
      handedOver.value = { ...handedOver.value, [uploadId]: Math.max(handedOver.value[uploadId] ?? 0, end) };
    }
    return true;
  }

  /** Browser mode: the file as PUTs of SPOOL_PIECE_BYTES, one after the other, which the browser reads from disk itself. */
  async function handOverInPieces(send: SpoolPieceSender, spoolId: string, uploadId: string, file: Blob): Promise<void> {
    for (let offset = 0; offset < file.size && !stoppedHere(uploadId); offset += SPOOL_PIECE_BYTES) {
      const end = Math.min(file.size, offset + SPOOL_PIECE_BYTES);
      if (!noteHandOver(uploadId, await send(spoolId, offset, file.slice(offset, end)), end)) return;
    }
  }

  /**
   * Electron (a File that is not on disk): chunk after chunk as `uploads:write-spool` calls, each read when it is sent
   * and up to SPOOL_CHUNKS_IN_FLIGHT on their way at once (the host takes them in order), until it is all there or
   * the host refuses one.
   */
  async function handOverInChunks(spoolId: string, uploadId: string, file: Blob): Promise<void> {
    const onTheirWay = new Set<Promise<void>>();
    let refused = false;
    for (let offset = 0; offset < file.size && !refused && !stoppedHere(uploadId); offset += SPOOL_CHUNK_BYTES) {
      const data = new Uint8Array(await file.slice(offset, offset + SPOOL_CHUNK_BYTES).arrayBuffer());
      const end = offset + data.byteLength;
      const sent = bridge.uploads.writeSpool({ spoolId, offset, data }).then((written) => {
        if (!noteHandOver(uploadId, written, end)) refused = true;
      });
      onTheirWay.add(sent);
      void sent.finally(() => onTheirWay.delete(sent));
      if (onTheirWay.size >= SPOOL_CHUNKS_IN_FLIGHT) await Promise.race(onTheirWay);
    }
    await Promise.all(onTheirWay);
  }

  /** Sends a page's file to its spool, the way the host takes it, and stops showing the hand-over once it ended. */
  async function handOver(spoolId: string, uploadId: string, file: Blob): Promise<void> {
    if (sendSpoolPiece === undefined) await handOverInChunks(spoolId, uploadId, file);
    else await handOverInPieces(sendSpoolPiece, spoolId, uploadId, file);
    const { [uploadId]: _done, ...rest } = handedOver.value;
    handedOver.value = rest;
  }

  /**
   * The host's choice for a File that is on disk, in Electron: the host then reads it itself. Undefined in a browser,
   * and for a File that is not on disk (dragged from another app) or that the host refused: its bytes go to a spool.
   */
  async function choiceOnDisk(file: File): Promise<ChosenFile | undefined> {
    if (droppedFiles === undefined) return undefined;
    try {
      const answer = await droppedFiles.choicesOf([file]);
      return answer.ok ? answer.value[0] : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Starts an upload of a file of the page: from where it is on disk when the host can read it there; else a spool for
   * its bytes, the upload from that spool at once (so it is in the ledger and waits for the server like any other),
   * then the bytes, handed over in the background.
   */
  async function startFile(target: UploadTarget, file: File): Promise<OnlineOutcome<UploadEntry>> {
    if (notOnServer(target)) return { ok: false, refusal: { kind: 'not-on-server' } };
    if (sync.connectionId === null) return { ok: false, refusal: { kind: 'no-connection' } };
    const onDisk = await choiceOnDisk(file);
    if (onDisk !== undefined) return startChosen(target, onDisk);
    const spool = await bridge.uploads.openSpool({ fileName: file.name, size: file.size });
    if (!spool.ok) return { ok: false, refusal: { kind: 'failed', failure: { kind: 'host', message: spool.error.message } } };
    const started = await start(target, { kind: 'spool', spoolId: spool.value.spoolId }, file.name, file.size);
    if (started.ok) {
      handedOver.value = { ...handedOver.value, [started.value.id]: 0 };
      void handOver(spool.value.spoolId, started.value.id, file);
    }
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
    const { [uploadId]: _problem, ...rest } = handOverProblems.value;
    handOverProblems.value = rest;
    return changed(bridge.uploads.retry({ uploadId }));
  }

  /** Removes an ended upload from the host's ledger and the lists. */
  async function forget(uploadId: string): Promise<IpcResult<null>> {
    const result = await bridge.uploads.forget({ uploadId });
    if (result.ok) drop(uploadId);
    return result;
  }

  return {
    entries,
    handedOver,
    handOverProblems,
    dialogAvailable,
    load,
    shownFor,
    latestOf,
    choose,
    startChosen,
    startFile,
    cancel,
    retry,
    forget,
  };
});
