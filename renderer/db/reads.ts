/**
 * Reads of the cache for screens and stores, meant to run inside `liveQuery`. Elements are read a page at a time from
 * one file's key range: nothing loads a whole file, let alone a whole building.
 */
import { fileKeyRange, type CacheDb } from './cache-db';
import type { ElementRow } from './schema';

/** How many elements of a file the cache holds. */
export function elementCount(db: CacheDb, fileId: string): Promise<number> {
  const [lower, upper] = fileKeyRange(fileId);
  return db.elements.where(':id').between(lower, upper, true, true).count();
}

/** One page of a file's elements in element id order. */
export function elementPage(db: CacheDb, fileId: string, offset: number, limit: number): Promise<ElementRow[]> {
  const [lower, upper] = fileKeyRange(fileId);
  return db.elements.where(':id').between(lower, upper, true, true).offset(offset).limit(limit).toArray();
}
