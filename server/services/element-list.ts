import { Readable } from 'node:stream';
import type { BuildingFileElementResponse } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { applyElementQuery, parseElementQuery, rowsAfter } from '../odata';
import { getBuildingFileRow } from './building-files';
import { toElementResponse } from './elements';

/** Rows fetched per query while streaming; the connection is free between chunks, so a slow reader blocks nobody. */
const chunkSize = 1000;

/**
 * The elements of a file as a JSON array stream, filtered, ordered, selected and paged by the OData options
 * (decisions §10). Without `$top` every row is sent, fetched in chunks so memory stays flat for any file size; the
 * chunks after the first page on by key (the rows after the last one sent, in the order asked for), so a chunk deep in
 * a large file costs what the first one does.
 */
export async function streamElements(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  query: Readonly<Record<string, unknown>>,
): Promise<Readable> {
  const parsed = parseElementQuery(query);
  await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const selected = parsed.select;
  const first = parsed.skip ?? 0;
  const end = parsed.top === undefined ? Number.POSITIVE_INFINITY : first + parsed.top;

  async function* chunks(): AsyncGenerator<string> {
    yield '[';
    let sent = first;
    let last: Readonly<Record<string, unknown>> | undefined;
    let separator = '';
    while (sent < end) {
      const limit = Math.min(chunkSize, end - sent);
      let base = ctx.db.selectFrom('elements').selectAll().where('buildingFileId', '=', fileId);
      if (last !== undefined) base = base.where(rowsAfter(parsed.orderBy, last));
      const page = { ...parsed, top: limit, skip: last === undefined ? first : undefined };
      const rows = await applyElementQuery(base, page, ctx.dialect.odata).builder.execute();
      let text = '';
      for (const row of rows) {
        const element = toElementResponse(row);
        const shaped: Partial<BuildingFileElementResponse> = {};
        for (const field of selected) (shaped as Record<string, unknown>)[field] = element[field];
        text += separator + JSON.stringify(shaped);
        separator = ',';
      }
      if (text !== '') yield text;
      if (rows.length < limit) break;
      sent += limit;
      last = rows.at(-1);
    }
    yield ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}
