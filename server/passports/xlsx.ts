/**
 * The Excel passport, written with exceljs's streaming WorkbookWriter: a summary sheet (identity, CI, validation,
 * financial), a building layers sheet, a material families sheet and an elements sheet with one row per element. Each
 * sheet is committed before the next starts, and element rows are committed one by one as the async iterable yields
 * them, so memory stays flat however many elements a building has.
 */
import { once, type EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Cell as ExcelCell, Row, Worksheet } from 'exceljs';
import { BuildingLevel } from '../../shared/api';
import { financialYears } from '../calc/financial';
import { layerOf } from '../calc/inputs';
import { MISSING, passportText, type PassportText } from './i18n';
import type { BuildingPassportData, PassportElementRow } from './passport-data';
import { LEVEL_ORDER, PALETTE } from './theme';

/** Rows between two pauses that let the zip stream drain (and honour `output`'s backpressure). */
const DRAIN_EVERY = 500;

const ARGB = (hex: string) => `FF${hex.replace('#', '').toUpperCase()}`;
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: ARGB(PALETTE.primary) } };
const SECTION_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: ARGB(PALETTE.tint) } };
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFFFFFFF' } };

/** Number formats (Excel shows the separators of the reader's own locale). */
const FORMAT = {
  percent: '0.0%',
  integer: '#,##0',
  one: '#,##0.0',
  two: '#,##0.00',
  three: '#,##0.000',
} as const;

/** Euro format: the symbol before the amount in nl and en, after it elsewhere; negative amounts in red. */
function euroFormat(t: PassportText): string {
  return t.language === 'nl' || t.language === 'en'
    ? '"€" #,##0;[Red]"€" -#,##0'
    : '#,##0 "€";[Red]-#,##0 "€"';
}

/** Date format in the language's usual order and separator. */
function dateFormat(t: PassportText): string {
  switch (t.language) {
    case 'de':
      return 'dd.mm.yyyy';
    case 'nl':
      return 'dd-mm-yyyy';
    default:
      return 'dd/mm/yyyy';
  }
}

/**
 * Writes the Excel passport in `data.language` to `output`, reading `data.elements` once, row by row; resolves once
 * `output` has finished. On failure `output` is destroyed with the error and the promise rejects.
 */
export async function writeBuildingPassportExcel(data: BuildingPassportData, output: Writable): Promise<void> {
  const t = passportText(data.language);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Circularity Desk';
  workbook.lastModifiedBy = 'Circularity Desk';
  workbook.created = data.generatedAt;
  workbook.modified = data.generatedAt;
  workbook.title = `${t.m.materialPassport} – ${data.building.name}`;
  try {
    writeSummarySheet(workbook, data, t);
    writeLayersSheet(workbook, data, t);
    writeFamiliesSheet(workbook, data, t);
    await writeElementsSheet(workbook, data.elements, t, output);
    await workbook.commit(); // resolves on `output`'s 'finish'
  } catch (error) {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/** A worksheet with a frozen, styled header row, the given columns and (optionally) an autofilter over them. */
function addTableSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: ReadonlyArray<{ header: string; width: number; numFmt?: string; align?: 'left' | 'right' }>,
): Worksheet {
  const sheet = workbook.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, activeCell: 'A2' }],
    properties: { defaultRowHeight: 16 },
  });
  sheet.columns = columns.map((column) => ({
    width: column.width,
    style: column.numFmt ? { numFmt: column.numFmt } : {},
  }));
  const header = sheet.addRow(columns.map((column) => column.header));
  header.height = 22;
  header.eachCell((cell, index) => {
    cell.font = HEADER_FONT;
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'middle', horizontal: columns[index - 1]?.align ?? 'left', wrapText: true };
  });
  header.commit();
  return sheet;
}

/** Column letter of a 1-based column number (≤ 702 columns). */
function columnLetter(column: number): string {
  const first = Math.floor((column - 1) / 26);
  const second = ((column - 1) % 26) + 1;
  return (first > 0 ? String.fromCharCode(64 + first) : '') + String.fromCharCode(64 + second);
}

type SummaryValue = string | number | Date | null | undefined;

function writeSummarySheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, data: BuildingPassportData, t: PassportText): void {
  const sheet = addTableSheet(workbook, t.m.sheetSummary, [
    { header: t.m.field, width: 46 },
    { header: t.m.value, width: 34, align: 'right' },
  ]);
  const euro = euroFormat(t);
  const section = (title: string) => {
    const row = sheet.addRow([title, null]);
    row.font = { bold: true, color: { argb: ARGB(PALETTE.primary) } };
    row.eachCell({ includeEmpty: true }, (cell) => {
      cell.fill = SECTION_FILL;
    });
    row.commit();
  };
  const line = (label: string, value: SummaryValue, numFmt?: string) => {
    const missing = value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
    const row: Row = sheet.addRow([label, missing ? MISSING : value]);
    const cell: ExcelCell = row.getCell(2);
    cell.alignment = { horizontal: 'right' };
    if (!missing && numFmt) cell.numFmt = numFmt;
    row.commit();
  };
  const date = (iso: string | null) => {
    if (iso === null) return null;
    const parsed = new Date(iso);
    return Number.isNaN(parsed.getTime()) ? null : parsed;
  };

  const b = data.building;
  line(t.m.generatedBy(t.f.date(data.generatedAt)), data.generatedAt, dateFormat(t));
  section(t.m.identity);
  line(t.m.name, b.name);
  const street = [b.addressStreet, b.addressHousenumber, b.addressHousenumberAddition].filter(Boolean).join(' ');
  const city = [b.addressZipcode, b.addressCity].filter(Boolean).join(' ');
  line(t.m.address, [street, city, t.f.country(b.addressCountry)].filter(Boolean).join(', '));
  line(t.m.buildingUsage, b.buildingUsage);
  line(`${t.m.grossFloorArea} (m²)`, b.grossSurfaceArea, FORMAT.one);
  line(t.m.completionDate, date(b.completionDate), dateFormat(t));
  line(t.m.lastRenovation, date(b.lastRenovationDate), dateFormat(t));
  line(t.m.energyLabel, b.energyLabel);
  line(t.m.energyPerformanceCoefficient, b.energyPerformanceCoefficient, FORMAT.two);
  line(t.m.energyIndex, b.energyIndex, FORMAT.two);
  line(t.m.cadastralDesignation, b.cadastralDesignation);
  line(`${t.m.cadastralArea} (m²)`, b.cadastralArea, FORMAT.integer);
  line(t.m.parcelNumber, b.parcelnumber);
  line('BREEAM', b.breeamLabel, FORMAT.integer);
  line('GPR', b.gprLabel, FORMAT.one);
  line('MPG', b.mpgLabel, FORMAT.two);
  line('LEED', b.leedLabel);

  section(`${t.m.expectedLifespans} (${t.m.yearsLabel})`);
  const L = BuildingLevel;
  line(t.m.wholeBuilding, b.expectedLifespan, FORMAT.integer);
  line(t.level(L.Structure.id), b.expectedLifespanStructure, FORMAT.integer);
  line(t.level(L.Skin.id), b.expectedLifespanSkin, FORMAT.integer);
  line(t.level(L.Services.id), b.expectedLifespanServices, FORMAT.integer);
  line(t.level(L.SpacePlan.id), b.expectedLifespanSpacePlan, FORMAT.integer);
  line(t.level(L.Stuff.id), b.expectedLifespanStuff, FORMAT.integer);

  section(t.m.circularity);
  const c = data.circular;
  line(t.m.constructionPhase, c.circularityConstructionPhase, FORMAT.percent);
  line(t.m.usagePhase, c.circularityUsagePhase, FORMAT.percent);
  line(t.m.endOfLifePhase, c.circularityEndOfLifePhase, FORMAT.percent);
  line(t.m.ciScoreBuilding, c.ciScoreBuilding, FORMAT.percent);
  line(t.m.correctionMaterials, c.correctionUnknownMaterials, FORMAT.percent);
  line(t.m.correctionLayers, c.correctionUnknownBrandLayer, FORMAT.percent);
  line(t.m.ciScore, c.madasterCiScore, FORMAT.percent);

  section(t.m.counting);
  line(t.m.counted, data.counting.counted.elements, FORMAT.integer);
  for (const count of data.counting.notCounted) line(t.m.notCountedReasons[count.reason], count.elements, FORMAT.integer);
  line(t.m.total, data.counting.elements, FORMAT.integer);

  section(t.m.validation);
  const v = data.validation;
  const both = (label: string, byNumber: number, byVolume: number | null) => {
    line(`${label} – ${t.m.byNumber.toLocaleLowerCase(t.m.locale)}`, byNumber, FORMAT.percent);
    if (byVolume !== null) line(`${label} – ${t.m.byVolume.toLocaleLowerCase(t.m.locale)}`, byVolume, FORMAT.percent);
  };
  both(t.m.classificationAssigned, v.percentageClassificationAssignedByNumber, v.percentageClassificationAssignedByVolume);
  both(t.m.materialSpecified, v.percentageMaterialSpecifiedByNumber, v.percentageMaterialSpecifiedByVolume);
  both(t.m.elementsMapped, v.percentageElementsMappedByNumber, v.percentageElementsMappedByVolume);
  both(t.m.knownMass, v.percentageElementsWithKnownMassByNumber, null);
  both(t.m.volumeGiven, v.percentageVolumeBaseQuantityAssignedByNumber, null);
  both(t.m.areaGiven, v.percentageAreaBaseQuantityAssignedByNumber, null);
  both(t.m.lengthGiven, v.percentageLengthBaseQuantityAssignedByNumber, null);
  both(t.m.baseQuantitiesGiven, v.percentageBaseQuantitiesAssignedByNumber, null);

  section(t.m.financial);
  line(`${t.m.currentValue} (€)`, data.financial.currentValue, euro);
  line(`${t.m.ncwValue} (€)`, data.financial.ncwValue, euro);
  for (const level of sortLevels(data.financial.ncwValuePerBuildingLevel)) {
    line(`${t.m.ncwValue} – ${t.level(level.id, level.label)} (€)`, level.value, euro);
  }
  sheet.commit();
}

