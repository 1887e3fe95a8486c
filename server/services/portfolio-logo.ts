import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { notFound } from '../errors';
import { checkedFileName } from './file-names';
import { storeThenSwitch } from './blob-switch';
import { getPortfolioRow } from './portfolios';
import { checkedImageUpload } from '../images/checked-upload';

/** Largest accepted logo: a logo is a small image, so a larger body is a mistake rather than a logo. */
const maxLogoBytes = 10 * 1024 ** 2;

/**
 * Sets a portfolio's logo under a fresh blob key and removes the previous logo's content. Answers the stored file name,
 * which `logo` then shows. The logo must be a PNG or JPEG by its bytes, of at most `maxImagePixels` pixels by its
 * header (400 otherwise, an empty one too, and the previous logo stays).
 */
export async function setPortfolioLogo(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  rawFileName: string,
  content: Readable,
): Promise<string> {
  const fileName = checkedFileName(rawFileName, 'fileName');
  await getPortfolioRow(ctx, principal, portfolioId);
  const blobKey = `portfolios/${portfolioId}/logo/${randomUUID()}`;
  const checked = checkedImageUpload(content, 'logo', ctx.config.maxImagePixels);
  await storeThenSwitch(ctx, blobKey, checked, Math.min(maxLogoBytes, ctx.config.maxUploadBytes), async () => {
    // The previous key is read in the same transaction, so of two concurrent logos the loser's blob is the one removed.
    return ctx.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('portfolios').select('logoBlobKey').where('id', '=', portfolioId).executeTakeFirst();
      if (current === undefined) throw notFound('Portfolio', portfolioId);
      await trx
        .updateTable('portfolios')
        .set({ logo: fileName, logoBlobKey: blobKey, updatedAt: ctx.now().toISOString() })
        .where('id', '=', portfolioId)
        .execute();
      return current.logoBlobKey;
    });
  });
  return fileName;
}
