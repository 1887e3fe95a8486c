/**
 * The users and API tokens with a right on a building or a portfolio. Rights are not cached: every action asks the
 * server now through the Bridge, and comes back as an `OnlineRefusal` when it cannot (offline, a key without the
 * Administrator level, a building or portfolio created here and not yet synced).
 */
import { defineStore } from 'pinia';
import { assertNever, type PermissionLevel } from '../../shared/api/enums';
import type { TokenRequest, TokenResponse, UserRightResponse } from '../../shared/api/schemas';
import type { OperationId } from '../../shared/api/routes';
import { callApi, callApiList } from '../api-call';
import { useBridge } from '../bridge';
import { outcomeOf, whenOnline } from './online-outcome';
import type { OnlineOutcome } from './online-outcome';
import { useSyncStore } from './sync';

/** What rights are given on. */
export type AccessSubject = 'building' | 'portfolio';

/** The API's operations on the rights of a subject. */
interface AccessOperations {
  list: OperationId;
  replace: OperationId;
  createToken: OperationId;
  deleteToken: OperationId;
}

function operationsOf(subject: AccessSubject): AccessOperations {
  switch (subject) {
    case 'building':
      return { list: 'listBuildingUsers', replace: 'replaceBuildingUsers', createToken: 'createBuildingToken', deleteToken: 'deleteBuildingToken' };
    case 'portfolio':
      return { list: 'listPortfolioUsers', replace: 'replacePortfolioUsers', createToken: 'createPortfolioToken', deleteToken: 'deletePortfolioToken' };
    default:
      return assertNever(subject, 'access subject');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Users and tokens of buildings and portfolios, online. */
export const useAccessStore = defineStore('access', () => {
  const sync = useSyncStore();
  const bridge = useBridge();

  /** The users and tokens with a right on the subject. */
  function listUsers(subject: AccessSubject, id: string): Promise<OnlineOutcome<UserRightResponse[]>> {
    return whenOnline(sync, id, async (connectionId) =>
      outcomeOf(await callApiList<UserRightResponse>(bridge, { connectionId, operationId: operationsOf(subject).list, params: { id } }), (list) => list),
    );
  }

  /** Sets the level of a user or token on the subject; level 0 takes the right away. */
  function setUserLevel(subject: AccessSubject, id: string, userId: string, level: PermissionLevel): Promise<OnlineOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) =>
      outcomeOf(
        await callApi(bridge, { connectionId, operationId: operationsOf(subject).replace, params: { id }, body: [{ userId, level }] }),
        () => undefined,
      ),
    );
  }

  /** Adds an API token for the subject; the answer holds its key, shown this once. */
  function createToken(subject: AccessSubject, id: string, request: TokenRequest): Promise<OnlineOutcome<TokenResponse>> {
    return whenOnline(sync, id, async (connectionId) => {
      const operationId = operationsOf(subject).createToken;
      const outcome = await callApi(bridge, { connectionId, operationId, params: { id }, body: request });
      if (outcome.ok && !(isRecord(outcome.value) && typeof outcome.value['key'] === 'string')) {
        return { ok: false, refusal: { kind: 'failed', failure: { kind: 'host', message: `${operationId} answered no key.` } } };
      }
      return outcomeOf(outcome, (value) => value as TokenResponse);
    });
  }

  /** Deletes an API token of the subject; its key stops working. */
  function deleteToken(subject: AccessSubject, id: string, tokenId: string): Promise<OnlineOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) =>
      outcomeOf(await callApi(bridge, { connectionId, operationId: operationsOf(subject).deleteToken, params: { id, tokenId } }), () => undefined),
    );
  }

  return { listUsers, setUserLevel, createToken, deleteToken };
});
