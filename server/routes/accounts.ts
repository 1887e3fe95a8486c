import type { OperationHandlers } from './operation';
import type { Principal } from '../auth/principal';
import { forbidden } from '../errors';
import { availableDatabases, currentAccount } from '../services/accounts';
import { createSubjectToken, deleteSubjectToken, type RightsSubject } from '../services/rights';

/** The account as the subject of account tokens; only an account key may manage them. */
function accountSubject(principal: Principal): RightsSubject {
  if (principal.scopeKind !== 'account') throw forbidden('Only an account key can manage account tokens.');
  return { kind: 'account', id: principal.accountId, accountId: principal.accountId };
}

/** Accounts: the caller's account, its databases and its account-scope tokens. */
export const accountHandlers: Pick<
  OperationHandlers,
  'getCurrentAccount' | 'listAvailableDatabases' | 'createAccountToken' | 'deleteAccountToken'
> = {
  getCurrentAccount: async ({ ctx, principal }) => ({ status: 200, value: await currentAccount(ctx, principal) }),
  listAvailableDatabases: async ({ ctx, principal }) => ({ status: 200, value: await availableDatabases(ctx, principal) }),
  createAccountToken: async ({ ctx, principal, body, prefix }) => {
    const token = await createSubjectToken(ctx, principal, accountSubject(principal), body);
    return { status: 201, value: token, location: `${prefix}/accounts/current/tokens/${token.id}` };
  },
  deleteAccountToken: async ({ ctx, principal, params }) => {
    await deleteSubjectToken(ctx, accountSubject(principal), params.tokenId);
    return { status: 204, value: undefined };
  },
};
