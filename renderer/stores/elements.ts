/**
 * Changes of elements by the user: each goes into the active connection's cache with its outbox entry (the db layer
 * writes both in one transaction), then the scheduler is told, so a sync follows when the user pauses. Offline, the
 * changes wait in the outbox until the server can be reached. The import report's fixes change every element of a
 * group (unmapped ones of a material name, unclassified ones of an IFC class) as the cache holds them, so they work
 * offline and against any server.
 */
import { defineStore } from 'pinia';
import type { CacheDb } from '../db/cache-db';
import { createElement, deleteElements, editElements, type NewElement } from '../db/edits';
import type { ElementChanges } from '../db/edit-shapes';
import { scanElements } from '../db/reads';
import type { ElementRow } from '../db/schema';
import type { ElementGroupKey } from '../../shared/counting';
import { inUnmappedGroup, lacksBuildingLayer, unlayeredGroupName } from '../views/files/local-report';
import { inReasonGroup, type FixedReason } from '../views/files/reason-groups';
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

  /**
   * Makes one change to every element of a file that `matches`, as the cache holds them now, in one bulk edit (one
   * transaction, an outbox entry per element); answers how many it changed.
   */
  async function editWhere(fileId: string, matches: (row: ElementRow) => boolean, changes: ElementChanges): Promise<number> {
    const db = cache();
    const ids: string[] = [];
    await scanElements(db, fileId, (rows) => {
      for (const row of rows) if (matches(row)) ids.push(row.id);
    });
    if (ids.length === 0) return 0;
    await editElements(db, fileId, ids, changes);
    sync.notifyEdit();
    return ids.length;
  }

  /** Maps every unmapped element of a file in a group (a material name, else an IFC class and type name) to a material or product. */
  function mapUnmapped(fileId: string, group: ElementGroupKey, materialId: string): Promise<number> {
    return editWhere(fileId, (row) => inUnmappedGroup(row, group), { materialId });
  }

  /** Maps every element of a group of the server's report (its elements as the cache holds them now) to another material or product. */
  function remapGroup(fileId: string, reason: FixedReason, group: ElementGroupKey, materialId: string): Promise<number> {
    return editWhere(fileId, (row) => inReasonGroup(row, reason, group), { materialId });
  }

  /** Gives every element of a file of IFC class `elementClass` (null: none) that lacks a building layer a classification code. */
  function classifyUnlayered(fileId: string, elementClass: string | null, code: string): Promise<number> {
    return editWhere(fileId, (row) => lacksBuildingLayer(row) && unlayeredGroupName(row) === elementClass, { classificationLookup: code });
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

  return { edit, mapUnmapped, remapGroup, classifyUnlayered, create, remove };
});
