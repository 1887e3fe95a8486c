/**
 * A file's element pages asked for ahead (design: docs/sync.md, "Pull"): while the pull writes one page, the next
 * ones are already on their way, so the server never waits for the cache. Pages are handed out strictly in order; an
 * answer is only ever looked at when its turn comes, so a failure of a page asked for ahead counts only once every
 * page before it was written. Every page but the last is full, so the skip of each page is known before the answer of
 * the one before it; more pages are asked for only once a full page arrived, so a file of one page costs one request.
 */
import { callOperation, type OperationCall } from '../api/call-api';
import type { ApiOutcome } from '../api/outcome';
import type { ApiPort } from '../api/port';

/** Pages requested beyond the one being written: enough that the server always has the next one to serve. */
export const PAGES_AHEAD = 2;

/** The pages of one file, in order from `firstSkip`. */
export interface ElementPages {
  /** Answers the next page's outcome (rejects as the port did). */
  next(): Promise<ApiOutcome<unknown>>;
  /** Asks for nothing more; answers still on their way are dropped unread. */
  close(): void;
}

function isFullPage(outcome: ApiOutcome<unknown>, pageSize: number): boolean {
  return outcome.ok && Array.isArray(outcome.value) && outcome.value.length === pageSize;
}

/**
 * Asks for the pages of `callAt(skip)` from `firstSkip` on, `pageSize` apart. `mayAsk` is consulted before each
 * request asked ahead (the pull's stop signal, the file's element count); the page `next` answers is asked for in any
 * case, since the pull checks its signal before taking a page.
 */
export function elementPages(
  api: ApiPort,
  callAt: (skip: number) => OperationCall,
  options: { firstSkip: number; pageSize: number; mayAsk: (skip: number) => boolean },
): ElementPages {
  const { pageSize, mayAsk } = options;
  const queue: Promise<ApiOutcome<unknown>>[] = [];
  let nextSkip = options.firstSkip;
  let closed = false;

  const askAhead = (): void => {
    while (!closed && queue.length < PAGES_AHEAD && mayAsk(nextSkip)) ask();
  };
  const ask = (): void => {
    const answer = callOperation(api, callAt(nextSkip));
    nextSkip += pageSize;
    queue.push(answer);
    answer.then(
      (outcome) => {
        if (isFullPage(outcome, pageSize)) askAhead();
      },
      // An answer dropped by `close` is never awaited: its rejection is nobody's to handle.
      () => undefined,
    );
  };

  return {
    next() {
      if (queue.length === 0) ask();
      const answer = queue.shift() as Promise<ApiOutcome<unknown>>;
      // The queue may have room again, and the answers that could fill it may all have arrived already.
      void answer.then((outcome) => {
        if (isFullPage(outcome, pageSize)) askAhead();
      }, () => undefined);
      return answer;
    },
    close() {
      closed = true;
      queue.length = 0;
    },
  };
}
