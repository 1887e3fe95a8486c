/**
 * Converts the platform's public reference files (`sources/`, see SOURCES.md there) into the seed data committed with the server:
 * `Madaster_Materials.xlsx` → `platform-materials.json`, `NL-SfB_2019_assembly_code.txt` → `shared/nl-sfb.json` (the app's
 * classification picker reads it too).
 * Run `npm run seed:generate` after a reference file changes; a unit test fails while the committed files are stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import { coarserNlSfbCode } from '../../refine/nl-sfb';
import type {
  ClassificationCodeSeed,
  ClassificationData,
  LocalizedText,
  MaterialCircularSeed,
  MaterialFinancialValueSeed,
  MaterialMatchSeed,
  PlatformMaterialSeed,
  PlatformMaterialsData,
} from './system-data';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES_DIRECTORY = path.join(REPOSITORY_ROOT, 'server', 'store', 'seed', 'sources');
const SEED_DIRECTORY = path.join(REPOSITORY_ROOT, 'server', 'store', 'seed');

/** A file this script writes, with its full content. */
export interface GeneratedSeedFile {
  path: string;
  content: string;
}

/** Reads the reference files and returns the seed files as they must be committed (nothing is written). */
export async function generateSeedFiles(): Promise<GeneratedSeedFile[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path.join(SOURCES_DIRECTORY, 'Madaster_Materials.xlsx'));
  const codeList = await readFile(path.join(SOURCES_DIRECTORY, 'NL-SfB_2019_assembly_code.txt'));
  return [
    {
      path: path.join(SEED_DIRECTORY, 'platform-materials.json'),
      content: toSeedJson(convertMaterialsWorkbook(workbook)),
    },
    { path: path.join(REPOSITORY_ROOT, 'shared', 'nl-sfb.json'), content: toSeedJson(convertNlSfbCodeList(codeList)) },
  ];
}

// The committed form of a data file: two-space indentation and a final newline, so diffs stay readable.
function toSeedJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Materials

/** MatchType values of the API. */
const MatchType = { Contains: 10, Equals: 11, StartWith: 12, EndsWith: 13 } as const;

/** FinancialImportType values of the API. */
const FinancialImportType = { None: 0, Manual: 10 } as const;

const PRICE_UNIT_KG = 1;

/**
 * Columns of the `Materials` sheet (header rows 1–2, data from row 3). Both "Id" columns share a header, so columns
 * are taken by position and their headers asserted: a reshaped workbook fails the conversion instead of being misread.
 */
const COLUMNS = {
  id: { column: 'A', header: 'Madaster UID' },
  nameEnglish: { column: 'B', header: 'Material name' },
  nameDutch: { column: 'C', header: 'Material name (Dutch)' },
  specificWeight: { column: 'D', header: 'Specific weight (kg/m3)' },
  materialClassificationId: { column: 'E', header: 'Id' },
  familyId: { column: 'G', header: 'Id' },
  familyName: { column: 'H', header: 'madaster' },
  priceSetId: { column: 'I', header: 'Dataset Id' },
  transportCosts: { column: 'K', header: 'Transport costs (€/kg)' },
  handlingEuroKg: { column: 'L', header: 'Handling feedstock (€/kg)' },
  handlingPercentage: { column: 'M', header: 'Handling feedstock (% of price)' },
  recycledFeedstock: { column: 'N', header: '% Recycled' },
  efficiencyFeedstock: { column: 'O', header: '% Recycling Efficiency' },
  rapidRenewablesFeedstock: { column: 'P', header: '% Rapid Renewables' },
  virginFeedstock: { column: 'Q', header: '% Virgin feedstock' },
  recycledEndOfLife: { column: 'R', header: '% Available for recycle' },
  efficiencyEndOfLife: { column: 'S', header: '% Recycling efficiency' },
  landfillEndOfLife: { column: 'T', header: '% Landfill' },
  incinerationEndOfLife: { column: 'U', header: '% Incineration' },
} as const;

