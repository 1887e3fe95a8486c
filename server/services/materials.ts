import type {
  LocalizedText,
  Material,
  MaterialCircularInformation,
  MaterialCircularInformationRequest,
  MaterialFinancialInformation,
  MaterialFinancialInformationRequest,
  MaterialRequest,
} from '../../shared/api';
import { FinancialImportType } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { parseJsonColumn } from '../store/repositories/json';
import type { MaterialsTable } from '../store/tables';
import {
  createCatalogueItem,
  getCatalogueItem,
  listCatalogueItems,
  replaceCatalogueItem,
  type CatalogueColumns,
  type CatalogueKind,
} from './catalogue-items';
import { checkedEnum, localizedTextColumn } from './catalogue-fields';

/** The wire shape of a stored material. */
function toMaterial(row: MaterialsTable): Material {
  return {
    name: parseJsonColumn<LocalizedText>(row.name, 'materials.name'),
    elementFamily: row.elementFamily,
    description: parseJsonColumn<LocalizedText>(row.description, 'materials.description'),
    supplier: row.supplier,
    specificWeight: row.specificWeight,
    lifeTime: row.lifeTime,
    circular: parseJsonColumn<MaterialCircularInformation>(row.circular, 'materials.circular'),
    financial: parseJsonColumn<MaterialFinancialInformation>(row.financial, 'materials.financial'),
    id: row.id,
  };
}

/** Every circular figure of a request, null where absent, so the stored block always answers every field. */
function circularInformation(request: MaterialCircularInformationRequest): MaterialCircularInformation {
  return {
    recycledPercentageFeedstock: request.recycledPercentageFeedstock ?? null,
    rapidRenewablesPercentageFeedstock: request.rapidRenewablesPercentageFeedstock ?? null,
    virginPercentageFeedstock: request.virginPercentageFeedstock ?? null,
    recycledPercentageEndOfLife: request.recycledPercentageEndOfLife ?? null,
    landfillPercentageEndOfLife: request.landfillPercentageEndOfLife ?? null,
    incinerationPercentageEndOfLife: request.incinerationPercentageEndOfLife ?? null,
    efficiencyPercentageRecyclingFeedstock: request.efficiencyPercentageRecyclingFeedstock ?? null,
    efficiencyPercentageRecyclingEndOfLife: request.efficiencyPercentageRecyclingEndOfLife ?? null,
  };
}

/** Every financial field of a request, null where absent; an absent import type is None (the schema's default). */
function financialInformation(request: MaterialFinancialInformationRequest): MaterialFinancialInformation {
  const importType = request.importType ?? FinancialImportType.None;
  return {
    importType: checkedEnum(FinancialImportType, importType, 'financial.importType'),
    priceSetId: request.priceSetId ?? null,
    transportCosts: request.transportCosts ?? null,
    handlingFeedstockEuroKg: request.handlingFeedstockEuroKg ?? null,
    handlingFeedstockPercentage: request.handlingFeedstockPercentage ?? null,
  };
}

/** The columns of a material request; a field left out is null (or empty), so a replace replaces everything. */
function materialColumns(request: MaterialRequest): CatalogueColumns<'materials'> {
  return {
    name: localizedTextColumn(request.name),
    elementFamily: request.elementFamily ?? null,
    description: localizedTextColumn(request.description),
    supplier: request.supplier ?? null,
    specificWeight: request.specificWeight ?? null,
    lifeTime: request.lifeTime ?? null,
    circular: JSON.stringify(circularInformation(request.circular ?? {})),
    financial: JSON.stringify(financialInformation(request.financial ?? {})),
  };
}

/** Materials as a catalogue. */
const materials: CatalogueKind<'materials', Material, MaterialRequest> = { table: 'materials', toWire: toMaterial, columns: materialColumns };

/** The materials of a database the caller may read: the platform's when `databaseId` is absent. */
export function listMaterials(ctx: ServerContext, principal: Principal, databaseId: string | undefined): Promise<Material[]> {
  return listCatalogueItems(ctx, principal, materials, databaseId);
}

/** A material of a database the caller may read, else 404. */
export function getMaterial(ctx: ServerContext, principal: Principal, id: string): Promise<Material> {
  return getCatalogueItem(ctx, principal, materials, id);
}

/** Creates a material in the caller's own database. */
export function createMaterial(ctx: ServerContext, principal: Principal, request: MaterialRequest): Promise<Material> {
  return createCatalogueItem(ctx, principal, materials, request);
}

/** Replaces every field of a material of the caller's database (matches and prices have their own endpoints). */
export function replaceMaterial(ctx: ServerContext, principal: Principal, id: string, request: MaterialRequest): Promise<Material> {
  return replaceCatalogueItem(ctx, principal, materials, id, request);
}
