/**
 * The timeline of a source file's processing: Uploaded → Importing → Imported → Refining → Mapped, each stage done,
 * under way, still to come or where it failed, with the time the app first saw it (the server gives only the current
 * status; `fileTimelines` keeps what the app saw). A stage passed while nobody looked has no time. Pure.
 */
import { BuildingFileStatuses } from '../../../shared/api/enums';
import type { SeenStatus } from '../../db/schema';

/** The stages of a source file's processing, in order. */
export const TIMELINE_STAGES = ['uploaded', 'importing', 'imported', 'refining', 'mapped'] as const;
/** A stage of the processing. */
export type TimelineStage = (typeof TIMELINE_STAGES)[number];

/** How far a stage got. */
export type StageState = 'done' | 'current' | 'waiting' | 'failed';

/** One stage as shown: its state, and when the app first saw it (null: not seen). */
export interface TimelineStep {
  stage: TimelineStage;
  state: StageState;
  at: string | null;
}

/** The stage whose time a status gives. */
const STAGE_OF: ReadonlyMap<number, number> = new Map([
  [BuildingFileStatuses.Uploaded, 0],
  [BuildingFileStatuses.Importing, 1],
  [BuildingFileStatuses.Imported, 2],
  [BuildingFileStatuses.Refining, 3],
  [BuildingFileStatuses.Refined, 3],
  [BuildingFileStatuses.Mapping, 3],
  [BuildingFileStatuses.Mapped, 4],
]);

/**
 * In a status, how many stages are done and which one is under way: Uploaded means the import is next, Imported that
 * the refinement is; the server works through Refining, Refined and Mapping in the one stage Refining.
 */
const PROGRESS: ReadonlyMap<number, { done: number; current: number | null }> = new Map([
  [BuildingFileStatuses.Creating, { done: 0, current: 0 }],
  [BuildingFileStatuses.Uploaded, { done: 1, current: 1 }],
  [BuildingFileStatuses.Importing, { done: 1, current: 1 }],
  [BuildingFileStatuses.Imported, { done: 3, current: 3 }],
  [BuildingFileStatuses.Refining, { done: 3, current: 3 }],
  [BuildingFileStatuses.Refined, { done: 3, current: 3 }],
  [BuildingFileStatuses.Mapping, { done: 3, current: 3 }],
  [BuildingFileStatuses.Mapped, { done: 5, current: null }],
]);

const STAGE_IMPORTING = 1;
const STAGE_REFINING = 3;

/** Whether a status is a failure of the processing. */
export function isFailure(status: number): boolean {
  return status === BuildingFileStatuses.Error || status === BuildingFileStatuses.UnknownImportFile;
}

/**
 * The stage a processing failed in: the one under way in the last status seen before the failure; after Mapped (a
 * refinement asked for again) the refinement; with nothing seen before, the import, which reads the file.
 */
function failedStage(seen: readonly SeenStatus[]): number {
  const before = seen.filter((step) => !isFailure(step.status)).at(-1);
  if (before === undefined) return STAGE_IMPORTING;
  return PROGRESS.get(before.status)?.current ?? STAGE_REFINING;
}

/** The stages of a file in `status`, given what the app saw of its latest processing. */
export function timelineOf(seen: readonly SeenStatus[], status: number): TimelineStep[] {
  const times: (string | null)[] = TIMELINE_STAGES.map(() => null);
  for (const step of seen) {
    const stage = STAGE_OF.get(step.status);
    if (stage !== undefined) times[stage] ??= step.at;
  }
  let done = 0;
  let current: number | null = null;
  let failed: number | null = null;
  if (isFailure(status)) {
    failed = failedStage(seen);
    done = failed;
  } else {
    const progress = PROGRESS.get(status);
    done = progress?.done ?? 0;
    current = progress?.current ?? null;
  }
  return TIMELINE_STAGES.map((stage, index) => {
    let state: StageState = 'waiting';
    if (index === failed) state = 'failed';
    else if (index === current) state = 'current';
    else if (index < done) state = 'done';
    return { stage, state, at: times[index] ?? null };
  });
}