type MaterialColumn = keyof typeof COLUMNS;

const FIRST_DATA_ROW = 3;
const SEARCH_CRITERIA_GROUP = 'Search criteria';

/**
 * English names in the workbook that are not English or name another material. Each is applied only while the
 * workbook still says `was`, so a corrected workbook makes the conversion fail here rather than overwrite silently.
 */
const ENGLISH_NAME_CORRECTIONS: { id: string; was: string; becomes: string }[] = [
  { id: 'f308df80-f461-4b20-8c46-befb9dce8ef4', was: 'Naturale stone', becomes: 'Natural stone' },
  { id: 'ba926e55-cc8a-43c3-9149-9f327e3766c3', was: 'Baksteen', becomes: 'Brick' },
  { id: '0f1108e9-8415-4f5f-a346-1076cdf660b8', was: 'Scaffolding hout', becomes: 'Scaffolding wood' },
  { id: '4bffd4ee-2fe9-4de2-ac08-a0be463a64e6', was: 'Trachiet', becomes: 'Trachyte' },
  // Dutch "Bitumen", family plastic, NL-SfB N1 Asphalt, searched as *Bitume*: the English cell is another row's name.
  { id: '262024f6-0f03-4dbe-8a67-a90ec2870e69', was: 'Building block', becomes: 'Bitumen' },
];

/** "NL-SfB table 3" in each language, for the description that carries the workbook's material classification. */
const TABLE_3_LABEL: LocalizedText = {
  nl: 'NL-SfB tabel 3',
  en: 'NL-SfB table 3',
  de: 'NL-SfB Tabelle 3',
  it: 'NL-SfB tabella 3',
  fr: 'NL-SfB tableau 3',
  es: 'NL-SfB tabla 3',
};

/** Notes written into `platform-materials.json` so a reader of the data knows how it was made. */
const MATERIAL_NOTES = [
  'Generated by server/store/seed/generate.ts from Madaster_Materials.xlsx; do not edit by hand.',
  'id: the workbook\'s "Madaster UID", so ids match the platform and never change between installs.',
  'name: the workbook has English and Dutch names; de, it, fr and es carry the English name.',
  'name.en corrected where the workbook\'s English cell is not English or names another material: ' +
    ENGLISH_NAME_CORRECTIONS.map((correction) => `"${correction.was}" → "${correction.becomes}"`).join(', ') +
    '.',
  'description: the workbook\'s NL-SfB table 3 material classification (English label), empty where it has none.',
  'elementFamily: the workbook\'s material family id (glass, metal, organic, plastic, stone, unknown, wood), checked ' +
    'against the family name the workbook looks up beside it; kept as the workbook gives it where it surprises ' +
    '(asbestos, asbestos cement, bitumen, linoleum and natural rubber are plastic there).',
  'lifeTime and supplier: null, the workbook has no such columns.',
  'circular: the workbook\'s fractions (0..1) as they are; virginPercentageFeedstock = 1 − recycled − rapid ' +
    'renewables (the workbook leaves it empty); incinerationPercentageEndOfLife = 1 − landfill − recycled, the ' +
    'workbook\'s own formula.',
  'financial: priceSetId is the workbook\'s dataset id; transport and handling costs in EUR/kg and the handling ' +
    'share of the price as given; importType 10 (Manual) where a price is seeded, else 0 (None).',
  'matches: the workbook\'s search criteria in column order; *x* → Contains (10), x* → StartWith (12), ' +
    '*x → EndsWith (13), x → Equals (11).',
  'financialValues: an indicative price per kg (unit 1, EUR) per price set where a documented figure exists; ' +
    'each value names its source.',
];

