/**
 * The pull of one file's elements: in pages of `$orderby=id&$top&$skip` from the file's cursor, the next pages asked
 * for while one is written, each page written with the cursor past it.
 */
import type { BuildingFileElementResponse } from '../../shared/api/schemas';
import { beginElementPull, finishElementPull, writeElementPage, type ElementsDue } from '../db/apply-pull';
import { elementCursorKey, type ElementCursorRow, type PullProgress } from '../db/schema';
import { readElementCursor } from '../db/sync-state';
import { callApi } from '../api/call-api';
import { classifyFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import { invalid, listOf } from './answers';
import { elementPages } from './element-pages';
import { isFileStatus } from './pull-file-status';
import { fail, progress, stopIfAborted, type PullRun } from './pull-run';

/** The cursor to go on from: the stored one if it belongs to this stamp and page size, else a new one at page 0. */
async function cursorFor(run: PullRun, due: ElementsDue): Promise<ElementCursorRow> {
  const stored = await readElementCursor(run.db, due.fileId);
  if (stored !== undefined && stored.stamp === due.stamp && stored.pageSize === run.pageSize) return stored;
  stopIfAborted(run, `getBuildingFileStatus:${due.fileId}`);
  // The status's element count only feeds the progress display, so a refusal of it is no reason to skip the file.
  const outcome = await callApi(run.api, 'getBuildingFileStatus', { params: { buildingId: due.buildingId, fileId: due.fileId } });
  if (!outcome.ok && classifyFailure(outcome.failure) !== 'rejected') fail(run, `getBuildingFileStatus:${due.fileId}`, outcome.failure);
  const status = outcome.ok && isFileStatus(outcome.value) ? outcome.value : null;
  return beginElementPull(
    run.db,
    {
      key: elementCursorKey(due.fileId),
      kind: 'element-cursor',
      buildingId: due.buildingId,
      fileId: due.fileId,
      stamp: due.stamp,
      pageSize: run.pageSize,
      nextSkip: 0,
      pagesDone: 0,
      expectedCount: status?.elementCount ?? null,
      startedAt: run.at(),
    },
    status,
  );
}

function elementsProgress(cursor: ElementCursorRow): PullProgress {
  // Servers do not all count elements made through the element endpoints: a count of 0, or one the pages already
  // passed, says nothing about the total.
  const { expectedCount } = cursor;
  const known = expectedCount !== null && expectedCount > 0 && cursor.nextSkip <= expectedCount;
  const totalPages = known ? Math.max(cursor.pagesDone, Math.ceil(expectedCount / cursor.pageSize)) : null;
  return { phase: 'elements', buildingId: cursor.buildingId, fileId: cursor.fileId, pagesDone: cursor.pagesDone, totalPages };
}

/** The answer as a page of elements, or undefined after recording why there is none (`fail`). */
function pageOf(run: PullRun, where: string, outcome: ApiOutcome<unknown>): BuildingFileElementResponse[] | undefined {
  if (!outcome.ok) {
    fail(run, where, outcome.failure);
    return undefined;
  }
  const page = listOf<BuildingFileElementResponse>(outcome.value, 'id');
  if (page === undefined) fail(run, where, invalid(where, 'a list of objects with a string id'));
  return page;
}

/**
 * Pulls a file's elements page by page from its cursor, then ends the file's pull (`finishElementPull`). The next
 * pages are asked for while one is written (`element-pages.ts`); pages are written one at a time and in order, each
 * with the cursor past it, so wherever the pull stops the cursor points at the first page not written. Answers that
 * arrive for pages beyond a stop are dropped.
 */
export async function pullElements(run: PullRun, due: ElementsDue): Promise<void> {
  let cursor = await cursorFor(run, due);
  await progress(run, elementsProgress(cursor));
  const where = `listElements:${due.fileId}`;
  const { expectedCount } = cursor;
  const pages = elementPages(
    run.api,
    // A stable order is what makes `$skip` meaningful across requests.
    (skip) => ({ operationId: 'listElements', params: { buildingId: due.buildingId, fileId: due.fileId }, query: { $orderby: 'id', $top: run.pageSize, $skip: skip } }),
    {
      firstSkip: cursor.nextSkip,
      pageSize: run.pageSize,
      // A known count spares the requests past the file's end; without one, the short page ends the file.
      mayAsk: (skip) => run.signal?.aborted !== true && (expectedCount === null || expectedCount <= 0 || skip < expectedCount),
    },
  );
  try {
    for (;;) {
      stopIfAborted(run, where);
      const outcome = await pages.next();
      // A stop while the page was on its way: it is not written, so the cursor stays where the cache is.
      stopIfAborted(run, where);
      const page = pageOf(run, where, outcome);
      if (page === undefined) return;
      // A short page is the last; a long one means the server ignored `$top` and answered the rest at once.
      const last = page.length !== run.pageSize;
      cursor = { ...cursor, nextSkip: cursor.nextSkip + page.length, pagesDone: cursor.pagesDone + 1 };
      const current = elementsProgress(cursor);
      // The page, its cursor and the progress are written in one transaction; the progress is not written twice.
      await writeElementPage(run.db, cursor, page, current);
      await progress(run, current, false);
      if (last) break;
    }
  } finally {
    pages.close();
  }
  await finishElementPull(run.db, cursor);
}
