/**
 * A call's attempts in one slot of the client's queue: the slot is kept through the backoff waits, so a struggling
 * server never sees more than `concurrency` calls of one client, and retries do not let the calls behind them overtake.
 */
import { noAnswerMessage, type CallNetworkFailure } from '../../shared/api/client';
import type { RouteDefinition } from '../../shared/api/routes';
import { networkFailure } from './attempt-failure';
import type { AttemptReport, ClientContext } from './client-context';
import { nextRetryDelayMs, type RetryPolicy } from './retry-policy';

/** How a call may be repeated. */
export interface RunRules {
  method: RouteDefinition['method'];
  repeatable: boolean;
  attempts: number;
}

/** The failure of a call refused because the client was closed. */
export function closedFailure(label: string): CallNetworkFailure {
  return networkFailure('aborted', `${label}: the client was closed.`);
}

/** Runs `attempt` in a queue slot until it succeeds, fails for good, or the policy's attempts are used. */
export async function runQueued<T>(
  context: ClientContext,
  label: string,
  signal: AbortSignal | undefined,
  rules: RunRules,
  attempt: () => Promise<AttemptReport<T>>,
): Promise<T | CallNetworkFailure> {
  const { closing } = context;
  const release = await context.queue.acquire(signal);
  if (release === undefined) {
    return signal?.aborted === true ? networkFailure('aborted', noAnswerMessage('aborted')) : closedFailure(label);
  }
  const retryPolicy: RetryPolicy = { ...context.policy, attempts: rules.attempts };
  const waitSignal = signal === undefined ? closing : AbortSignal.any([signal, closing]);
  try {
    for (let made = 1; ; made += 1) {
      const report = await attempt();
      if (report.outcome.kind === 'ok') context.onSuccess?.();
      if (closing.aborted) return report.result;
      const delay = nextRetryDelayMs(
        report.outcome,
        { method: rules.method, repeatable: rules.repeatable, bodyReplayable: report.bodyReplayable },
        made,
        retryPolicy,
        context.random,
        Date.now(),
      );
      if (delay === undefined) return report.result;
      try {
        await context.sleep(delay, waitSignal);
      } catch {
        // A sleep that rejects on abort ends the wait like one that resolves early; the checks below decide.
      }
      if (signal?.aborted === true) return networkFailure('aborted', noAnswerMessage('aborted'));
      if (closing.aborted) return report.result;
    }
  } finally {
    release();
  }
}
