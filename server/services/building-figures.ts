import type { BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { financialFromInputs, financialRates, type FinancialInputs, type FinancialRates } from '../calc/financial';
import { parseJsonColumn } from '../store/repositories/json';
import { getBuildingRow } from './buildings';
import { emptyValidation } from './building-files';

/** Circular figures before any recalculation: nothing is counted yet (decisions §6: no counted elements → null). */
function emptyCircular(): BuildingCircularInformation {
  return {
    circularityConstructionPhase: null,
    circularityUsagePhase: null,
    circularityEndOfLifePhase: null,
    ciScoreBuilding: null,
    correctionUnknownMaterials: null,
    correctionUnknownBrandLayer: null,
    madasterCiScore: null,
  };
}

/** The figures row of a building, if a recalculation has stored one. */
async function figuresRow(ctx: ServerContext, buildingId: string) {
  return ctx.db.selectFrom('building_figures').selectAll().where('buildingId', '=', buildingId).executeTakeFirst();
}

/** The building's circular figures from its last recalculation. */
export async function buildingCircular(ctx: ServerContext, principal: Principal, id: string): Promise<BuildingCircularInformation> {
  await getBuildingRow(ctx, principal, id);
  const row = await figuresRow(ctx, id);
  if (row?.circular === null || row?.circular === undefined) return emptyCircular();
  return parseJsonColumn<BuildingCircularInformation>(row.circular, 'building_figures.circular');
}

/** The building's validation figures from its last recalculation (0 when nothing was computed, decisions §8). */
export async function buildingValidation(ctx: ServerContext, principal: Principal, id: string): Promise<BuildingValidation> {
  await getBuildingRow(ctx, principal, id);
  const row = await figuresRow(ctx, id);
  if (row?.validation === null || row?.validation === undefined) return emptyValidation();
  return parseJsonColumn<BuildingValidation>(row.validation, 'building_figures.validation');
}

/**
 * The building's financial figures at the given rates (defaults where absent), valued from the sums its last
 * recalculation stored; before any, the sums are empty and every level answers 0 (decisions §6).
 */
export async function buildingFinancial(
  ctx: ServerContext,
  principal: Principal,
  id: string,
  rates: Partial<FinancialRates>,
): Promise<BuildingFinancialInformation> {
  const building = await getBuildingRow(ctx, principal, id);
  const row = await figuresRow(ctx, id);
  const inputs: FinancialInputs =
    row?.financialInputs === null || row?.financialInputs === undefined
      ? { version: 1, buckets: [] }
      : parseJsonColumn<FinancialInputs>(row.financialInputs, 'building_figures.financialInputs');
  return financialFromInputs(inputs, building, financialRates(rates));
}
