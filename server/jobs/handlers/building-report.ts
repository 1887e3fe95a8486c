import type { BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../../shared/api';
import { BuildingFileStatuses, BuildingFileType, BuildingLevel } from '../../../shared/api';
import type { Counting } from '../../../shared/counting';
import { circularFigures } from '../../calc/circularity';
import { countElements } from '../../calc/counting';
import { financialFromInputs, financialInputs } from '../../calc/financial';
import { layerOf, type CalcCatalogue, type CalcElement } from '../../calc/inputs';
import { elementMass } from '../../calc/mass';
import { validationFigures } from '../../calc/validation';
import type { ServerContext } from '../../context';
import type { PassportFamily, PassportLayer } from '../../passports/passport-data';
import type { BuildingRow } from '../../store/repositories/buildings';
import { fileElementsForCalc } from './calc-inputs';

/** The figures of a building as a passport reports them: fresh, from the elements of its active Mapped source files. */
export interface BuildingReport {
  elements: CalcElement[];
  catalogue: CalcCatalogue;
  fileIds: string[];
  circular: BuildingCircularInformation;
  financial: BuildingFinancialInformation;
  validation: BuildingValidation;
  /** How many elements count and why the others do not (shared/counting.ts). */
  counting: Counting;
  layers: PassportLayer[];
  families: PassportFamily[];
  /** kg of all elements with a known mass. */
  mass: number;
}

/** The files whose elements count in a building's figures: its active Mapped source files (decisions §3). */
export async function countedFileIds(ctx: ServerContext, buildingId: string): Promise<string[]> {
  const files = await ctx.db
    .selectFrom('building_files')
    .select('id')
    .where('buildingId', '=', buildingId)
    .where('type', '=', BuildingFileType.Source)
    .where('isActive', '=', 1)
    .where('status', '=', BuildingFileStatuses.Mapped)
    .orderBy('createdAt')
    .execute();
  return files.map((file) => file.id);
}

/**
 * Computes a building's figures now, as the process job would, so a passport never shows figures older than its
 * elements; plus the mass per brand layer and per material family that only passports show.
 */
export async function buildingReport(ctx: ServerContext, building: BuildingRow): Promise<BuildingReport> {
  const fileIds = await countedFileIds(ctx, building.id);
  const { elements, catalogue } = await fileElementsForCalc(ctx, fileIds);
  const inputs = financialInputs(elements, catalogue);
  const financial = financialFromInputs(inputs, building);

  const byLayer = new Map<string, PassportLayer>();
  let mass = 0;
  for (const element of elements) {
    const level = BuildingLevel[layerOf(element.brandLayerId)];
    const layer = byLayer.get(level.id) ?? { id: level.id, label: level.label, mass: 0, elementCount: 0 };
    const elementKg = elementMass(element, catalogue);
    layer.mass += elementKg;
    layer.elementCount += 1;
    mass += elementKg;
    byLayer.set(level.id, layer);
  }
  const familyMass = new Map<string, number>();
  for (const bucket of inputs.buckets) familyMass.set(bucket.family, (familyMass.get(bucket.family) ?? 0) + bucket.mass);
  const families = [...familyMass].map(([family, kg]) => ({
    family,
    mass: kg,
    value: financial.currentValuePerMaterialFamily[family] ?? 0,
  }));
  return {
    elements,
    catalogue,
    fileIds,
    circular: circularFigures(elements, catalogue, building),
    financial,
    validation: validationFigures(elements, catalogue),
    counting: countElements(elements, catalogue, true),
    layers: [...byLayer.values()],
    families,
    mass,
  };
}
