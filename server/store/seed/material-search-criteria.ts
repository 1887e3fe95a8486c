/** A material's search criteria in the workbook (`*beton*`, `gibo`) and the match rules they become. */
import type { Worksheet } from 'exceljs';
import { cellText } from './workbook-cells';
import type { MaterialMatchSeed } from './system-data';

/** MatchType values of the API. */
const MatchType = { Contains: 10, Equals: 11, StartWith: 12, EndsWith: 13 } as const;

const SEARCH_CRITERIA_GROUP = 'Search criteria';

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

/** Columns whose (merged) group header in row 1 says "Search criteria …", in sheet order. */
export function searchCriteriaColumns(sheet: Worksheet): string[] {
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
