/**
 * Changes of elements by the user: each goes into the active connection's cache with its outbox entry (the db layer
 * writes both in one transaction), then the scheduler is told, so a sync follows when the user pauses. Offline, the
 * changes wait in the outbox until the server can be reached.
 */
import { defineStore } from 'pinia';
import type { CacheDb } from '../db/cache-db';
import { createElement, deleteElements, editElements, type NewElement } from '../db/edits';
import type { ElementChanges } from '../db/edit-shapes';
import { useSyncStore } from './sync';

/** The user's element changes on the active connection. */
export const useElementsStore = defineStore('elements', () => {
  const sync = useSyncStore();

  function cache(): CacheDb {
    if (sync.db === null) throw new Error('No connection is open.');
    return sync.db;
  }

  /** Makes the same change to the given elements of a file (one element, or a selection). */
  async function edit(fileId: string, elementIds: readonly string[], changes: ElementChanges): Promise<void> {
    await editElements(cache(), fileId, elementIds, changes);
    sync.notifyEdit();
  }

  /** Adds an element to a file; answers its id. */
  async function create(fileId: string, element: NewElement): Promise<string> {
    const id = await createElement(cache(), fileId, element);
    sync.notifyEdit();
    return id;
  }

  /** Deletes elements of a file. */
  async function remove(fileId: string, elementIds: readonly string[]): Promise<void> {
    await deleteElements(cache(), fileId, elementIds);
    sync.notifyEdit();
  }

  return { edit, create, remove };
});