/** Converts the platform's material workbook into the platform database's materials. */
export function convertMaterialsWorkbook(workbook: Workbook): PlatformMaterialsData {
  const sheet = requireSheet(workbook, 'Materials');
  assertHeaders(sheet);
  const table3Labels = readTable3Labels(requireSheet(workbook, 'nl_sfb'));
  const priceSetIds = readPriceSetIds(requireSheet(workbook, 'Pricesets'));
  const searchColumns = searchCriteriaColumns(sheet);
  const corrections = new Map(ENGLISH_NAME_CORRECTIONS.map((correction) => [correction.id, correction]));
  for (const priceSetId of Object.keys(PRICE_SET_PRICES)) {
    if (!priceSetIds.has(priceSetId)) {
      throw new Error(`A seeded price names price set ${priceSetId}, which the Pricesets sheet does not list`);
    }
  }

  const materials: PlatformMaterialSeed[] = [];
  const seenIds = new Set<string>();
  for (let rowNumber = FIRST_DATA_ROW; rowNumber <= sheet.rowCount; rowNumber += 1) {
    const read = materialRowReader(sheet, rowNumber);
    const id = read.text('id');
    if (id === null) {
      continue;
    }
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) || seenIds.has(id)) {
      throw new Error(`Materials!A${rowNumber}: "${id}" is not a new lower-case UUID`);
    }
    seenIds.add(id);

    const english = correctedEnglishName(corrections, id, read.requiredText('nameEnglish'));
    const dutch = read.requiredText('nameDutch');
    const table3Id = read.text('materialClassificationId');
    const table3Label = table3Id === null ? null : table3Labels.get(table3Id);
    if (table3Label === undefined) {
      throw new Error(`Materials!E${rowNumber}: unknown NL-SfB table 3 id ${String(table3Id)}`);
    }
    const priceSetId = read.text('priceSetId');
    if (priceSetId !== null && !priceSetIds.has(priceSetId)) {
      throw new Error(`Materials!I${rowNumber}: unknown price set ${priceSetId}`);
    }
    const price = priceSetId === null ? undefined : PRICE_SET_PRICES[priceSetId];
    const financialValues: MaterialFinancialValueSeed[] =
      price === undefined
        ? []
        : [
            {
              value: price.eurPerKg,
              valueDate: price.valueDate,
              currency: 'EUR',
              unit: PRICE_UNIT_KG,
              priceSource: price.source,
            },
          ];

    const family = read.text('familyId');
    const familyName = read.formulaResult('familyName');
    if ((family ?? '').toLowerCase() !== (familyName ?? '').toLowerCase()) {
      throw new Error(`Materials!G${rowNumber}: family id "${String(family)}" but family name "${String(familyName)}"`);
    }
    materials.push({
      id,
      name: { nl: dutch, en: english, de: english, it: english, fr: english, es: english },
      elementFamily: family,
      description: localized((language) =>
        table3Label === null ? '' : `${TABLE_3_LABEL[language]}: ${table3Label}`,
      ),
      supplier: null,
      specificWeight: read.number('specificWeight'),
      lifeTime: null,
      circular: readCircular(read),
      financial: {
        importType: financialValues.length > 0 ? FinancialImportType.Manual : FinancialImportType.None,
        priceSetId,
        transportCosts: read.number('transportCosts'),
        handlingFeedstockEuroKg: read.number('handlingEuroKg'),
        handlingFeedstockPercentage: read.fraction('handlingPercentage'),
      },
      matches: searchColumns.flatMap((column) => {
        const criterion = cellText(sheet.getCell(`${column}${rowNumber}`).value);
        return criterion === null ? [] : [parseSearchCriterion(criterion, `Materials!${column}${rowNumber}`)];
      }),
      financialValues,
    });
  }
  const uncorrected = ENGLISH_NAME_CORRECTIONS.filter((correction) => !seenIds.has(correction.id));
  if (uncorrected.length > 0) {
    const ids = uncorrected.map((correction) => correction.id).join(', ');
    throw new Error(`Name corrections for materials the workbook no longer has: ${ids}`);
  }
  return {
    source: 'Madaster_Materials.xlsx (madaster/madaster.github.io, files/en/Madaster Materials.xlsx)',
    notes: MATERIAL_NOTES,
    materials,
  };
}

