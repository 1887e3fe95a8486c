/**
 * The building page with its files for the component tests of adding and following files: a seeded cache, a host
 * whose upload service and API answer from memory (every call still passes the contract's checks), and a way to send
 * the host's upload events. The server is never reached unless a test answers an operation, so the cache stays as
 * seeded.
 */
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { expect } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import { RouterView } from 'vue-router';
import type { BridgeHandlers } from '../../../../../electron/bridge-dispatch';
import { BuildingFileType } from '../../../../../shared/api/enums';
import type { BuildingFileResponse, BuildingFileStatusResponse } from '../../../../../shared/api/schemas';
import { BridgeError, type ApiAnswer, type ApiRequest, type Connection } from '../../../../../shared/ipc';
import type { ChosenFiles, UploadEntry } from '../../../../../shared/uploads';
import { BRIDGE_KEY, type BridgeHandle } from '../../../../../renderer/bridge';
import type { SpoolPieceSender } from '../../../../../renderer/spool-pieces';
import { applyServerBuildings, applyServerFiles, applyServerList, writeFileStatus } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import type { SeenStatus } from '../../../../../renderer/db/schema';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { BUILDING_TIMING_KEY, type BuildingTiming } from '../../../../../renderer/stores/buildings';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { testBridge, type MountedPage, type TestBridge } from '../../harness';
import { eventually } from '../../dom';
import type { DroppedFilesBridge } from '../../../../../shared/dropped-files';

export const PORTFOLIO = '10000000-0000-4000-8000-000000000001';
export const BUILDING = '20000000-0000-4000-8000-000000000002';
export const AT = '2026-01-01T10:00:00.000Z';

/** No answer at all, as the host reports a server it cannot reach. */
export const NO_ANSWER: ApiAnswer = { kind: 'network', reason: 'unreachable', message: 'Connection refused.' };

/** A JSON answer. */
export function ok(value: unknown, status = 200): ApiAnswer {
  return { kind: 'ok', status, value, location: null };
}

/** A problem answer. */
export function problem(status: number, title: string, detail: string): ApiAnswer {
  return { kind: 'problem', status, problem: { type: 'about:blank', title, status, detail, instance: '/api/v2.3', errors: [], message: detail } };
}

/** A remote connection with a key. */
export function connection(id: string): Connection {
  return { id, name: id, baseUrl: `https://${id}.example.com`, apiVersion: 'v2.3', kind: 'remote', hasKey: true };
}

/** A file of the building as the server lists it. */
export function file(id: string, fileName: string, status: number, fields: Partial<BuildingFileResponse> = {}): BuildingFileResponse {
  return {
    id,
    buildingId: BUILDING,
    type: BuildingFileType.Source,
    status,
    isActive: false,
    isDirty: false,
    fileName,
    fileSize: 1000,
    lastModifiedDate: AT,
    tags: [],
    ...fields,
  } as BuildingFileResponse;
}

/** Rounds of the file status loop come quickly, but not in a busy loop. */
const fastTiming: BuildingTiming = {
  sleep: (_ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 5);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
  statusPollMs: 5,
  recalculationPollMs: 5,
  recalculationPolls: 3,
};

/** The host's upload service, in memory: spools with the chunks they got, uploads, and its answers. */
export class FakeUploadHost {
  readonly entries = new Map<string, UploadEntry>();
  readonly spools = new Map<string, { fileName: string; size: number; chunks: { offset: number; bytes: Buffer }[] }>();
  /** What `dialog:choose-files` answers: files, or no dialog (browser mode). */
  dialog: ChosenFiles | 'unavailable' = 'unavailable';
  /** How `uploads:retry` changes an upload. */
  retried: (entry: UploadEntry) => Partial<UploadEntry> = () => ({ state: 'waiting', problem: null, sentBytes: 0 });
  private bridge: TestBridge | undefined;
  private next = 0;

  constructor(private readonly connectionId: string) {}

  attach(bridge: TestBridge): void {
    this.bridge = bridge;
  }

  /** An upload the host already lists (of an earlier session). */
  seed(entry: Partial<UploadEntry> & Pick<UploadEntry, 'id' | 'target' | 'fileName'>): UploadEntry {
    const full: UploadEntry = {
      connectionId: this.connectionId,
      size: 1000,
      state: 'done',
      remoteFileId: null,
      sentBytes: 1000,
      bytesPerSecond: null,
      secondsLeft: null,
      problem: null,
      createdAt: AT,
      updatedAt: AT,
      doneAt: AT,
      ...entry,
    };
    this.entries.set(full.id, full);
    return full;
  }

  /** Changes an upload and sends `uploads:changed`, as the host does. */
  change(id: string, fields: Partial<UploadEntry>): UploadEntry {
    const entry = { ...this.entries.get(id)!, ...fields };
    this.entries.set(id, entry);
    this.bridge?.emit('uploads:changed', entry);
    return entry;
  }

  /** The bytes a spool got, in order. */
  bytesOf(spoolId: string): Buffer {
    const spool = this.spools.get(spoolId)!;
    return Buffer.concat(spool.chunks.map((chunk) => chunk.bytes));
  }

