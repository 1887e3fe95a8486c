/**
 * The import reports of building files (an extension of this project's server, `getBuildingFileImportReport`), asked
 * for online and kept for the session: the cache has no place for them, and they change with every refinement. A
 * server without the extension (the platform, an older server) refuses the route or answers something else: that is
 * an answer too, `no-report`, so the screen says this server gives none and offers what the cache can tell instead.
 */
import { defineStore } from 'pinia';
import { reactive, watch } from 'vue';
import { Value } from 'typebox/value';
import { BuildingFileImportReport } from '../../shared/api/schemas';
import { callApi } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** What the server said about a file's report: the report, that it gives none, or why it could not be asked. */
export type ReportAnswer =
  | { state: 'loading' }
  | { state: 'report'; report: BuildingFileImportReport; at: string }
  | { state: 'no-report' }
  | { state: 'refused'; failure: ApiFailure };

/** Statuses of a server that does not know the route. */
const NO_SUCH_ROUTE = new Set([404, 405, 501]);

/** The import reports of the active connection's files, by file id. */
export const useImportReportsStore = defineStore('importReports', () => {
  const bridge = useBridge();
  const sync = useSyncStore();
  const answers = reactive(new Map<string, ReportAnswer>());

  /** The last answer about a file's report this session; undefined before it was asked for. */
  function answerOf(fileId: string): ReportAnswer | undefined {
    return answers.get(fileId);
  }

  /** Asks the server for a file's report now; the answer (or why there is none) is kept for `answerOf`. */
  async function fetchReport(buildingId: string, fileId: string): Promise<void> {
    const asked = sync.connectionId;
    if (answers.get(fileId)?.state !== 'report') answers.set(fileId, { state: 'loading' });
    const outcome = await whenOnline(sync, fileId, async (connectionId) =>
      callApi(bridgeApiPort(bridge, connectionId), 'getBuildingFileImportReport', { params: { buildingId, fileId } }),
    );
    // The connection may have been switched while the answer came.
    if (sync.connectionId !== asked) return;
    if (outcome.ok) {
      answers.set(
        fileId,
        Value.Check(BuildingFileImportReport, outcome.value)
          ? { state: 'report', report: outcome.value, at: new Date().toISOString() }
          : { state: 'no-report' },
      );
    } else if (outcome.failure.kind === 'problem' && NO_SUCH_ROUTE.has(outcome.failure.status)) {
      answers.set(fileId, { state: 'no-report' });
    } else if (answers.get(fileId)?.state !== 'report') {
      // A report read before stays, with its time: it is what the user last saw of the server.
      answers.set(fileId, { state: 'refused', failure: outcome.failure });
    }
  }

  watch(
    () => sync.connectionId,
    () => answers.clear(),
  );

  return { answerOf, fetchReport };
});
