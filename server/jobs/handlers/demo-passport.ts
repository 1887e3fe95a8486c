import { BuildingFileStatuses } from '../../../shared/api';
import { PASSPORT_LANGUAGES, type PassportLanguage } from '../../../shared/api/routes';
import { scheduleBuildingPassport } from '../../services/building-jobs';
import { enqueueJob } from '../queue';
import type { JobHandler } from '../worker';

/** How long the job waits between looks, and how many looks it takes before it lets the passport go. */
const LOOK_AGAIN_MS = 2_000;
const MAX_ROUNDS = 300;

/** Statuses after which a source file's processing is over. */
const ENDED = new Set<number>([BuildingFileStatuses.Mapped, BuildingFileStatuses.Error, BuildingFileStatuses.UnknownImportFile]);

/**
 * The demo building's passport (store/seed/demo-model.ts), once its model is processed and its figures computed: a
 * passport asked for earlier would show no figures. Until then the job queues itself again a little later; it gives up
 * quietly when the model did not reach Mapped or the building was deleted, since the demo is a convenience.
 */
export const demoPassportHandler: JobHandler = {
  async run({ ctx, job, finish }) {
    const payload = JSON.parse(job.payload) as { language?: string; round?: number };
    const language: PassportLanguage = PASSPORT_LANGUAGES.find((candidate) => candidate === payload.language) ?? 'en';
    const round = payload.round ?? 0;
    const building = await ctx.db.selectFrom('buildings').select(['id', 'name', 'isDirty']).where('id', '=', job.subjectId).executeTakeFirst();
    if (building === undefined) return;
    const files = await ctx.db.selectFrom('building_files').select('status').where('buildingId', '=', building.id).where('type', '=', 0).execute();
    const processed = files.length > 0 && files.every((file) => ENDED.has(file.status));
    if (processed && !files.some((file) => file.status === BuildingFileStatuses.Mapped)) return;
    const figures = await ctx.db.selectFrom('building_figures').select('buildingId').where('buildingId', '=', building.id).executeTakeFirst();
    if (processed && building.isDirty === 0 && figures !== undefined) {
      await finish(async (trx) => {
        await scheduleBuildingPassport(trx, ctx.now(), building, 'pdf', language);
        await scheduleBuildingPassport(trx, ctx.now(), building, 'excel', language);
      });
      return;
    }
    if (round >= MAX_ROUNDS) return;
    await finish((trx) =>
      enqueueJob(
        trx,
        { kind: 'demo-passport', subjectId: building.id, payload: { language, round: round + 1 }, runAfter: new Date(ctx.now().getTime() + LOOK_AGAIN_MS) },
        ctx.now(),
      ),
    );
  },
  async giveUp() {
    // Nothing to show anywhere: the demo building simply has no passport, and the user can ask for one.
  },
};