function sortLevels<T extends { id: string }>(levels: readonly T[]): T[] {
  const rank = (id: string) => {
    const index = LEVEL_ORDER.indexOf(id.toLowerCase());
    return index === -1 ? LEVEL_ORDER.length : index;
  };
  return [...levels].sort((a, b) => rank(a.id) - rank(b.id));
}

function writeLayersSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, data: BuildingPassportData, t: PassportText): void {
  const columns = [
    { header: t.m.layer, width: 28 },
    { header: t.m.elements, width: 14, numFmt: FORMAT.integer, align: 'right' as const },
    { header: t.m.massKg, width: 18, numFmt: FORMAT.one, align: 'right' as const },
    { header: t.m.share, width: 12, numFmt: FORMAT.percent, align: 'right' as const },
    { header: `${t.m.lifespan} (${t.m.yearsLabel})`, width: 18, numFmt: FORMAT.integer, align: 'right' as const },
  ];
  const sheet = addTableSheet(workbook, t.m.sheetLayers, columns);
  const layers = sortLevels(data.layers);
  const total = layers.reduce((sum, layer) => sum + layer.mass, 0);
  for (const layer of layers) {
    sheet
      .addRow([
        t.level(layer.id, layer.label),
        layer.elementCount,
        layer.mass,
        total > 0 ? layer.mass / total : null,
        financialYears(data.building, layerOf(layer.id)),
      ])
      .commit();
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, layers.length + 1), column: columns.length } };
  sheet.commit();
}

function writeFamiliesSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, data: BuildingPassportData, t: PassportText): void {
  const columns = [
    { header: t.m.family, width: 28 },
    { header: t.m.massKg, width: 18, numFmt: FORMAT.one, align: 'right' as const },
    { header: t.m.share, width: 12, numFmt: FORMAT.percent, align: 'right' as const },
    { header: `${t.m.currentValue} (€)`, width: 20, numFmt: euroFormat(t), align: 'right' as const },
  ];
  const sheet = addTableSheet(workbook, t.m.sheetFamilies, columns);
  const families = [...data.families].sort((a, b) => b.mass - a.mass);
  const total = families.reduce((sum, family) => sum + family.mass, 0);
  for (const family of families) {
    sheet.addRow([t.family(family.family), family.mass, total > 0 ? family.mass / total : null, family.value]).commit();
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, families.length + 1), column: columns.length } };
  sheet.commit();
}

