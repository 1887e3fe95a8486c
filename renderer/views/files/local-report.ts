/**
 * What a file's cached elements say about its circularity score, without asking the server: how many are mapped and
 * have a building layer, and the two groups the import report's one-step fixes work on: unmapped elements by material
 * name, else (the model names none) by IFC class and type name, as the server's report groups them
 * (shared/counting.ts); and elements without a building layer by IFC class. Computed here so the fixes work against any
 * server and offline, and so a group shrinks as soon as the user's edit is in the cache, before the server has refined
 * anything.
 */
import { BuildingLevel } from '../../../shared/api/enums';
import { Groups, groupKeyText, named, unmappedGroupKey, type ElementGroupKey, type GroupTally } from '../../../shared/counting';
import { sameValue } from '../../db/field-paths';
import type { ElementRow } from '../../db/schema';

/** Unmapped elements one mapping handles together, with their count and volume (m³). */
export type UnmappedGroup = GroupTally<ElementGroupKey>;

/** Elements of one IFC class (null: none) without a building layer, with their count and volume (m³). */
export type UnlayeredGroup = GroupTally<string | null>;

/** The figures of a file's cached elements. */
export interface LocalReport {
  elements: number;
  volume: number;
  /** Mapped to a material or product (here or by the server). */
  mapped: number;
  /** With one of the six known building layers, as the server last matched them. */
  layered: number;
  /** Not mapped, by material name, else by IFC class and type name, the largest volume first. */
  unmapped: UnmappedGroup[];
  /** Without a building layer and not classified here since, by IFC class, the largest volume first. */
  unlayered: UnlayeredGroup[];
}

const UNKNOWN_LAYER = BuildingLevel.Unknown.id;

/** Whether an element is mapped to nothing. */
export function isUnmapped(row: ElementRow): boolean {
  return row.mapping === null;
}

/** Whether an unmapped element is in a group of unmapped elements. */
export function inUnmappedGroup(row: ElementRow, key: ElementGroupKey): boolean {
  return isUnmapped(row) && groupKeyText(unmappedGroupKey(row)) === groupKeyText(key);
}

/** Whether the server matched an element to one of the six building layers. */
export function hasBuildingLayer(row: ElementRow): boolean {
  const id = row.brandLayerMatch?.id.toLowerCase();
  return id !== undefined && id !== UNKNOWN_LAYER;
}

/** Whether the user changed an element's phase here: its match follows once the file is refined. */
export function phasedHere(row: ElementRow): boolean {
  return row.base !== undefined && !sameValue(row.phaseLookup, row.base.phaseLookup);
}

/** Whether the user changed an element's classification here: its match and layer follow once the file is refined. */
export function classifiedHere(row: ElementRow): boolean {
  return row.base !== undefined && !sameValue(row.classificationLookup, row.base.classificationLookup);
}

/** Whether an element still needs a classification: no building layer, and none chosen here since. */
export function lacksBuildingLayer(row: ElementRow): boolean {
  return !hasBuildingLayer(row) && !classifiedHere(row);
}

/** The IFC class an element without a building layer is grouped by (null: none). */
export function unlayeredGroupName(row: ElementRow): string | null {
  return named(row.elementClass);
}

/** A tally over a file's elements, fed a chunk at a time (`add`) and read once (`finish`). */
export interface ReportTally {
  add(rows: readonly ElementRow[]): void;
  finish(): LocalReport;
}

function volumeOf(row: ElementRow): number {
  return row.volume !== null && Number.isFinite(row.volume) && row.volume > 0 ? row.volume : 0;
}

/** A new tally. */
export function reportTally(): ReportTally {
  let elements = 0;
  let volume = 0;
  let mapped = 0;
  let layered = 0;
  const unmapped = new Groups<ElementGroupKey>(groupKeyText);
  const unlayered = new Groups<string | null>((name) => JSON.stringify(name));
  return {
    add(rows) {
      for (const row of rows) {
        const rowVolume = volumeOf(row);
        elements += 1;
        volume += rowVolume;
        if (isUnmapped(row)) unmapped.add(unmappedGroupKey(row), rowVolume);
        else mapped += 1;
        if (hasBuildingLayer(row)) layered += 1;
        if (lacksBuildingLayer(row)) unlayered.add(unlayeredGroupName(row), rowVolume);
      }
    },
    finish: () => ({ elements, volume, mapped, layered, unmapped: unmapped.ordered(), unlayered: unlayered.ordered() }),
  };
}
