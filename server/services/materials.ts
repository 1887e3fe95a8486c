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
import { parseJsonColumn } from '../store/repositories/json';
import type { MaterialsTable } from '../store/tables';
import type { CatalogueColumns, CatalogueKind } from './catalogue-items';
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
export function materialCircularInformation(request: MaterialCircularInformationRequest): MaterialCircularInformation {
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
    circular: JSON.stringify(materialCircularInformation(request.circular ?? {})),
    financial: JSON.stringify(financialInformation(request.financial ?? {})),
  };
}

/** Materials as a catalogue: list, get, create and replace are `catalogue-items.ts` over this. */
export const materialCatalogue: CatalogueKind<'materials', Material, MaterialRequest> = { table: 'materials', toWire: toMaterial, columns: materialColumns };
