import type { Selectable } from 'kysely';
import type { ReportElement } from '../../calc/import-report';
import type { CalcCatalogue, CalcMaterial, CalcProduct } from '../../calc/inputs';
import { createCatalogue } from '../../calc/inputs';
import type { ServerContext } from '../../context';
import { parseJsonColumn } from '../../store/repositories/json';
import type { ElementsTable } from '../../store/tables';
import { ElementType } from '../../../shared/api/enums';

/** Ids per query when loading catalogue items (well under the databases' bound-parameter limits). */
const idsPerQuery = 500;

/** `ids` in chunks of `idsPerQuery`. */
function chunks(ids: readonly string[]): string[][] {
  const result: string[][] = [];
  for (let first = 0; first < ids.length; first += idsPerQuery) result.push(ids.slice(first, first + idsPerQuery));
  return result;
}

/** Materials by id with their dated prices. */
async function loadMaterials(ctx: Pick<ServerContext, 'db'>, ids: readonly string[]): Promise<CalcMaterial[]> {
  const materials: CalcMaterial[] = [];
  for (const chunk of chunks(ids)) {
    const rows = await ctx.db.selectFrom('materials').selectAll().where('id', 'in', chunk).execute();
    const values = await ctx.db.selectFrom('material_financial_values').selectAll().where('materialId', 'in', chunk).execute();
    for (const row of rows) {
      materials.push({
        id: row.id,
        elementFamily: row.elementFamily,
        specificWeight: row.specificWeight,
        lifeTime: row.lifeTime,
        circular: parseJsonColumn(row.circular, 'materials.circular'),
        financial: parseJsonColumn(row.financial, 'materials.financial'),
        financialValues: values.filter((value) => value.materialId === row.id),
      });
    }
  }
  return materials;
}

/** Products by id with their children, and every product or material the children reach, to any depth. */
async function loadCatalogue(ctx: Pick<ServerContext, 'db'>, materialIds: Set<string>, productIds: Set<string>): Promise<CalcCatalogue> {
  const products: CalcProduct[] = [];
  const seenProducts = new Set<string>();
  let pending = [...productIds];
  while (pending.length > 0) {
    pending.forEach((id) => seenProducts.add(id));
    const next: string[] = [];
    for (const chunk of chunks(pending)) {
      const rows = await ctx.db.selectFrom('products').selectAll().where('id', 'in', chunk).execute();
      const children = await ctx.db.selectFrom('product_children').selectAll().where('productId', 'in', chunk).orderBy('position').execute();
      for (const row of rows) {
        const own = children.filter((child) => child.productId === row.id);
        products.push({
          id: row.id,
          type: row.type,
          circular: parseJsonColumn(row.circular, 'products.circular'),
          defaultDimensions: parseJsonColumn(row.defaultDimensions, 'products.defaultDimensions'),
          children: own.map((child) => ({
            childId: child.childId,
            value: child.value,
            circular: parseJsonColumn(child.circular, 'product_children.circular'),
          })),
        });
        for (const child of own) {
          // A child id names a material or a product; both are looked up, the one that exists is used.
          materialIds.add(child.childId);
          if (!seenProducts.has(child.childId)) next.push(child.childId);
        }
      }
    }
    pending = [...new Set(next)];
  }
  return createCatalogue(await loadMaterials(ctx, [...materialIds]), products);
}

/** The columns of an element that the figures and the import report read. */
const ELEMENT_COLUMNS = [
  'id', 'volume', 'area', 'length', 'weight', 'materialName', 'materialId', 'classificationMatchId', 'brandLayerMatchId', 'mappingType',
  'mappingId', 'elementClass', 'typeName', 'mappingSource', 'quantitySource', 'geometryIssue', 'classificationSource',
] as const;

/** An element row with the columns the figures read. */
export type ElementForCalc = Pick<Selectable<ElementsTable>, (typeof ELEMENT_COLUMNS)[number]>;

/** Elements per read: a file's elements come in pages, so a large one does not hold the database and the server at once. */
const elementsPerRead = 10_000;

/** The elements of a file in pages, in id order. */
async function* elementPages(ctx: Pick<ServerContext, 'db'>, fileId: string) {
  let after: string | null = null;
  for (;;) {
    let query = ctx.db.selectFrom('elements').select(ELEMENT_COLUMNS).where('buildingFileId', '=', fileId);
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.orderBy('id').limit(elementsPerRead).execute();
    if (rows.length > 0) yield rows;
    if (rows.length < elementsPerRead) return;
    after = rows[rows.length - 1]?.id ?? null;
  }
}

/** An element row as a figure input, with where its data came from (for the import report). */
export function reportElementOf(row: ElementForCalc): ReportElement {
  const mapping = row.mappingType === null || row.mappingId === null ? null : { type: row.mappingType, id: row.mappingId };
  return {
    id: row.id,
    volume: row.volume,
    area: row.area,
    length: row.length,
    weight: row.weight,
    materialName: row.materialName,
    materialId: row.materialId,
    classificationId: row.classificationMatchId,
    brandLayerId: row.brandLayerMatchId,
    mapping,
    elementClass: row.elementClass,
    typeName: row.typeName,
    mappingSource: row.mappingSource,
    quantitySource: row.quantitySource,
    geometryIssue: row.geometryIssue,
    classificationSource: row.classificationSource,
  };
}

/** Every catalogue item the elements' mappings reach. */
export function catalogueFor(ctx: Pick<ServerContext, 'db'>, elements: readonly ReportElement[]): Promise<CalcCatalogue> {
  const materialIds = new Set<string>();
  const productIds = new Set<string>();
  for (const { mapping } of elements) {
    if (mapping !== null && mapping !== undefined) (mapping.type === ElementType.Material ? materialIds : productIds).add(mapping.id);
  }
  return loadCatalogue(ctx, materialIds, productIds);
}

/**
 * The elements of the given files as figure inputs (with where their data came from, for the import report), with
 * every catalogue item their mappings reach. Elements come straight from their rows; the catalogue is loaded once for
 * all of them.
 */
export async function fileElementsForCalc(
  ctx: Pick<ServerContext, 'db'>,
  fileIds: readonly string[],
): Promise<{ elements: ReportElement[]; catalogue: CalcCatalogue }> {
  const elements: ReportElement[] = [];
  for (const fileId of fileIds) {
    for await (const rows of elementPages(ctx, fileId)) for (const row of rows) elements.push(reportElementOf(row));
  }
  return { elements, catalogue: await catalogueFor(ctx, elements) };
}
