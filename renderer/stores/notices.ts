/**
 * What the host tells the user while they do something else (a drop folder file mapped or failed, a passport saved):
 * the notices of this session, newest first and bounded, for the shell's toasts and the Activity screen's history.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { Notice } from '../../shared/ipc';
import { useBridge } from '../bridge';

/** How many notices the history keeps. */
export const NOTICES_KEPT = 100;

/** A notice and when it arrived. */
export interface ReceivedNotice extends Notice {
  id: number;
  at: Date;
}

/** The host's notices of this session. */
export const useNoticesStore = defineStore('notices', () => {
  const bridge = useBridge();
  const notices = shallowRef<ReceivedNotice[]>([]);
  let next = 1;

  bridge.on('notice', (notice) => {
    notices.value = [{ ...notice, id: next++, at: new Date() }, ...notices.value].slice(0, NOTICES_KEPT);
  });

  /** Empties the history; ids keep counting, so a toast is never shown twice. */
  function clear(): void {
    notices.value = [];
  }

  return { notices, clear };
});
