import { randomUUID } from 'node:crypto';
import type { PortfolioRequest, PortfolioResponse } from '../../shared/api';
import type { Principal } from '../auth/principal';
import { portfolioOr404 } from '../auth/scope';
import type { ServerContext } from '../context';
import { conflict, forbidden } from '../errors';
import { portfolioScopeFilter } from '../auth/scope-filter';
import type { PortfoliosTable } from '../store/tables';

/** A portfolio row as stored. */
type PortfolioRow = PortfoliosTable;

/** The wire shape of a portfolio. */
function toPortfolioResponse(row: PortfolioRow): PortfolioResponse {
  return { id: row.id, name: row.name, logo: row.logo };
}

/** A portfolio in the caller's scope, else 404. */
export async function getPortfolioRow(ctx: ServerContext, principal: Principal, id: string): Promise<PortfolioRow> {
  const row = await ctx.db.selectFrom('portfolios').selectAll().where('id', '=', id).executeTakeFirst();
  return portfolioOr404(principal, id, row);
}

/** Portfolios in the caller's scope, in creation order. */
export async function listPortfolios(ctx: ServerContext, principal: Principal): Promise<PortfolioResponse[]> {
  const rows = await ctx.db
    .selectFrom('portfolios')
    .selectAll()
    .where(portfolioScopeFilter(principal))
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map(toPortfolioResponse);
}

/** The wire shape of one portfolio in scope. */
export async function getPortfolio(ctx: ServerContext, principal: Principal, id: string): Promise<PortfolioResponse> {
  return toPortfolioResponse(await getPortfolioRow(ctx, principal, id));
}

/** Creates a portfolio; only an account key may (spec §5.3). */
export async function createPortfolio(ctx: ServerContext, principal: Principal, request: PortfolioRequest): Promise<PortfolioResponse> {
  if (principal.scopeKind !== 'account') throw forbidden('Only an account key can create portfolios.');
  const now = ctx.now().toISOString();
  const row: PortfolioRow = {
    id: randomUUID(),
    accountId: principal.accountId,
    name: request.name,
    logo: null,
    logoBlobKey: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.insertInto('portfolios').values(row).execute();
  return toPortfolioResponse(row);
}

/** Replaces a portfolio's fields (its name; the logo has its own endpoint). */
export async function replacePortfolio(
  ctx: ServerContext,
  principal: Principal,
  id: string,
  request: PortfolioRequest,
): Promise<PortfolioResponse> {
  const row = await getPortfolioRow(ctx, principal, id);
  const updated = { ...row, name: request.name, updatedAt: ctx.now().toISOString() };
  await ctx.db.updateTable('portfolios').set({ name: updated.name, updatedAt: updated.updatedAt }).where('id', '=', id).execute();
  return toPortfolioResponse(updated);
}

/** Deletes an empty portfolio with its files; one that still holds buildings → 409 (decisions §3). */
export async function deletePortfolio(ctx: ServerContext, principal: Principal, id: string): Promise<void> {
  await getPortfolioRow(ctx, principal, id);
  await ctx.db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom('buildings')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('portfolioId', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(count) > 0) {
      throw conflict(`The portfolio still holds ${count} building(s); delete or move them first.`);
    }
    await trx
      .deleteFrom('jobs')
      .where('subjectId', 'in', trx.selectFrom('portfolio_files').select('id').where('portfolioId', '=', id))
      .execute();
    await trx.deleteFrom('user_rights').where('scopeKind', '=', 'portfolio').where('scopeId', '=', id).execute();
    await trx.deleteFrom('tokens').where('scopeKind', '=', 'portfolio').where('scopeId', '=', id).execute();
    await trx.deleteFrom('portfolios').where('id', '=', id).execute();
  });
  await ctx.blobs.deletePrefix(`portfolios/${id}`);
}