/** The element columns, in sheet order, with how each row fills them. */
function elementColumns(t: PassportText) {
  const right = 'right' as const;
  return [
    { header: t.m.elementId, width: 26, value: (e: PassportElementRow) => e.id },
    { header: t.m.elementName, width: 30, value: (e: PassportElementRow) => e.name },
    { header: t.m.ifcClass, width: 18, value: (e: PassportElementRow) => e.elementClass },
    { header: t.m.typeName, width: 28, value: (e: PassportElementRow) => e.typeName },
    { header: t.m.sourceMaterial, width: 26, value: (e: PassportElementRow) => e.materialName },
    { header: t.m.mappedTo, width: 30, value: (e: PassportElementRow) => e.mappedName },
    { header: t.m.classificationCode, width: 16, value: (e: PassportElementRow) => e.classificationCode },
    { header: t.m.layer, width: 20, value: (e: PassportElementRow) => (e.brandLayer ? t.level(e.brandLayer.id, e.brandLayer.name) : null) },
    { header: t.m.phase, width: 14, value: (e: PassportElementRow) => (e.phase ? t.phase(e.phase.id, e.phase.name) : null) },
    { header: t.m.floor, width: 14, value: (e: PassportElementRow) => e.floor },
    { header: t.m.volumeM3, width: 14, numFmt: FORMAT.three, align: right, value: (e: PassportElementRow) => e.volume },
    { header: t.m.areaM2, width: 14, numFmt: FORMAT.two, align: right, value: (e: PassportElementRow) => e.area },
    { header: t.m.lengthM, width: 13, numFmt: FORMAT.three, align: right, value: (e: PassportElementRow) => e.length },
    { header: t.m.widthM, width: 13, numFmt: FORMAT.three, align: right, value: (e: PassportElementRow) => e.width },
    { header: t.m.heightM, width: 13, numFmt: FORMAT.three, align: right, value: (e: PassportElementRow) => e.height },
    { header: t.m.weightKg, width: 14, numFmt: FORMAT.one, align: right, value: (e: PassportElementRow) => e.weight },
    { header: t.m.massKg, width: 14, numFmt: FORMAT.one, align: right, value: (e: PassportElementRow) => e.mass },
    { header: t.m.inIndex, width: 28, value: (e: PassportElementRow) => (e.notCounted === null ? t.m.counts : t.m.notCountedReasons[e.notCounted]) },
  ];
}

/**
 * Waits until what the sheet has written so far has moved on. exceljs's sheet stream hands its 64 KiB blocks to the zip
 * entry without looking at `write`'s answer, so nothing slows the rows down: without this wait the uncompressed XML
 * piles up in the zip's input buffer (measured: 70 % of the sheet still queued when the last of 10,000 rows was read).
 * The zip entry's own `writableNeedDrain` is the signal; it also carries `output`'s backpressure, which reaches it
 * through archiver's pipe. exceljs 4.4.0 internals (`stream.pipes`): if they ever differ, only `output` is watched.
 */
async function drain(sheet: Worksheet, output: Writable): Promise<void> {
  const sheetStream = (sheet as unknown as { stream?: { pipes?: unknown } }).stream;
  const pipes = Array.isArray(sheetStream?.pipes) ? (sheetStream.pipes as unknown[]) : [];
  for (const pipe of pipes) {
    // archiver's entry stream is a readable-stream v2 PassThrough: no `writableNeedDrain`, the state says it.
    const writable = pipe as Partial<EventEmitter> & { writableNeedDrain?: boolean; _writableState?: { needDrain?: boolean } };
    if (typeof writable.once === 'function' && (writable.writableNeedDrain ?? writable._writableState?.needDrain ?? false)) {
      await once(writable as EventEmitter, 'drain');
    }
  }
  if (output.writableNeedDrain) await once(output, 'drain');
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * One row per element, committed as soon as it is read; every `DRAIN_EVERY` rows the loop waits for the zip stream
 * (and `output`) to take what was written, so memory stays flat however many elements there are.
 */
async function writeElementsSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  elements: BuildingPassportData['elements'],
  t: PassportText,
  output: Writable,
): Promise<void> {
  const columns = elementColumns(t);
  const sheet = addTableSheet(workbook, t.m.sheetElements, columns);
  let count = 0;
  for await (const element of elements) {
    // Unknown values stay empty cells (not "—"), so sums and filters work on the numeric columns.
    sheet.addRow(columns.map((column) => column.value(element) ?? null)).commit();
    count++;
    if (count % DRAIN_EVERY === 0) await drain(sheet, output);
  }
  sheet.autoFilter = `A1:${columnLetter(columns.length)}${count + 1}`;
  sheet.commit();
}
