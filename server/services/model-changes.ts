/**
 * What a new version of a file's source changed after a user's edits (an extension, decisions §3): the fields the model
 * changed after the user set them, the edited elements it no longer has, and the resolution of the changes in one step.
 */
import { sql, type Kysely } from 'kysely';
import {
  BuildingFileStatuses,
  USER_FIELDS,
  type BuildingFileModelChanges,
  type ModelChangeResolutions,
  type ProblemFieldError,
} from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { badRequest, conflict } from '../errors';
import { fileElementsForCalc } from '../jobs/handlers/calc-inputs';
import { markFileMapped } from '../jobs/handlers/file-mapped';
import { FileRefinement } from '../refine/refine-file';
import type { DatabaseSchema } from '../store/tables';
import { getBuildingFileRow } from './building-files';
import { modelChangesOf, readUserFields, resolveChange, userEditedFlag, userFieldsColumn, type UserFields } from './user-fields';
import { quantitySourceOf } from '../imports/imported-element';

/** Removed edited elements an answer names; all are counted. */
const REMOVED_NAMED = 1000;

/** Element ids per query: well under the bound-parameter limits of SQLite and PostgreSQL. */
const IDS_PER_QUERY = 500;

/** The changes of the model on a file's elements and its edited elements the last new version removed. */
async function modelChangesOfFile(db: Kysely<DatabaseSchema>, fileId: string): Promise<BuildingFileModelChanges> {
  const changed = await db
    .selectFrom('elements')
    .select(['id', ...USER_FIELDS, 'userFields'])
    .where('buildingFileId', '=', fileId)
    .where('userEdited', '=', 1)
    // Only records with a change can hold one; the records themselves decide.
    .where('userFields', 'like', '%"change":%')
    .orderBy('id')
    .execute();
  const removed = await db
    .selectFrom('removed_edited_elements')
    .select(['id', 'name'])
    .where('buildingFileId', '=', fileId)
    .orderBy('id')
    .limit(REMOVED_NAMED)
    .execute();
  const { count } = await db
    .selectFrom('removed_edited_elements')
    .select(sql<number>`count(*)`.as('count'))
    .where('buildingFileId', '=', fileId)
    .executeTakeFirstOrThrow();
  return {
    buildingFileId: fileId,
    changes: changed.flatMap(modelChangesOf),
    removedEdited: { count: Number(count), elements: removed },
  };
}

/** The model's changes after a user's edits of a file in the key's scope, else 404. */
export async function getModelChanges(ctx: ServerContext, principal: Principal, buildingId: string, fileId: string): Promise<BuildingFileModelChanges> {
  await getBuildingFileRow(ctx, principal, buildingId, fileId);
  return modelChangesOfFile(ctx.db, fileId);
}

/** An element as a resolution reads and writes it. */
type ResolvedElement = { userFields: UserFields; userCreated: number; columns: Record<string, string | number | null> };

/**
 * Resolves changes of the model on a Mapped file's elements, all or none: `mine` clears the change, `model` sets the
 * model's value and the field follows the model again. Elements that took a model's value are refined again and the
 * file's figures computed anew (its `lastModifiedDate` moves, so clients read its elements again); an active file's
 * building is recalculated. An entry that names no unresolved change, or a change named twice, is 400 with each named.
 */
