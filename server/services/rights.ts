import type { TokenRequest, TokenResponse, UserRightRequest, UserRightResponse } from '../../shared/api';
import { PermissionLevel, UserType, enumValue } from '../../shared/api';
import { createToken } from '../auth/tokens';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { badRequest, forbidden, notFound } from '../errors';
import type { ScopeKind } from '../store/tables';
import { utcDateTime } from './utc-date-time';

/** What rights and tokens hang on: a portfolio, a building, or the caller's account. */
export interface RightsSubject {
  kind: ScopeKind;
  /** The portfolio or building id; the account id for the account. */
  id: string;
  accountId: string;
}

/** The users with a right on the subject, then its tokens (userType 1, `userId` = the token's id). */
export async function listRights(ctx: ServerContext, subject: RightsSubject): Promise<UserRightResponse[]> {
  const users =
    subject.kind === 'account'
      ? []
      : await ctx.db
          .selectFrom('user_rights')
          .innerJoin('users', 'users.id', 'user_rights.userId')
          .select(['users.id', 'users.name', 'user_rights.level'])
          .where('user_rights.scopeKind', '=', subject.kind)
          .where('user_rights.scopeId', '=', subject.id)
          .orderBy('users.name')
          .orderBy('users.id')
          .execute();
  const tokens = await ctx.db
    .selectFrom('tokens')
    .select(['id', 'name', 'level'])
    .where('accountId', '=', subject.accountId)
    .where('scopeKind', '=', subject.kind)
    .where((eb) => (subject.kind === 'account' ? eb('scopeId', 'is', null) : eb('scopeId', '=', subject.id)))
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return [
    ...users.map((user) => right(user.id, user.name, user.level, UserType.User)),
    ...tokens.map((token) => right(token.id, token.name, token.level, UserType.Token)),
  ];
}

/** A user right as answered. */
function right(userId: string, name: string, level: number, userType: UserType): UserRightResponse {
  return { userId, name, level: level as UserRightResponse['level'], userType, isInvite: false };
}

/**
 * Sets the level of each listed user or token; those not listed keep theirs; level 0 removes the right (a token with
 * level 0 is deleted). All or nothing. Answers the right of the last listed entry, the single object the spec shows.
 */
export async function replaceRights(
  ctx: ServerContext,
  principal: Principal,
  subject: RightsSubject,
  requests: UserRightRequest[],
): Promise<UserRightResponse> {
  if (requests.length === 0) throw badRequest('The list of user rights is empty.', [{ path: '', message: 'must not be empty' }]);
  let last: UserRightResponse | undefined;
  await ctx.db.transaction().execute(async (trx) => {
    for (const [index, request] of requests.entries()) {
      const level = enumValue(PermissionLevel, request.level);
      if (level === undefined) {
        throw badRequest(`[${index}].level is not a permission level.`, [{ path: `${index}.level`, message: 'unknown level' }]);
      }
      if (level > principal.level) throw forbidden(`A key of level ${principal.level} cannot grant level ${level}.`);
      const token = await trx
        .selectFrom('tokens')
        .select(['id', 'name'])
        .where('id', '=', request.userId)
        .where('accountId', '=', subject.accountId)
        .where('scopeKind', '=', subject.kind)
        .where((eb) => (subject.kind === 'account' ? eb('scopeId', 'is', null) : eb('scopeId', '=', subject.id)))
        .executeTakeFirst();
      if (token !== undefined) {
        if (level === PermissionLevel.None) await trx.deleteFrom('tokens').where('id', '=', token.id).execute();
        else await trx.updateTable('tokens').set({ level }).where('id', '=', token.id).execute();
        last = right(token.id, token.name, level, UserType.Token);
        continue;
      }
      const user = await trx
        .selectFrom('users')
        .select(['id', 'name'])
        .where('id', '=', request.userId)
        .where('accountId', '=', subject.accountId)
        .executeTakeFirst();
      if (user === undefined || subject.kind === 'account') {
        throw badRequest(`[${index}].userId: no user or token '${request.userId}' of this account.`, [
          { path: `${index}.userId`, message: 'unknown user or token' },
        ]);
      }
      const rightScope = subject.kind;
      await trx
        .deleteFrom('user_rights')
        .where('scopeKind', '=', rightScope)
        .where('scopeId', '=', subject.id)
        .where('userId', '=', user.id)
        .execute();
      if (level !== PermissionLevel.None) {
        await trx.insertInto('user_rights').values({ scopeKind: rightScope, scopeId: subject.id, userId: user.id, level }).execute();
      }
      last = right(user.id, user.name, level, UserType.User);
    }
  });
  return last as UserRightResponse;
}

/** Creates a token on the subject (decisions §5 extension); its level cannot exceed the caller's. */
export async function createSubjectToken(
  ctx: ServerContext,
  principal: Principal,
  subject: RightsSubject,
  request: TokenRequest,
): Promise<TokenResponse> {
  const level = enumValue(PermissionLevel, request.level);
  if (level === undefined || level === PermissionLevel.None) {
    throw badRequest('level must be 50, 70 or 90.', [{ path: 'level', message: 'must be 50, 70 or 90' }]);
  }
  if (level > principal.level) throw forbidden(`A key of level ${principal.level} cannot create a token of level ${level}.`);
  let expiresAt: string | null = null;
  if (request.expirationDateTime !== undefined && request.expirationDateTime !== null) {
    expiresAt = utcDateTime(request.expirationDateTime, 'expirationDateTime');
    if (Date.parse(expiresAt) <= ctx.now().getTime()) {
      throw badRequest('expirationDateTime lies in the past.', [{ path: 'expirationDateTime', message: 'must be in the future' }]);
    }
  }
  const created = await createToken(ctx.db, {
    accountId: subject.accountId,
    name: request.name,
    scopeKind: subject.kind,
    scopeId: subject.kind === 'account' ? null : subject.id,
    level,
    expiresAt,
  });
  return { ...created, level };
}

/** Deletes a token of the subject; 404 when the subject has no such token. */
export async function deleteSubjectToken(ctx: ServerContext, subject: RightsSubject, tokenId: string): Promise<void> {
  const result = await ctx.db
    .deleteFrom('tokens')
    .where('id', '=', tokenId)
    .where('accountId', '=', subject.accountId)
    .where('scopeKind', '=', subject.kind)
    .where((eb) => (subject.kind === 'account' ? eb('scopeId', 'is', null) : eb('scopeId', '=', subject.id)))
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Token', tokenId);
}
