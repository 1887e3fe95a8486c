/** The routes of the tag Token (decisions §5): API tokens of the account and of one building or portfolio. */
import { TokenRequest, TokenResponse } from '../schemas';
import type { RouteDefinition } from './definition';
import { empty, json, jsonBody, problems, resourceBodyErrors, resourceErrors } from './kit';
import { IdempotentHeaders, IdParams, SubjectTokenParams, TokenParams } from './parameters';

/** The same for a token of the account, of a portfolio and of a building. */
const tokenBody = jsonBody(TokenRequest, 'The token.');
const tokenCreated = json(TokenResponse, 'The token was created; its key is shown this once.');
const tokenDeleted = empty('The token was deleted; its key no longer works.');

export const tokenRoutes = [
  {
    operationId: 'createAccountToken',
    method: 'POST',
    path: '/accounts/current/tokens',
    tag: 'Token',
    summary: "Adds an API token for the key's whole account.",
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'account' } },
    headers: IdempotentHeaders,
    body: tokenBody,
    responses: { 201: tokenCreated, ...problems(400, 401, 403, 413, 415) },
  },
  {
    operationId: 'deleteAccountToken',
    method: 'DELETE',
    path: '/accounts/current/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes an account API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'account' } },
    params: TokenParams,
    responses: { 204: tokenDeleted, ...problems(...resourceErrors) },
  },
  {
    operationId: 'createPortfolioToken',
    method: 'POST',
    path: '/portfolios/:id/tokens',
    tag: 'Token',
    summary: 'Adds an API token for a portfolio.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: tokenBody,
    responses: { 201: tokenCreated, ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'deletePortfolioToken',
    method: 'DELETE',
    path: '/portfolios/:id/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes a portfolio API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'portfolio', portfolio: 'id' } },
    params: SubjectTokenParams,
    responses: { 204: tokenDeleted, ...problems(...resourceErrors) },
  },
  {
    operationId: 'createBuildingToken',
    method: 'POST',
    path: '/buildings/:id/tokens',
    tag: 'Token',
    summary: 'Adds an API token for a building.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: IdParams,
    headers: IdempotentHeaders,
    body: tokenBody,
    responses: { 201: tokenCreated, ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'deleteBuildingToken',
    method: 'DELETE',
    path: '/buildings/:id/tokens/:tokenId',
    tag: 'Token',
    summary: 'Deletes a building API token.',
    auth: 'apiKey',
    access: { level: 'administrator', scope: { kind: 'building', building: 'id' } },
    params: SubjectTokenParams,
    responses: { 204: tokenDeleted, ...problems(...resourceErrors) },
  },
] as const satisfies readonly RouteDefinition[];