export async function resolveModelChanges(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  resolutions: ModelChangeResolutions,
): Promise<BuildingFileModelChanges> {
  const file = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const mapped = () => conflict(`Changes of the model are resolved once the file is Mapped (status 3); it is in status ${file.status}.`);
  if (file.status !== BuildingFileStatuses.Mapped) throw mapped();
  return ctx.db.transaction().execute(async (trx) => {
    // Holds the file in Mapped until the resolution is written: an upload meanwhile waits for it.
    const held = await trx
      .updateTable('building_files')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('id', '=', fileId)
      .where('status', '=', BuildingFileStatuses.Mapped)
      .executeTakeFirst();
    if (held.numUpdatedRows === 0n) throw mapped();

    const elements = await resolvedElements(trx, fileId, [...new Set(resolutions.map((resolution) => resolution.elementId))]);
    const errors: ProblemFieldError[] = [];
    const named = new Set<string>();
    resolutions.forEach(({ elementId, field, keep }, index) => {
      const element = elements.get(elementId);
      const key = JSON.stringify([elementId, field]);
      if (element === undefined) errors.push({ path: `${index}.elementId`, message: `The file has no element '${elementId}'.` });
      else if (named.has(key)) errors.push({ path: `${index}`, message: `The change of field '${field}' of element '${elementId}' is named twice.` });
      else {
        const resolved = resolveChange(element.userFields, field, keep);
        if (resolved === undefined) {
          errors.push({ path: `${index}.field`, message: `Element '${elementId}' has no change of the model on field '${field}' to resolve.` });
        } else {
          element.userFields = resolved.userFields;
          if (resolved.column !== undefined) element.columns[field] = resolved.column;
        }
      }
      named.add(key);
    });
    if (errors.length > 0) throw badRequest(`${errors.length} of ${resolutions.length} resolutions name no change to resolve; none was applied.`, errors);

    const modelTaken: string[] = [];
    for (const [id, element] of elements) {
      const columns = { ...element.columns };
      if (Object.keys(columns).length > 0) {
        modelTaken.push(id);
        if ('volume' in columns || 'weight' in columns) {
          const quantity = (name: 'volume' | 'weight') => (name in columns ? (columns[name] as number | null) : element[name]);
          columns['quantitySource'] = quantitySourceOf(quantity('volume'), quantity('weight'));
        }
      }
      await trx
        .updateTable('elements')
        .set({ ...columns, userFields: userFieldsColumn(element.userFields), userEdited: userEditedFlag(element.userFields, element.userCreated === 1) })
        .where('buildingFileId', '=', fileId)
        .where('id', '=', id)
        .execute();
    }
    if (modelTaken.length > 0) await refineWithFigures({ ...ctx, db: trx }, fileId, buildingId, modelTaken);
    return modelChangesOfFile(trx, fileId);
  });
}

/** The elements among `ids` with their user fields, by id; unknown ids are absent. */
async function resolvedElements(
  db: Kysely<DatabaseSchema>,
  fileId: string,
  ids: readonly string[],
): Promise<Map<string, ResolvedElement & { volume: number | null; weight: number | null }>> {
  const elements = new Map<string, ResolvedElement & { volume: number | null; weight: number | null }>();
  for (let first = 0; first < ids.length; first += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('elements')
      .select(['id', 'userFields', 'userCreated', 'volume', 'weight'])
      .where('buildingFileId', '=', fileId)
      .where('id', 'in', ids.slice(first, first + IDS_PER_QUERY))
      .execute();
    for (const row of rows) {
      elements.set(row.id, { userFields: readUserFields(row.userFields), userCreated: row.userCreated, columns: {}, volume: row.volume, weight: row.weight });
    }
  }
  return elements;
}

/**
 * After elements took the model's values, in the caller's transaction: they are refined again, and the file's figures
 * follow as after a refinement (markFileMapped: validation, status message, `lastModifiedDate`, the building
 * recalculated when the file is active).
 */
async function refineWithFigures(ctx: ServerContext, fileId: string, buildingId: string, ids: readonly string[]): Promise<void> {
  const refinement = await FileRefinement.load(ctx.db, fileId);
  await refinement.refineById(ctx.db, ids);
  const now = ctx.now().toISOString();
  await ctx.db.updateTable('buildings').set({ hasDirtyElements: 1, updatedAt: now }).where('id', '=', buildingId).execute();
  await markFileMapped(ctx, fileId, await fileElementsForCalc(ctx, [fileId]), undefined);
}
