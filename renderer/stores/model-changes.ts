/**
 * What a new version of a file's source changed after users edited its elements (an extension of this project's
 * server, `getBuildingFileModelChanges`), asked for online and kept for the session, and its resolution in one step
 * (`resolveBuildingFileModelChanges`). A server without the extension refuses the route or answers something else:
 * that is an answer too, `unsupported`, so the screen says this server does not tell. A resolution is followed by a
 * sync: the server moves the file's `lastModifiedDate` when elements took the model's values, so their new values and
 * mappings come into the cache.
 */
import { defineStore } from 'pinia';
import { reactive, watch } from 'vue';
import { Value } from 'typebox/value';
import { BuildingFileModelChanges, type ModelChangeResolutions } from '../../shared/api/schemas';
import { callApi } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import { failed, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** What the server said about a file's model changes: the changes, that it does not tell, or why it could not be asked. */
export type ModelChangesAnswer =
  | { state: 'loading' }
  | { state: 'changes'; changes: BuildingFileModelChanges }
  | { state: 'unsupported' }
  | { state: 'refused'; failure: ApiFailure };

/** Statuses of a server that does not know the route. */
const NO_SUCH_ROUTE = new Set([404, 405, 501]);

/** The model changes of the active connection's files, by file id. */
export const useModelChangesStore = defineStore('modelChanges', () => {
  const bridge = useBridge();
  const sync = useSyncStore();
  const answers = reactive(new Map<string, ModelChangesAnswer>());

  /** The last answer about a file's model changes this session; undefined before it was asked for. */
  function answerOf(fileId: string): ModelChangesAnswer | undefined {
    return answers.get(fileId);
  }

  /** Asks the server for a file's model changes now; the answer (or why there is none) is kept for `answerOf`. */
  async function fetchChanges(buildingId: string, fileId: string): Promise<void> {
    const asked = sync.connectionId;
    if (answers.get(fileId)?.state !== 'changes') answers.set(fileId, { state: 'loading' });
    const outcome = await whenOnline(sync, fileId, async (connectionId) =>
      callApi(bridgeApiPort(bridge, connectionId), 'getBuildingFileModelChanges', { params: { buildingId, fileId } }),
    );
    // The connection may have been switched while the answer came.
    if (sync.connectionId !== asked) return;
    if (outcome.ok) {
      answers.set(fileId, Value.Check(BuildingFileModelChanges, outcome.value) ? { state: 'changes', changes: outcome.value } : { state: 'unsupported' });
    } else if (outcome.failure.kind === 'problem' && NO_SUCH_ROUTE.has(outcome.failure.status)) {
      answers.set(fileId, { state: 'unsupported' });
    } else if (answers.get(fileId)?.state !== 'changes') {
      // Changes read before stay: they are what the user last saw of the server.
      answers.set(fileId, { state: 'refused', failure: outcome.failure });
    }
  }

  /**
   * Resolves changes in one step: the user's value kept, or the model's taken. The server answers the changes left,
   * which replace those shown; a sync then brings the elements' new values.
   */
  async function resolve(buildingId: string, fileId: string, resolutions: ModelChangeResolutions): Promise<ApiOutcome<BuildingFileModelChanges>> {
    const outcome = await whenOnline(sync, fileId, async (connectionId): Promise<ApiOutcome<BuildingFileModelChanges>> => {
      const answer = await callApi(bridgeApiPort(bridge, connectionId), 'resolveBuildingFileModelChanges', { params: { buildingId, fileId }, body: resolutions });
      if (!answer.ok) return answer;
      if (Value.Check(BuildingFileModelChanges, answer.value)) return { ...answer, value: answer.value };
      return failed({ kind: 'invalid-answer', message: 'The answer of resolveBuildingFileModelChanges is not the changes left.' });
    });
    if (outcome.ok) {
      answers.set(fileId, { state: 'changes', changes: outcome.value });
      void sync.syncNow();
    }
    return outcome;
  }

  watch(
    () => sync.connectionId,
    () => answers.clear(),
  );

  return { answerOf, fetchChanges, resolve };
});
