/**
 * What a file's cached elements say about its circularity score, without asking the server: how many are mapped and
 * have a building layer, and the two groups the import report's one-step fixes work on (unmapped elements by material
 * name, elements without a building layer by IFC class). Computed here so the fixes work against any server and
 * offline, and so a group shrinks as soon as the user's edit is in the cache, before the server has refined anything.
 */
import { BuildingLevel } from '../../../shared/api/enums';
import { sameValue } from '../../db/field-paths';
import type { ElementRow } from '../../db/schema';

/** Elements that share a name (a material name, an IFC class; null: none), with their count and volume (m³). */
export interface ElementGroup {
  name: string | null;
  elements: number;
  volume: number;
}

/** The figures of a file's cached elements. */
export interface LocalReport {
  elements: number;
  volume: number;
  /** Mapped to a material or product (here or by the server). */
  mapped: number;
  /** With one of the six known building layers, as the server last matched them. */
  layered: number;
  /** Not mapped, by material name, the largest volume first. */
  unmapped: ElementGroup[];
  /** Without a building layer and not classified here since, by IFC class, the largest volume first. */
  unlayered: ElementGroup[];
}

const UNKNOWN_LAYER = BuildingLevel.Unknown.id;

/** Whether an element is mapped to nothing. */
export function isUnmapped(row: ElementRow): boolean {
  return row.mapping === null;
}

/** Whether the server matched an element to one of the six building layers. */
export function hasBuildingLayer(row: ElementRow): boolean {
  const id = row.brandLayerMatch?.id.toLowerCase();
  return id !== undefined && id !== UNKNOWN_LAYER;
}

/** Whether the user changed an element's classification here: its match and layer follow once the file is refined. */
export function classifiedHere(row: ElementRow): boolean {
  return row.base !== undefined && !sameValue(row.classificationLookup, row.base.classificationLookup);
}

/** Whether an element still needs a classification: no building layer, and none chosen here since. */
export function lacksBuildingLayer(row: ElementRow): boolean {
  return !hasBuildingLayer(row) && !classifiedHere(row);
}

/** A tally over a file's elements, fed a chunk at a time (`add`) and read once (`finish`). */
export interface ReportTally {
  add(rows: readonly ElementRow[]): void;
  finish(): LocalReport;
}

function volumeOf(row: ElementRow): number {
  return row.volume !== null && Number.isFinite(row.volume) && row.volume > 0 ? row.volume : 0;
}

function grow(groups: Map<string | null, ElementGroup>, name: string | null, volume: number): void {
  const group = groups.get(name) ?? { name, elements: 0, volume: 0 };
  group.elements += 1;
  group.volume += volume;
  groups.set(name, group);
}

/** Largest volume first, then the most elements, then by name (none last). */
function ordered(groups: Map<string | null, ElementGroup>): ElementGroup[] {
  return [...groups.values()].sort(
    (a, b) => b.volume - a.volume || b.elements - a.elements || (a.name ?? '\uffff').localeCompare(b.name ?? '\uffff'),
  );
}

/** A new tally. */
export function reportTally(): ReportTally {
  let elements = 0;
  let volume = 0;
  let mapped = 0;
  let layered = 0;
  const unmapped = new Map<string | null, ElementGroup>();
  const unlayered = new Map<string | null, ElementGroup>();
  return {
    add(rows) {
      for (const row of rows) {
        const rowVolume = volumeOf(row);
        elements += 1;
        volume += rowVolume;
        if (isUnmapped(row)) grow(unmapped, row.materialName, rowVolume);
        else mapped += 1;
        if (hasBuildingLayer(row)) layered += 1;
        if (lacksBuildingLayer(row)) grow(unlayered, row.elementClass, rowVolume);
      }
    },
    finish: () => ({ elements, volume, mapped, layered, unmapped: ordered(unmapped), unlayered: ordered(unlayered) }),
  };
}

