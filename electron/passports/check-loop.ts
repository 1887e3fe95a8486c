/**
 * When targets are checked: every `pollIntervalMs`, and at once when asked. Checks never overlap; a call during a
 * check is covered by one more check after it. The targets of one connection are checked in turn, the connections side
 * by side, so a server that hangs delays only its own. Work for a target stops when the target is removed, all work
 * when the loop closes.
 */
import { messageOf, type PassportContext } from './passport-context';
import type { StoredTarget } from './passport-model';
import { checkTarget } from './check-target';

/** The checks of all targets, now and every `pollIntervalMs`. */
export class CheckLoop {
  readonly #context: PassportContext;
  readonly #pollIntervalMs: number;
  readonly #closing = new AbortController();
  readonly #targetAborts = new Map<string, AbortController>();
  /** Buildings told about by `sourceFileMapped` since the last check began. */
  readonly #signalled = new Set<string>();
  #running: Promise<void> | undefined;
  #pending = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(context: PassportContext, pollIntervalMs: number) {
    this.#context = context;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** Whether the loop has been closed. */
  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /** Runs checks until none is pending; a call during a check gets a promise that also covers the next one. */
  checkSoon(): Promise<void> {
    this.#pending = true;
    this.#running ??= (async () => {
      try {
        while (this.#pending && !this.closed) {
          this.#pending = false;
          clearTimeout(this.#timer);
          await this.#checkAll();
        }
      } finally {
        this.#running = undefined;
        if (!this.closed) this.#timer = setTimeout(() => void this.checkSoon(), this.#pollIntervalMs);
      }
    })();
    return this.#running;
  }

  /** Tells the next check that a source file of the building reached Mapped. */
  signalMapped(buildingId: string): void {
    this.#signalled.add(buildingId);
  }

  /** Stops the work under way for a target that is being removed. */
  stopTarget(targetId: string): void {
    this.#targetAborts.get(targetId)?.abort();
    this.#targetAborts.delete(targetId);
  }

  /** Stops polling and the work under way; resolves when the check under way has ended. */
  async close(): Promise<void> {
    this.#closing.abort();
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** Aborts when the loop closes or the target is removed. */
  #targetSignal(targetId: string): AbortSignal {
    let controller = this.#targetAborts.get(targetId);
    if (controller === undefined) {
      controller = new AbortController();
      this.#targetAborts.set(targetId, controller);
    }
    return AbortSignal.any([this.#closing.signal, controller.signal]);
  }

  async #checkAll(): Promise<void> {
    const { records, log } = this.#context;
    const signals = new Set(this.#signalled);
    this.#signalled.clear();
    const byConnection = new Map<string, StoredTarget[]>();
    for (const target of records.storedTargets()) {
      byConnection.set(target.connectionId, [...(byConnection.get(target.connectionId) ?? []), target]);
    }
    await Promise.all(
      [...byConnection.values()].map(async (targets) => {
        for (const target of targets) {
          if (this.closed) return;
          if (!records.isCurrent(target)) continue;
          try {
            await checkTarget(this.#context, target, signals, this.#targetSignal(target.id));
          } catch (error) {
            log(`Checking the passports of ${target.subject.kind} ${target.subject.id} failed.`, error);
            if (records.isCurrent(target)) records.setTargetError(target, messageOf(error));
          }
        }
      }),
    );
  }
}
