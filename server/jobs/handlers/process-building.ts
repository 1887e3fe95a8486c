import { circularFigures } from '../../calc/circularity';
import { financialInputs } from '../../calc/financial';
import { validationFigures } from '../../calc/validation';
import { findBuilding } from '../../store/repositories/buildings';
import { countedFileIds } from './building-report';
import { fileElementsForCalc } from './calc-inputs';
import type { JobHandler } from '../worker';

/**
 * Recalculates a building: circular and validation figures over the elements of its active Mapped source files, and
 * the financial sums `/financial` values at any rates (decisions §3, §6–§8). Clears `isDirty` and `hasDirtyElements`
 * unless something changed the building while it ran (then the recalculation queued meanwhile runs next).
 */
export const processBuildingHandler: JobHandler = {
  async run({ ctx, job, signal, finish }) {
    const building = await findBuilding(ctx.db, job.subjectId);
    if (building === undefined) return;
    const { elements, catalogue } = await fileElementsForCalc(ctx, await countedFileIds(ctx, building.id));
    if (signal.aborted) return;
    const now = ctx.now().toISOString();
    const figures = {
      circular: JSON.stringify(circularFigures(elements, catalogue, building)),
      validation: JSON.stringify(validationFigures(elements, catalogue)),
      financialInputs: JSON.stringify(financialInputs(elements, catalogue)),
      computedAt: now,
    };
    await finish(async (trx) => {
      // Waits for a change of the building being committed, so that the recalculation it queued is seen below.
      let locked = trx.selectFrom('buildings').select('id').where('id', '=', building.id);
      if (ctx.dialect.rowLocks) locked = locked.forUpdate();
      await locked.execute();
      await trx
        .insertInto('building_figures')
        .values({ buildingId: building.id, ...figures })
        .onConflict((oc) => oc.column('buildingId').doUpdateSet(figures))
        .execute();
      const queuedAgain = await trx
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'process-building')
        .where('subjectId', '=', building.id)
        .where('state', '=', 'queued')
        .executeTakeFirst();
      // A change while this ran queued another recalculation: the building stays dirty until that one is done.
      if (queuedAgain === undefined) {
        await trx
          .updateTable('buildings')
          .set({ isDirty: 0, hasDirtyElements: 0 })
          .where('id', '=', building.id)
          .execute();
      }
    });
  },
  async giveUp(ctx, job, message) {
    // The building stays dirty: its figures are those of the last recalculation that succeeded.
    await ctx.db.updateTable('jobs').set({ lastError: `Recalculation failed: ${message}` }).where('id', '=', job.id).execute();
  },
};
