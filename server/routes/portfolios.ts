import { passportLanguageFromAcceptLanguage } from '../passports/i18n';
import type { OperationHandlers } from './operation';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { availableDatabases } from '../services/accounts';
import { listBuildings } from '../services/buildings';
import { createPortfolioPassport } from '../services/portfolio-files';
import { setPortfolioLogo } from '../services/portfolio-logo';
import { createPortfolio, deletePortfolio, getPortfolio, getPortfolioRow, listPortfolios, replacePortfolio } from '../services/portfolios';
import { createSubjectToken, deleteSubjectToken, listRights, replaceRights, type RightsSubject } from '../services/rights';

/** A portfolio in scope as the subject of rights and tokens. */
async function portfolioSubject(ctx: ServerContext, principal: Principal, id: string): Promise<RightsSubject> {
  const portfolio = await getPortfolioRow(ctx, principal, id);
  return { kind: 'portfolio', id: portfolio.id, accountId: portfolio.accountId };
}

/** Portfolios: CRUD, databases, buildings, passport, logo, users and tokens. */
export const portfolioHandlers: Pick<
  OperationHandlers,
  | 'listPortfolios'
  | 'createPortfolio'
  | 'getPortfolio'
  | 'replacePortfolio'
  | 'deletePortfolio'
  | 'listPortfolioAvailableDatabases'
  | 'exportPortfolioPassport'
  | 'listPortfolioBuildings'
  | 'listPortfolioUsers'
  | 'replacePortfolioUsers'
  | 'setPortfolioLogo'
  | 'createPortfolioToken'
  | 'deletePortfolioToken'
> = {
  listPortfolios: async ({ ctx, principal }) => ({ status: 200, value: await listPortfolios(ctx, principal) }),
  createPortfolio: async ({ ctx, principal, body, prefix }) => {
    const portfolio = await createPortfolio(ctx, principal, body);
    return { status: 201, value: portfolio, location: `${prefix}/portfolios/${portfolio.id}` };
  },
  getPortfolio: async ({ ctx, principal, params }) => ({ status: 200, value: await getPortfolio(ctx, principal, params.id) }),
  replacePortfolio: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replacePortfolio(ctx, principal, params.id, body),
  }),
  deletePortfolio: async ({ ctx, principal, params }) => {
    await deletePortfolio(ctx, principal, params.id);
    return { status: 204, value: undefined };
  },
  listPortfolioAvailableDatabases: async ({ ctx, principal, params }) => {
    // Files of every portfolio of an account use the account's databases; the portfolio only has to be in scope.
    await getPortfolioRow(ctx, principal, params.id);
    return { status: 200, value: await availableDatabases(ctx, principal) };
  },
  exportPortfolioPassport: async ({ ctx, principal, params, body, headers, prefix }) => {
    const file = await createPortfolioPassport(ctx, principal, params.id, body.buildingIds ?? [], passportLanguageFromAcceptLanguage(headers['accept-language']));
    return { status: 202, value: file, location: `${prefix}/portfolios/${params.id}/files/${file.id}` };
  },
  listPortfolioBuildings: async ({ ctx, principal, params }) => {
    await getPortfolioRow(ctx, principal, params.id);
    return { status: 200, value: await listBuildings(ctx, principal, params.id) };
  },
  listPortfolioUsers: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listRights(ctx, await portfolioSubject(ctx, principal, params.id)),
  }),
  replacePortfolioUsers: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceRights(ctx, principal, await portfolioSubject(ctx, principal, params.id), body),
  }),
  setPortfolioLogo: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await setPortfolioLogo(ctx, principal, params.id, params.fileName, body),
  }),
  createPortfolioToken: async ({ ctx, principal, params, body, prefix }) => {
    const token = await createSubjectToken(ctx, principal, await portfolioSubject(ctx, principal, params.id), body);
    return { status: 201, value: token, location: `${prefix}/portfolios/${params.id}/tokens/${token.id}` };
  },
  deletePortfolioToken: async ({ ctx, principal, params }) => {
    await deleteSubjectToken(ctx, await portfolioSubject(ctx, principal, params.id), params.tokenId);
    return { status: 204, value: undefined };
  },
};
