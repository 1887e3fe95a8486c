import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { parseJsonColumn } from '../store/repositories/json';
import { getBuildingRow } from './buildings';
import { checkedFileName } from './file-names';

/** Largest accepted image. */
const maxImageBytes = 20 * 1024 ** 2;

/** Stores an image of a building under its file name (replacing one of the same name); answers the stored name. */
export async function addBuildingImage(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  rawFileName: string,
  content: Readable,
): Promise<string> {
  const fileName = checkedFileName(rawFileName, 'fileName');
  await getBuildingRow(ctx, principal, buildingId);
  // The blob store replaces atomically, so a failed upload leaves an earlier image of the same name intact.
  await ctx.blobs.put(`buildings/${buildingId}/images/${fileName}`, content, maxImageBytes);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('buildings').select('images').where('id', '=', buildingId).executeTakeFirstOrThrow();
    const images = parseJsonColumn<string[]>(row.images, 'buildings.images');
    if (!images.includes(fileName)) images.push(fileName);
    await trx
      .updateTable('buildings')
      .set({ images: JSON.stringify(images), updatedAt: ctx.now().toISOString() })
      .where('id', '=', buildingId)
      .execute();
  });
  return fileName;
}