function readCircular(read: MaterialRowReader): MaterialCircularSeed {
  const recycledFeedstock = read.fraction('recycledFeedstock');
  const rapidRenewablesFeedstock = read.fraction('rapidRenewablesFeedstock');
  const recycledEndOfLife = read.fraction('recycledEndOfLife');
  const landfillEndOfLife = read.fraction('landfillEndOfLife');
  // Both remainders are formulas in the workbook (or left empty); their cached results are missing in some rows,
  // so they are computed here the way the workbook defines them.
  const remainder = (first: number | null, second: number | null): number | null =>
    first === null || second === null ? null : roundFraction(1 - first - second);
  return {
    recycledPercentageFeedstock: recycledFeedstock,
    rapidRenewablesPercentageFeedstock: rapidRenewablesFeedstock,
    virginPercentageFeedstock:
      read.fraction('virginFeedstock') ?? remainder(recycledFeedstock, rapidRenewablesFeedstock),
    recycledPercentageEndOfLife: recycledEndOfLife,
    landfillPercentageEndOfLife: landfillEndOfLife,
    incinerationPercentageEndOfLife: remainder(landfillEndOfLife, recycledEndOfLife),
    efficiencyPercentageRecyclingFeedstock: read.fraction('efficiencyFeedstock'),
    efficiencyPercentageRecyclingEndOfLife: read.fraction('efficiencyEndOfLife'),
  };
}

/** Turns a search criterion written with `*` wildcards (`*beton*`, `houtwolcem*`, `gibo`) into a match rule. */
export function parseSearchCriterion(criterion: string, where: string): MaterialMatchSeed {
  const leading = criterion.startsWith('*');
  const trailing = criterion.length > 1 && criterion.endsWith('*');
  const value = criterion.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  if (value.trim() === '' || value.includes('*')) {
    throw new Error(`${where}: search criterion "${criterion}" has a wildcard inside or nothing to match`);
  }
  if (leading && trailing) {
    return { value, matchType: MatchType.Contains };
  }
  if (leading) {
    return { value, matchType: MatchType.EndsWith };
  }
  return { value, matchType: trailing ? MatchType.StartWith : MatchType.Equals };
}

interface MaterialRowReader {
  text(column: MaterialColumn): string | null;
  /** The text a formula cell last computed, as the workbook saved it. */
  formulaResult(column: MaterialColumn): string | null;
  requiredText(column: MaterialColumn): string;
  number(column: MaterialColumn): number | null;
  /** A share as a fraction; the workbook writes 0..1 although its headers say %, anything above 1 is refused. */
  fraction(column: MaterialColumn): number | null;
}

function materialRowReader(sheet: Worksheet, rowNumber: number): MaterialRowReader {
  const address = (column: MaterialColumn): string => `${COLUMNS[column].column}${rowNumber}`;
  const value = (column: MaterialColumn): CellValue => sheet.getCell(address(column)).value;
  const number = (column: MaterialColumn): number | null => {
    const cell = value(column);
    if (cell === null || cell === undefined || cell === '') {
      return null;
    }
    if (typeof cell !== 'number' || !Number.isFinite(cell) || cell < 0) {
      throw new Error(`Materials!${address(column)}: expected a non-negative number, found ${JSON.stringify(cell)}`);
    }
    return cell;
  };
  return {
    text: (column) => cellText(value(column)),
    formulaResult: (column) => {
      const cell = value(column);
      return cell !== null && typeof cell === 'object' && 'result' in cell ? cellText(cell.result as CellValue) : null;
    },
    requiredText: (column) => {
      const text = cellText(value(column));
      if (text === null) {
        throw new Error(`Materials!${address(column)}: ${COLUMNS[column].header} is empty`);
      }
      return text;
    },
    number,
    fraction: (column) => {
      const share = number(column);
      if (share !== null && share > 1) {
        throw new Error(`Materials!${address(column)}: ${share} is not a fraction (0..1)`);
      }
      return share;
    },
  };
}

