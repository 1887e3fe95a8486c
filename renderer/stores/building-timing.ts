/** How often the buildings store asks the server while it follows work on it; tests give their own timing. */
import type { InjectionKey } from 'vue';
import { abortableSleep } from '../../shared/abortable-sleep';

/** How often the store asks the server while following work; tests give their own. */
export interface BuildingTiming {
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Between two reads of the status of the files the server is working on. */
  statusPollMs: number;
  /** Between two reads of a building being recalculated. */
  recalculationPollMs: number;
  /** Reads of a building being recalculated before the store stops following it (the next sync still brings the figures). */
  recalculationPolls: number;
}

/** File statuses every 3 s; a recalculation every 2 s, for 10 minutes. */
export const DEFAULT_BUILDING_TIMING: BuildingTiming = {
  sleep: abortableSleep,
  statusPollMs: 3_000,
  recalculationPollMs: 2_000,
  recalculationPolls: 300,
};

/** Where the app provides other timing (tests). */
export const BUILDING_TIMING_KEY: InjectionKey<BuildingTiming> = Symbol('building timing');