  handlers(): Partial<BridgeHandlers> {
    return {
      'dialog:choose-files': async () => {
        if (this.dialog === 'unavailable') throw new BridgeError('unavailable', 'There is no file dialog in the browser.');
        return this.dialog;
      },
      'uploads:open-spool': async ({ fileName, size }) => {
        this.next += 1;
        const spoolId = `spool-${this.next}`;
        this.spools.set(spoolId, { fileName, size, chunks: [] });
        return { spoolId };
      },
      'uploads:write-spool': async ({ spoolId, offset, data }) => {
        const spool = this.spools.get(spoolId)!;
        spool.chunks.push({ offset, bytes: Buffer.from(data) });
        return { written: offset + data.byteLength };
      },
      'uploads:start': async ({ connectionId, target, fileName, size }) => {
        this.next += 1;
        const createdAt = new Date(Date.parse(AT) + this.next * 1000).toISOString();
        const entry = this.seed({ id: `upload-${this.next}`, connectionId, target, fileName, size, state: 'waiting', sentBytes: 0, createdAt, doneAt: null });
        return entry;
      },
      'uploads:list': async ({ connectionId }) => [...this.entries.values()].filter((entry) => entry.connectionId === connectionId),
      'uploads:cancel': async ({ uploadId }) => this.change(uploadId, { state: 'cancelled', bytesPerSecond: null, secondsLeft: null }),
      'uploads:retry': async ({ uploadId }) => this.change(uploadId, this.retried(this.entries.get(uploadId)!)),
      'uploads:forget': async ({ uploadId }) => {
        this.entries.delete(uploadId);
        return null;
      },
    };
  }
}

/** What a test seeds and how the host answers. */
export interface FilesPageOptions {
  files?: BuildingFileResponse[];
  statuses?: BuildingFileStatusResponse[];
  /** Statuses seen, by file. */
  seen?: Record<string, SeenStatus[]>;
  host?: 'browser' | 'electron';
  /** Answers of API operations; any other answers no answer. */
  api?: Record<string, (request: ApiRequest) => ApiAnswer>;
  /** More Bridge handlers. */
  handlers?: Partial<BridgeHandlers>;
  /** The page to open (default: the building). */
  path?: string;
  /** Uploads the host already lists when the page opens. */
  uploads?: Parameters<FakeUploadHost['seed']>[0][];
  /** A component mounted beside the page, as App.vue mounts its dialogs. */
  beside?: Component;
  /** The Electron preload's Files-to-choices (`window.droppedFiles`). */
  droppedFiles?: DroppedFilesBridge;
  /** Browser mode's PUTs of a spool's pieces. */
  sendSpoolPiece?: SpoolPieceSender;
}

let run = 0;

/** The test bridge's handle with the host's extras the options name. */
function handleOf(handle: BridgeHandle, options: FilesPageOptions): BridgeHandle {
  return {
    ...handle,
    ...(options.droppedFiles === undefined ? {} : { droppedFiles: options.droppedFiles }),
    ...(options.sendSpoolPiece === undefined ? {} : { sendSpoolPiece: options.sendSpoolPiece }),
  };
}

/** Opens the page on a seeded cache; the pieces a test steers come back. */
export async function filesPage(mounted: MountedPage, options: FilesPageOptions = {}) {
  run += 1;
  const active = connection(`building-files-${run}`);
  const db = new CacheDb(active.id);
  await applyServerList(db, 'portfolios', [{ id: PORTFOLIO, name: 'Woningcorporatie', logo: null }]);
  await applyServerBuildings(db, [{ ...emptyBuilding(BUILDING, PORTFOLIO), name: 'Tower A' }]);
  await applyServerFiles(db, BUILDING, options.files ?? [], AT);
  for (const status of options.statuses ?? []) await writeFileStatus(db, BUILDING, status, '2026-01-01T10:05:00.000Z');
  for (const [id, seen] of Object.entries(options.seen ?? {})) await db.fileTimelines.put({ id, buildingId: BUILDING, seen });
  db.close();

  const uploads = new FakeUploadHost(active.id);
  for (const entry of options.uploads ?? []) uploads.seed(entry);
  const api = options.api ?? {};
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [active], activeId: active.id }),
    'app:info': async () => ({ version: '0.1.0', host: options.host ?? 'browser', platform: 'linux', userDataDir: '/tmp/user-data' }),
    'api:request': async (request) => api[request.operationId]?.(request) ?? NO_ANSWER,
    ...uploads.handlers(),
    ...options.handlers,
  });
  uploads.attach(bridge);
  const router = createAppRouter();
  await router.push(options.path ?? `/buildings/${BUILDING}`);
  const pinia = createPinia();
  const beside = options.beside;
  const App = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => [h(RouterView), ...(beside === undefined ? [] : [h(beside)])])));
  const wrapper = mount(App, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: handleOf(bridge.handle, options), [BUILDING_TIMING_KEY]: fastTiming } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(sync.db).not.toBeNull());
  return { bridge, uploads, router, sync, pinia, connectionId: active.id };
}

/** The operation ids of the page's API calls, in order. */
export function operations(bridge: TestBridge): string[] {
  return bridge.requestsOf('api:request').map((request) => request.operationId);
}

/** The text of the page's messages (naive-ui shows them outside the page). */
export function messages(): string {
  return document.querySelector('.n-message-container')?.textContent ?? '';
}
