/** The routes of the tag Accounts: the key's own account and the element databases it may read. */
import { Type } from 'typebox';
import { AccountResponse } from '../schemas';
import type { RouteDefinition } from './definition';
import { json, keyErrors, problems } from './kit';

export const accountRoutes = [
  {
    operationId: 'getCurrentAccount',
    method: 'GET',
    path: '/accounts/current',
    tag: 'Accounts',
    summary: 'Gets the current account for the token.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(AccountResponse, 'The account of the key.'), ...problems(...keyErrors) },
  },
  {
    operationId: 'listAvailableDatabases',
    method: 'GET',
    path: '/accounts/availabledatabases',
    tag: 'Accounts',
    summary: "Gets the available element databases for the token's account.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(AccountResponse), 'The available element databases.'), ...problems(...keyErrors) },
  },
] as const satisfies readonly RouteDefinition[];
