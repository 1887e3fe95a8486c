import type { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { parseJsonColumn } from '../store/repositories/json';
import { getBuildingRow } from './buildings';
import { conflict } from '../errors';
import { checkedFileName } from './file-names';
import { checkedImageUpload } from '../images/checked-upload';

/** Largest accepted image. */
const maxImageBytes = 20 * 1024 ** 2;

/**
 * Stores an image of a building under its file name (replacing one of the same name); answers the stored name. A
 * building holds at most `maxBuildingImages` images of `maxBuildingImageBytes` in all (409 past the count, 413 past the
 * bytes), so no key can fill the blob store through one building. The image must be a PNG or JPEG by its bytes, of at
 * most `maxImagePixels` pixels by its header (400 otherwise, and nothing is kept).
 */
export async function addBuildingImage(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  rawFileName: string,
  content: Readable,
): Promise<string> {
  const fileName = checkedFileName(rawFileName, 'fileName');
  const building = await getBuildingRow(ctx, principal, buildingId);
  const others = parseJsonColumn<string[]>(building.images, 'buildings.images').filter((name) => name !== fileName);
  if (others.length >= ctx.config.maxBuildingImages) {
    content.resume();
    throw conflict(`A building holds at most ${ctx.config.maxBuildingImages} images; delete one first.`);
  }
  const otherBytes = (await Promise.all(others.map((name) => ctx.blobs.sizeOf(imageKey(buildingId, name))))).reduce<number>((sum, size) => sum + (size ?? 0), 0);
  const room = Math.min(maxImageBytes, ctx.config.maxBuildingImageBytes - otherBytes);
  // The blob store replaces atomically, so a failed upload leaves an earlier image of the same name intact.
  await ctx.blobs.put(imageKey(buildingId, fileName), checkedImageUpload(content, 'image', ctx.config.maxImagePixels), Math.max(0, room));
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

function imageKey(buildingId: string, fileName: string): string {
  return `buildings/${buildingId}/images/${fileName}`;
}