function assertHeaders(sheet: Worksheet): void {
  for (const { column, header } of Object.values(COLUMNS)) {
    // Row 2 labels the columns under merged groups; columns without a group are labelled in row 1.
    const label = cellText(sheet.getCell(`${column}2`).value) ?? cellText(sheet.getCell(`${column}1`).value);
    if (label !== header) {
      throw new Error(`Materials!${column}: expected header "${header}", found "${String(label)}"`);
    }
  }
}

/** Columns whose (merged) group header in row 1 says "Search criteria …", in sheet order. */
function searchCriteriaColumns(sheet: Worksheet): string[] {
  const columns: string[] = [];
  sheet.getRow(1).eachCell((cell) => {
    if (cellText(cell.value)?.startsWith(SEARCH_CRITERIA_GROUP)) {
      columns.push(cell.address.replace(/\d+$/, ''));
    }
  });
  if (columns.length === 0) {
    throw new Error('Materials: no "Search criteria" columns in row 1');
  }
  return columns;
}

/** NL-SfB table 3 id → the label the workbook shows ("H2- Steel, mild steel"). */
function readTable3Labels(sheet: Worksheet): Map<string, string> {
  const labels = new Map<string, string>();
  sheet.eachRow((row, rowNumber) => {
    const id = cellText(row.getCell(1).value);
    const label = cellText(row.getCell(5).value);
    if (rowNumber > 1 && id !== null && label !== null) {
      labels.set(id, label);
    }
  });
  return labels;
}

function readPriceSetIds(sheet: Worksheet): Set<string> {
  const ids = new Set<string>();
  sheet.eachRow((row, rowNumber) => {
    const id = cellText(row.getCell(1).value);
    if (rowNumber > 1 && id !== null) {
      ids.add(id);
    }
  });
  return ids;
}

function correctedEnglishName(
  corrections: Map<string, { was: string; becomes: string }>,
  id: string,
  english: string,
): string {
  const correction = corrections.get(id);
  if (correction === undefined) {
    return english;
  }
  if (correction.was !== english) {
    throw new Error(`Material ${id}: the workbook now says "${english}"; review the correction of "${correction.was}"`);
  }
  return correction.becomes;
}

function requireSheet(workbook: Workbook, name: string): Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (sheet === undefined) {
    throw new Error(`The workbook has no sheet "${name}"`);
  }
  return sheet;
}

/** Text of a constant cell, whitespace collapsed; null when empty. Formula cells are never read as data. */
function cellText(value: CellValue): string | null {
  let text: string;
  if (typeof value === 'string') {
    text = value;
  } else if (typeof value === 'number') {
    text = String(value);
  } else if (value !== null && typeof value === 'object' && 'richText' in value) {
    text = value.richText.map((run) => run.text).join('');
  } else {
    return null;
  }
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? null : collapsed;
}

function localized(text: (language: keyof LocalizedText) => string): LocalizedText {
  return { nl: text('nl'), en: text('en'), de: text('de'), it: text('it'), fr: text('fr'), es: text('es') };
}

