/**
 * Setup of the benchmarks that need a large file: elements written straight into the server's database (bulk rows
 * are setup, not what is measured).
 */
import type { Insertable } from 'kysely';
import type { BuildingFileStatuses } from '../../shared/api/enums';
import { openDatabase } from '../../server/store/store';
import type { ElementsTable } from '../../server/store/tables';
import type { ServerProcess } from './server-process';

const api = '/api/v2.3';
/** Rows per INSERT: 25 columns × 1,000 rows stays under SQLite's 32,766 bound parameters. */
const INSERT_BATCH = 1_000;

/** A request that must succeed during setup. */
async function setupCall<T>(server: ServerProcess, key: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const body = await response.text();
  if (response.status >= 300) throw new Error(`Setup ${method} ${url} answered ${response.status}: ${body}`);
  return (body === '' ? undefined : JSON.parse(body)) as T;
}

/** Elements per run of a file with split elements: the first are whole, the last `SPLIT_LAYERS` one element's layers. */
const SPLIT_RUN = 9;
const SPLIT_LAYERS = 3;

/** An IFC GlobalId's shape (22 characters of its alphabet) for element `index`, sorting in insertion order. */
function globalIdOf(index: number): string {
  return `2${String(index).padStart(21, '0')}`;
}

/**
 * Element `index` of the benchmark file (`wholeElement`); with `split`, ids are GlobalIds and a third of the elements
 * are parts: of every nine, the last three are the layers (`<GlobalId>-L<n>`) of
 * one element, which share its name, type, class, floor and area, each with its own material and volume.
 */
function element(fileId: string, index: number, split: boolean): Insertable<ElementsTable> {
  if (!split) return wholeElement(fileId, index);
  const layer = (index % SPLIT_RUN) - (SPLIT_RUN - SPLIT_LAYERS) + 1;
  if (layer < 1) return { ...wholeElement(fileId, index), id: globalIdOf(index) };
  const parent = index - layer + 1;
  const thickness = [0.1, 0.12, 0.0125][layer - 1] ?? null;
  return {
    ...wholeElement(fileId, parent),
    id: `${globalIdOf(parent)}-L${layer}`,
    materialName: ['Baksteen', 'Minerale wol', 'Gips'][layer - 1] ?? null,
    elementClass: 'IfcWall',
    volume: thickness === null ? null : thickness * (1 + (parent % 53)),
    width: thickness,
  };
}

/** Element `index` as an element of its own: realistic columns, ids that sort in insertion order. */
function wholeElement(fileId: string, index: number): Insertable<ElementsTable> {
  const layer = index % 6;
  return {
    buildingFileId: fileId,
    id: `E-${String(index).padStart(6, '0')}`,
    name: `Element ${index}`,
    materialName: ['Beton C30/37', 'Staal S235', 'Hout vuren', 'Glas float', 'Baksteen', 'Gips'][layer] ?? null,
    materialId: null,
    typeName: `Type ${index % 250}`,
    elementClass: ['IfcWall', 'IfcBeam', 'IfcSlab', 'IfcWindow', 'IfcColumn', 'IfcDoor'][layer] ?? null,
    volume: 0.25 + (index % 97) / 10,
    area: 1 + (index % 53),
    height: 2.7,
    width: 0.2,
    length: 1 + (index % 11),
    weight: null,
    mappingType: null,
    mappingId: null,
    phaseMatchId: null,
    phaseMatchName: null,
    brandLayerMatchId: null,
    brandLayerMatchName: null,
    classificationMatchId: null,
    classificationMatchName: null,
    classificationMatchCode: null,
    phaseLookup: JSON.stringify(['New']),
    classificationLookup: JSON.stringify([`2${layer}.1`]),
    floor: `Floor ${index % 12}`,
  };
}

/**
 * Creates a portfolio, a building and a source file set Importing through the API, then fills the file with `count`
 * elements in one transaction of a second connection to the server's SQLite file (WAL lets both work); with `status`,
 * the file is left in that status (as if processing had ended), else Importing. With `split`, a third of the elements
 * are the layers of split elements (`element`).
 */
export async function seedElementFile(
  server: ServerProcess,
  dataDir: string,
  key: string,
  options: { count: number; status?: BuildingFileStatuses; split?: boolean },
): Promise<{ buildingId: string; fileId: string }> {
  const { count } = options;
  const portfolio = await setupCall<{ id: string }>(server, key, 'POST', `${api}/portfolios`, { name: 'Benchmark' });
  const building = await setupCall<{ id: string }>(server, key, 'POST', `${api}/buildings`, { portfolioId: portfolio.id, name: 'Benchmark building' });
  const file = await setupCall<{ id: string }>(server, key, 'POST', `${api}/buildings/${building.id}/files`, { type: 0, name: 'benchmark.ifc' });
  await setupCall(server, key, 'POST', `${api}/buildings/${building.id}/files/${file.id}/setimporting`);
  const started = performance.now();
  const database = await openDatabase(dataDir);
  await database.db.transaction().execute(async (trx) => {
    for (let first = 0; first < count; first += INSERT_BATCH) {
      const rows = Array.from({ length: Math.min(INSERT_BATCH, count - first) }, (_, offset) => element(file.id, first + offset, options.split === true));
      await trx.insertInto('elements').values(rows).execute();
    }
    await trx
      .updateTable('building_files')
      .set({ elementCount: count, ...(options.status === undefined ? {} : { status: options.status }) })
      .where('id', '=', file.id)
      .execute();
  });
  await database.close();
  console.log(`setup: ${count.toLocaleString('en')} elements inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { buildingId: building.id, fileId: file.id };
}

