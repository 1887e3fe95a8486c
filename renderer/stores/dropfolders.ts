/**
 * The drop folders of this machine and the files of each, as the host's drop folder service reports them: read once,
 * then kept current by its `dropfolders:changed` events (a file's state, an upload's progress, the folders). The
 * actions are the service's; a refusal comes back as the Bridge's error for the screen to show.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import { assertNever } from '../../shared/api/enums';
import type { DropFolderDraft, DropFolderFile, DropFolderSettings, DropFolderStatus } from '../../shared/dropfolders';
import type { IpcError, IpcResult } from '../../shared/ipc';
import { useBridge, useBridgeLink } from '../bridge';

/** Drop folders and their files. */
export const useDropFoldersStore = defineStore('dropFolders', () => {
  const bridge = useBridge();
  const link = useBridgeLink();
  const folders = shallowRef<DropFolderStatus[]>([]);
  /** The files of the folders the screens asked for, by mapping id. */
  const files = shallowRef<ReadonlyMap<string, DropFolderFile[]>>(new Map());
  const loaded = ref(false);
  const error = shallowRef<IpcError | null>(null);
  /** Whether the host has a folder dialog (Electron); browser mode types the path instead. */
  const dialogAvailable = ref(true);
  /** Set by `loadAll`: the files of every folder are followed, those of folders added later too. */
  let everyFolder = false;

  function setFiles(mappingId: string, next: DropFolderFile[]): void {
    const copy = new Map(files.value);
    copy.set(mappingId, next);
    files.value = copy;
  }

  function putFile(file: DropFolderFile): void {
    const current = files.value.get(file.mappingId);
    if (current === undefined) return;
    const index = current.findIndex((each) => each.path === file.path);
    setFiles(file.mappingId, index === -1 ? [...current, file] : current.map((each, at) => (at === index ? file : each)));
  }

  bridge.on('dropfolders:changed', (event) => {
    switch (event.kind) {
      case 'folders':
        folders.value = event.folders;
        if (everyFolder) for (const folder of event.folders) if (!files.value.has(folder.id)) void loadFiles(folder.id);
        return;
      case 'file':
        putFile(event.file);
        return;
      case 'file-removed': {
        const current = files.value.get(event.mappingId);
        if (current !== undefined) setFiles(event.mappingId, current.filter((each) => each.path !== event.path));
        return;
      }
      case 'progress': {
        const file = files.value.get(event.mappingId)?.find((each) => each.path === event.path);
        if (file !== undefined) putFile({ ...file, progress: event.progress });
        return;
      }
      case 'notice':
        return;
      default:
        assertNever(event, 'drop folder event');
    }
  });

  /** Reads the folders (and the files of those already shown). */
  async function load(): Promise<void> {
    const result = await bridge.dropfolders.list();
    if (!result.ok) {
      error.value = result.error;
      return;
    }
    folders.value = result.value;
    error.value = null;
    loaded.value = true;
    const shown = everyFolder ? folders.value.map((folder) => folder.id) : [...files.value.keys()];
    await Promise.all(shown.map((mappingId) => loadFiles(mappingId)));
  }

  /** Reads the folders and the files of every one, and follows the files of folders added later as well. */
  async function loadAll(): Promise<void> {
    everyFolder = true;
    await load();
  }

  /** Reads the files of a folder; they then follow the service's events. */
  async function loadFiles(mappingId: string): Promise<IpcResult<DropFolderFile[]>> {
    const result = await bridge.dropfolders.files({ mappingId });
    if (result.ok) setFiles(mappingId, result.value);
    return result;
  }

  async function afterChange<T>(call: Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    const result = await call;
    if (result.ok) await load();
    return result;
  }

  /** Asks the host's folder dialog for a folder: its path, null when cancelled or when the host has no dialog. */
  async function chooseFolder(title: string): Promise<string | null> {
    const result = await bridge.dialog.chooseFolder({ title });
    if (result.ok) return result.value;
    if (result.error.code === 'unavailable') dialogAvailable.value = false;
    return null;
  }

  // Events sent while the link to the host was down are lost: read everything again once it is back.
  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected' && loaded.value) void load();
  });

  return {
    folders,
    files,
    loaded,
    error,
    dialogAvailable,
    load,
    loadAll,
    loadFiles,
    chooseFolder,
    add: (draft: DropFolderDraft) => afterChange(bridge.dropfolders.add(draft)),
    update: (mappingId: string, changes: Partial<DropFolderSettings>) => afterChange(bridge.dropfolders.update({ mappingId, ...changes })),
    remove: (mappingId: string) => afterChange(bridge.dropfolders.remove({ mappingId })),
    pause: (mappingId: string) => afterChange(bridge.dropfolders.pause({ mappingId })),
    resume: (mappingId: string) => afterChange(bridge.dropfolders.resume({ mappingId })),
    retry: (mappingId: string, path: string) => bridge.dropfolders.retry({ mappingId, path }),
    rescan: (mappingId?: string) => bridge.dropfolders.rescan(mappingId === undefined ? {} : { mappingId }),
    openFolder: (mappingId: string) => bridge.dropfolders.openFolder({ mappingId }),
  };
});
