/**
 * The model of the demo building: on the start that creates the sample data (`serve --demo`, the Local workspace's
 * first start), its sample building gets a source file with a public IFC model, uploaded, active and processed like any
 * upload, and a passport once its figures are there (the `demo-passport` job), so a newcomer sees the product work.
 */
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BuildingFileType } from '../../../shared/api';
import { Level, type Principal } from '../../auth/principal';
import type { ServerContext } from '../../context';
import { enqueueJob } from '../../jobs/queue';
import { createBuildingFile, setBuildingFileActive, uploadBuildingFile } from '../../services/building-files';
import { DEMO_BUILDING_NAME, DEMO_PORTFOLIO_NAME } from './demo';

/**
 * The model's file (demo/SOURCES.md): beside this module in the sources, beside the server's bundle once built
 * (scripts/build-desktop.ts copies it to `dist/server/demo/`). Asked for when needed: a module loaded where its address
 * is no file (a test of the app in a browser-like environment) must still load.
 */
export function demoModelPath(): string {
  return fileURLToPath(new URL('./demo/demo-office.ifc', import.meta.url));
}

/** The name the model is uploaded under. */
export const DEMO_MODEL_NAME = 'demo-office.ifc';

/** The language of the demo passport. */
const DEMO_PASSPORT_LANGUAGE = 'en';

/**
 * Gives the demo building of `accountId` its model, unless it has a file already (the model was added before, or the
 * user added their own): creates an active source file, uploads the model into it (the import job follows) and
 * schedules the demo passport.
 */
export async function seedDemoModel(ctx: ServerContext, accountId: string): Promise<void> {
  const building = await ctx.db
    .selectFrom('buildings')
    .innerJoin('portfolios', 'portfolios.id', 'buildings.portfolioId')
    .select('buildings.id')
    .where('buildings.accountId', '=', accountId)
    .where('portfolios.name', '=', DEMO_PORTFOLIO_NAME)
    .where('buildings.name', '=', DEMO_BUILDING_NAME)
    .executeTakeFirst();
  if (building === undefined) return;
  const files = await ctx.db.selectFrom('building_files').select('id').where('buildingId', '=', building.id).executeTakeFirst();
  if (files !== undefined) return;
  // The seed acts as the account's administrator, through the same services an API call uses.
  const principal: Principal = { tokenId: 'demo-seed', accountId, scopeKind: 'account', scopeId: null, level: Level.Administrator };
  const file = await createBuildingFile(ctx, principal, building.id, { type: BuildingFileType.Source, name: DEMO_MODEL_NAME, tags: ['demo'] });
  await setBuildingFileActive(ctx, principal, building.id, file.id, true);
  await uploadBuildingFile(ctx, principal, building.id, file.id, DEMO_MODEL_NAME, createReadStream(demoModelPath()), 'application/octet-stream');
  await enqueueJob(ctx.db, { kind: 'demo-passport', subjectId: building.id, payload: { language: DEMO_PASSPORT_LANGUAGE, round: 0 } }, ctx.now());
}
