/**
 * The users and API tokens with a right on a building or a portfolio. Rights are not cached: every action asks the
 * server now through the Bridge, and comes back as an `ApiFailure` when it cannot (offline, a key without the
 * Administrator level, a building or portfolio created here and not yet synced).
 */
import { defineStore } from 'pinia';
import { assertNever, type PermissionLevel } from '../../shared/api/enums';
import type { TokenRequest, TokenResponse, UserRightResponse } from '../../shared/api/schemas';
import { callApi, callApiList } from '../api/call-api';
import { failed, mapOutcome, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import { whenOnline } from './when-online';
import { useSyncStore } from './sync';

/** What rights are given on. */
export type AccessSubject = 'building' | 'portfolio';

/** The API's operations on the rights of a subject. */
interface AccessOperations {
  list: 'listBuildingUsers' | 'listPortfolioUsers';
  replace: 'replaceBuildingUsers' | 'replacePortfolioUsers';
  createToken: 'createBuildingToken' | 'createPortfolioToken';
  deleteToken: 'deleteBuildingToken' | 'deletePortfolioToken';
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
  function listUsers(subject: AccessSubject, id: string): Promise<ApiOutcome<UserRightResponse[]>> {
    return whenOnline(sync, id, async (connectionId) =>
      callApiList(bridgeApiPort(bridge, connectionId), operationsOf(subject).list, { params: { id } }),
    );
  }

  /** Sets the level of a user or token on the subject; level 0 takes the right away. */
  function setUserLevel(subject: AccessSubject, id: string, userId: string, level: PermissionLevel): Promise<ApiOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) =>
      mapOutcome(await callApi(bridgeApiPort(bridge, connectionId), operationsOf(subject).replace, { params: { id }, body: [{ userId, level }] }), () => undefined),
    );
  }

  /** Adds an API token for the subject; the answer holds its key, shown this once. */
  function createToken(subject: AccessSubject, id: string, request: TokenRequest): Promise<ApiOutcome<TokenResponse>> {
    return whenOnline(sync, id, async (connectionId) => {
      const operationId = operationsOf(subject).createToken;
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), operationId, { params: { id }, body: request });
      if (outcome.ok && !(isRecord(outcome.value) && typeof outcome.value['key'] === 'string')) {
        return failed({ kind: 'invalid-answer', message: `${operationId} answered no key.` });
      }
      return outcome;
    });
  }

  /** Deletes an API token of the subject; its key stops working. */
  function deleteToken(subject: AccessSubject, id: string, tokenId: string): Promise<ApiOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) =>
      mapOutcome(await callApi(bridgeApiPort(bridge, connectionId), operationsOf(subject).deleteToken, { params: { id, tokenId } }), () => undefined),
    );
  }

  return { listUsers, setUserLevel, createToken, deleteToken };
});
