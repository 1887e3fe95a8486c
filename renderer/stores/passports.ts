/**
 * Passport folders (a building's or portfolio's passports saved into a folder) and the history of their passports,
 * as the host's passport service reports them: read once, then kept current by its `passports:changed` events.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import type { IpcError, IpcResult } from '../../shared/ipc';
import type { PassportEntry, PassportRequestOptions, PassportTarget, PassportTargetChanges, PassportTargetDraft } from '../../shared/passports';
import { useBridge, useBridgeLink } from '../bridge';

/** How many entries of the history the screen keeps. */
const HISTORY_LIMIT = 200;

/** Passport folders and their history. */
export const usePassportsStore = defineStore('passports', () => {
  const bridge = useBridge();
  const link = useBridgeLink();
  const targets = shallowRef<PassportTarget[]>([]);
  const history = shallowRef<PassportEntry[]>([]);
  const loaded = ref(false);
  const error = shallowRef<IpcError | null>(null);

  bridge.on('passports:changed', (event) => {
    if (event.type === 'targets-changed') {
      targets.value = event.targets;
      return;
    }
    const rest = history.value.filter((entry) => entry.id !== event.entry.id);
    history.value = [event.entry, ...rest]
      .sort((a, b) => (a.requestedAt < b.requestedAt ? 1 : a.requestedAt > b.requestedAt ? -1 : 0))
      .slice(0, HISTORY_LIMIT);
  });

  /** Reads the targets and the history. */
  async function load(): Promise<void> {
    const [listed, entries] = await Promise.all([bridge.passports.targets(), bridge.passports.history({})]);
    if (!listed.ok || !entries.ok) {
      error.value = listed.ok ? (entries.ok ? null : entries.error) : listed.error;
      return;
    }
    targets.value = listed.value;
    history.value = entries.value.slice(0, HISTORY_LIMIT);
    error.value = null;
    loaded.value = true;
  }

  async function afterChange<T>(call: Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    const result = await call;
    if (result.ok) await load();
    return result;
  }

  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected' && loaded.value) void load();
  });

  return {
    targets,
    history,
    loaded,
    error,
    load,
    addTarget: (draft: PassportTargetDraft) => afterChange(bridge.passports.addTarget(draft)),
    updateTarget: (targetId: string, changes: PassportTargetChanges) => afterChange(bridge.passports.updateTarget({ targetId, ...changes })),
    removeTarget: (targetId: string) => afterChange(bridge.passports.removeTarget({ targetId })),
    request: (targetId: string, options: PassportRequestOptions = {}) => afterChange(bridge.passports.request({ targetId, ...options })),
    retry: (entryId: string) => afterChange(bridge.passports.retry({ entryId })),
    openFile: (entryId: string) => bridge.passports.openFile({ entryId }),
  };
});
