/** Indicative prices per price set of the materials workbook (decisions §7), each naming its source. */

export interface PriceSetPrice {
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
export const PRICE_SET_PRICES: Readonly<Record<string, PriceSetPrice>> = {
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
