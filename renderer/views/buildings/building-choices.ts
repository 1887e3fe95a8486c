/**
 * The lists the building form offers where the API takes free text: energy labels, countries (stored as their ISO
 * 3166-1 alpha-2 code, the "identifier of the country" the API asks for and the passports name in their language),
 * and the platform's building usages. The API keeps accepting any text in these fields (decisions §1); the form
 * offers the lists, refuses an energy label or a country outside them, and still takes a usage of the user's own.
 */
import { fold } from '../catalogues/catalogue-search';

/**
 * The energy labels, best first: the classes A to G of the EU's energy performance certificates, the Dutch A+ to
 * A++++ above A, Italy's A1 to A4 and Germany's H.
 */
export const ENERGY_LABELS = ['A++++', 'A+++', 'A++', 'A+', 'A4', 'A3', 'A2', 'A1', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;

/** Whether a text is an energy label of the list, as written there. */
export function isEnergyLabel(value: string): boolean {
  return (ENERGY_LABELS as readonly string[]).includes(value);
}

/** The label of the list a stored energy label is in any letter case (`a+` → `A+`); null for any other text. */
export function energyLabelOf(value: string): string | null {
  const label = value.trim().toUpperCase();
  return isEnergyLabel(label) ? label : null;
}

/** The officially assigned ISO 3166-1 alpha-2 codes. */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF ' +
  'CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG ' +
  'GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP ' +
  'KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC ' +
  'NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ ' +
  'SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN ' +
  'VU WF WS YE YT ZA ZM ZW'
).split(' ');

const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** The code of a stored country when it is one, in capitals (`nl` → `NL`); null for any other text. */
export function countryCodeOf(value: string): string | null {
  const code = value.trim().toUpperCase();
  return COUNTRY_CODE_SET.has(code) ? code : null;
}

/** A country of the list: its code, its name in the user's language and the names a search also finds it by. */
export interface CountryChoice {
  code: string;
  name: string;
  /** Folded: the code, the name in the user's language and in English. */
  searchText: string;
}

/** The names of countries in `locale`. */
function countryNames(locale: string): Intl.DisplayNames {
  return new Intl.DisplayNames([locale], { type: 'region' });
}

/** Every country, by its name in `locale`, found by that name, its English name or its code. */
export function countryChoices(locale: string): CountryChoice[] {
  const names = countryNames(locale);
  const english = countryNames('en');
  return COUNTRY_CODES.map((code) => {
    const name = names.of(code) ?? code;
    return { code, name, searchText: fold(`${code}\n${name}\n${english.of(code) ?? ''}`) };
  }).sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** A stored country in words: a code of the list as the country's name in `locale`, any other text as it is. */
export function countryText(value: string, locale: string): string {
  const code = countryCodeOf(value);
  return code === null ? value : (countryNames(locale).of(code) ?? code);
}

/** Whether a country matches what the user typed: every word of it in the country's code or names. */
export function countryMatches(choice: CountryChoice, query: string): boolean {
  return fold(query)
    .split(/\s+/)
    .filter((word) => word !== '')
    .every((word) => choice.searchText.includes(word));
}

/**
 * The building usages of the platform, as it stores them (its own spelling kept): the form offers them in the user's
 * language and stores these values.
 */
export const BUILDING_USAGES = [
  'Accomodation Lodging',
  'Community Small Complex',
  'Community Large Complex',
  'Community Theatre',
  'Education MBO/ HBO/ WO',
  'Secondary Education',
  'Basic Education',
  'Healthcare Carehome Row',
  'Healthcare Carehome Detached',
  'Healthcare Carehome Appartments',
  'Healthcare Carehome Gallery',
  'Industry Business Building Small',
  'Industry Business Building Large',
  'Other',
  'Jail',
  'Offices Small',
  'Offices Large',
  'Detached House',
  'Semi Detached',
  'Terraced House',
  'Maisonette',
  'Gallery House',
  'Staircase Entrance Flat',
  'Appartments',
  'Corner House',
  'Sports Hall',
  'Swimming Pool',
  'Indoor Shopping Center Unit',
  'Outdoor Shopping Center Unit',
  'Shop Unit Large',
  'Shop Unit Small',
] as const;

/** A building usage of the platform. */
export type BuildingUsage = (typeof BUILDING_USAGES)[number];

/** Whether a stored usage is one of the platform's. */
export function isBuildingUsage(value: string): value is BuildingUsage {
  return (BUILDING_USAGES as readonly string[]).includes(value);
}