function roundFraction(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

// ---------------------------------------------------------------------------------------------------------------
// Indicative prices per price set (decisions §7)

interface PriceSetPrice {
  eurPerKg: number;
  valueDate: string;
  source: string;
}

const FINANCIAL_PDF = 'Madaster financial method (Madaster - Financial.pdf, §3.1)';
const WORLD_BANK_2023 =
  'World Bank Commodity Price Data (Pink Sheet), 2023 annual average, converted at the ECB 2023 average of ' +
  '1.0813 USD/EUR';
const USD_PER_EUR_2023 = 1.0813;
const TROY_OUNCES_PER_KG = 32.1507466;
const MID_2023 = '2023-07-01T00:00:00.000Z';
const START_2018 = '2018-01-01T00:00:00.000Z';

/** Four significant digits: these are indicative prices, more digits would claim a precision they do not have. */
function indicative(eurPerKg: number): number {
  return Number(eurPerKg.toPrecision(4));
}

function documented(eurPerKg: number, valueDate: string, source: string): PriceSetPrice {
  return { eurPerKg, valueDate, source };
}

function worldBankPerTonne(usdPerTonne: number, commodity: string): PriceSetPrice {
  return {
    eurPerKg: indicative(usdPerTonne / USD_PER_EUR_2023 / 1000),
    valueDate: MID_2023,
    source: `${WORLD_BANK_2023}: ${commodity} ${usdPerTonne} USD/t`,
  };
}

function worldBankPerTroyOunce(usdPerTroyOunce: number, commodity: string): PriceSetPrice {
  return {
    eurPerKg: indicative((usdPerTroyOunce * TROY_OUNCES_PER_KG) / USD_PER_EUR_2023),
    valueDate: MID_2023,
    source: `${WORLD_BANK_2023}: ${commodity} ${usdPerTroyOunce} USD/troy oz`,
  };
}

/** A price set the workbook defines as a mix of others ("… calculated from 'Copper' (80%) and 'Tin' (20%)"). */
function blend(parts: [PriceSetPrice, number, string][]): PriceSetPrice {
  const eurPerKg = parts.reduce((sum, [price, share]) => sum + price.eurPerKg * share, 0);
  const valueDate = parts.map(([price]) => price.valueDate).sort().at(-1) ?? MID_2023;
  const mix = parts
    .map(([price, share, name]) => `${Math.round(share * 100)}% ${name} (${price.eurPerKg} EUR/kg)`)
    .join(' + ');
  return { eurPerKg: indicative(eurPerKg), valueDate, source: `Mix defined by the workbook's price set: ${mix}` };
}

const SAME_IN_WORKBOOK = "the price set's description in the workbook gives the same on 2018-01-01";

const wood = documented(0.18, START_2018, `${FINANCIAL_PDF}: wood 0.18 EUR/kg; ${SAME_IN_WORKBOOK}`);
const concrete = documented(
  0.0035,
  START_2018,
  `${FINANCIAL_PDF}: concrete granules 0.0035 EUR/kg (interviews BRBS & GBN); the workbook's description of this ` +
    'price set says 0.03 EUR/kg on 2018-01-01, decisions §7 follows the PDF',
);
const mixedStones = documented(
  0.05,
  START_2018,
  'Workbook price set description: stone index FRED with 0.05 EUR/kg on 2018-01-01 ' +
    `(${FINANCIAL_PDF}: ceramics 0.05 on the same base)`,
);
const gypsum = documented(
  0.024,
  '2017-05-01T00:00:00.000Z',
  `${FINANCIAL_PDF}: plaster 0.024 EUR/kg; the price set's description in the workbook dates it 2017-05-01`,
);
const copper = worldBankPerTonne(8490, 'copper');
const zinc = worldBankPerTonne(2653, 'zinc');
const tin = worldBankPerTonne(25938, 'tin');
const steelScrap: PriceSetPrice = {
  eurPerKg: indicative(400 / USD_PER_EUR_2023 / 1000),
  valueDate: MID_2023,
  source:
    'Steel scrap HMS 1&2 (80:20) CFR Turkey, the benchmark the LME steel scrap contract settles on: about 400 USD/t ' +
    'on average in 2023 (rounded to 50 USD/t), converted at the ECB 2023 average of 1.0813 USD/EUR',
};

/**
 * Indicative price per kg for each price set the workbook uses where a documented figure exists. Not seeded: plastics
 * (ABS, PC, PMMA, PVC, PE, PP and their mixes: no public average we could state with a source and date), rubber,
 * wool and mineral wool (half wool).
 */
const PRICE_SET_PRICES: Readonly<Record<string, PriceSetPrice>> = {
  'B-WOOD_CALC': wood,
  HARDWOOD_CALC: wood,
  SOFTWOOD_CALC: wood,
  CONCRETE_CALC: concrete,
  STONES_CALC: mixedStones,
  CERAMIC_CALC: documented(0.05, START_2018, `${FINANCIAL_PDF}: ceramics 0.05 EUR/kg; ${SAME_IN_WORKBOOK}`),
  SAND_CALC: documented(0.033, START_2018, `${FINANCIAL_PDF}: sand 0.033 EUR/kg; ${SAME_IN_WORKBOOK}`),
  GLASS_CALC: documented(
    0.19,
    START_2018,
    `${FINANCIAL_PDF}: flat glass 0.19 EUR/kg; the price set's description in the workbook calls it the 2018 base ` +
      'price',
  ),
  GYPSUM_CALC: gypsum,
  ASPHALT_CALC: documented(0.0075, START_2018, `${FINANCIAL_PDF}: asphalt granules 0.0075 EUR/kg; ${SAME_IN_WORKBOOK}`),
  GRAVEL_CALC: documented(
    0.016,
    START_2018,
    `${FINANCIAL_PDF}: gravel 0.016 EUR/kg; the workbook's description of this price set says 0.08 EUR/kg on ` +
      '2018-01-01, decisions §7 follows the PDF',
  ),
  CORK: documented(
    1,
    START_2018,
    `${FINANCIAL_PDF}: cork 1.00 EUR/kg (the PDF is undated; dated like the workbook's other base prices)`,
  ),
  ASBEST: documented(0, START_2018, `${FINANCIAL_PDF}: asbestos 0 EUR/kg`),
  'GYPSUM-WOOD_CALC': blend([
    [wood, 0.5, 'B-wood'],
    [gypsum, 0.5, 'gypsum'],
  ]),
  'CONCRETE-WOOD_CALC': blend([
    [wood, 0.5, 'B-wood'],
    [mixedStones, 0.5, 'mixed stones'],
  ]),
  'CONCRETE-A_CALC': blend([
    [concrete, 0.99, 'concrete'],
    [steelScrap, 0.01, 'steel'],
  ]),
  SC_LME: steelScrap,
  CU_LME: copper,
  ZI_LME: zinc,
  TN_LME: tin,
  PB_LME: worldBankPerTonne(2136, 'lead'),
  AA_LME: {
    ...worldBankPerTonne(2256, 'aluminum'),
    source:
      `${WORLD_BANK_2023}: aluminum 2256 USD/t (primary aluminium; the price set is the LME aluminium alloy ` +
      'contract, which traded some 10–15% lower in 2023)',
  },
  BRONZE_CALC: blend([
    [copper, 0.8, 'copper'],
    [tin, 0.2, 'tin'],
  ]),
  MESSING_CALC: blend([
    [copper, 0.6, 'copper'],
    [zinc, 0.4, 'zinc'],
  ]),
  GOLD_LBMA: worldBankPerTroyOunce(1943, 'gold'),
  SILVER_LBMA: worldBankPerTroyOunce(23.4, 'silver'),
  PLAT_LPPM: worldBankPerTroyOunce(966, 'platinum'),
};

// ---------------------------------------------------------------------------------------------------------------
// NL-SfB

/** The NL-SfB method: the API fixes its id; the type and level-type ids are ours (the platform publishes none). */
const NL_SFB_METHOD = {
  id: 'fc6b8c6b-acb6-4c8a-a18b-fafee57964f1',
  name: {
    nl: 'NL-SfB (2019) elementenclassificatie',
    en: 'NL-SfB (2019) element classification',
    de: 'NL-SfB (2019) Bauteilklassifikation',
    it: 'NL-SfB (2019) classificazione degli elementi',
    fr: 'NL-SfB (2019) classification des éléments',
    es: 'NL-SfB (2019) clasificación de elementos',
  },
  classificationTypeId: '6df9a1e2-70f6-40c7-a696-3a0a4b42fbdd',
  classificationLevelTypeId: '3f0c2a57-8f1e-4d55-9b8e-52e1a6c0d7b4',
};

const NL_SFB_NOTES = [
  'Generated by server/store/seed/generate.ts from NL-SfB_2019_assembly_code.txt (tab-separated, ISO-8859-1); ' +
    'do not edit by hand.',
  'Codes as the file writes them: "2-" is a main group (RUWBOUW), "21" an element, "21.2" and "21.25" its ' +
    'subdivisions; "0-.1" and "0-.10" subdivide "0-".',
  'parentCode: the next coarser code that exists ("21.25" → "21.2" → "21" → "2-"; "0-.10" → "0-.1" → "0-").',
  'name: the file\'s Dutch name, quotes removed. The file\'s level and Revit category columns are not kept; its last ' +
    'line (00 www.revitlog.nl) names its author, it is not a code.',
  'classificationTypeId and classificationLevelTypeId: fixed ids of our own (the platform does not publish ' +
    'its values).',
];

const NL_SFB_CODE = /^(?:\d-|\d\d)(?:\.\d{1,2})?$/;
const NL_SFB_AUTHOR_LINE = '00';

/** Converts the NL-SfB 2019 code list (tab-separated, ISO-8859-1) into the classification method and its codes. */
export function convertNlSfbCodeList(content: Buffer): ClassificationData {
  // ISO-8859-1 maps each byte to the code point of the same value, which is exactly Node's 'latin1'.
  const lines = content.toString('latin1').split(/\r?\n/);
  const codes: ClassificationCodeSeed[] = [];
  const known = new Set<string>();
  lines.forEach((line, index) => {
    if (line.trim() === '') {
      return;
    }
    const [code = '', rawName = ''] = line.split('\t');
    if (code === NL_SFB_AUTHOR_LINE) {
      return;
    }
    if (!NL_SFB_CODE.test(code) || known.has(code)) {
      throw new Error(`NL-SfB line ${index + 1}: "${code}" is not a new NL-SfB code`);
    }
    const name = unquote(rawName);
    if (name === '') {
      throw new Error(`NL-SfB line ${index + 1}: code ${code} has no name`);
    }
    known.add(code);
    codes.push({ code, parentCode: null, name });
  });
  for (const entry of codes) {
    entry.parentCode = nearestExistingAncestor(entry.code, known);
  }
  return {
    source: 'NL-SfB_2019_assembly_code.txt (madaster/madaster.github.io, files/be/en/NL-SfB 2019 assembly code.txt)',
    notes: NL_SFB_NOTES,
    method: NL_SFB_METHOD,
    codes,
  };
}

// The walk to coarser codes is refinement's rule (server/refine/nl-sfb.ts); re-exported for this module's users.
export { coarserNlSfbCode };

function nearestExistingAncestor(code: string, known: Set<string>): string | null {
  let candidate = coarserNlSfbCode(code);
  while (candidate !== null && !known.has(candidate)) {
    candidate = coarserNlSfbCode(candidate);
  }
  return candidate;
}

/** A field as the file writes it: names containing `;` or `,` are double-quoted, with `""` for a quote. */
function unquote(field: string): string {
  const trimmed = field.trim();
  const quoted = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
  const inner = quoted ? trimmed.slice(1, -1).replaceAll('""', '"') : trimmed;
  return inner.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  for (const file of await generateSeedFiles()) {
    await writeFile(file.path, file.content, 'utf8');
    console.log(`wrote ${path.relative(REPOSITORY_ROOT, file.path)}`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
