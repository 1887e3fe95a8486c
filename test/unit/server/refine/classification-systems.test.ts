import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION_TABLES,
  classificationSystemOf,
  nlSfbOfReference,
  type ClassificationSystem,
  type MappedClassificationSystem,
} from '../../../../server/refine/classification-systems';
import { brandLayerOf } from '../../../../server/refine/nl-sfb';
import { committedSeedData } from '../../../../server/store/seed/system-data';

const LISTED_CODES: ReadonlySet<string> = new Set(committedSeedData.nlSfb.codes.map(({ code }) => code));
const TABLES = Object.entries(CLASSIFICATION_TABLES) as [MappedClassificationSystem, (typeof CLASSIFICATION_TABLES)['din276']][];

describe('classificationSystemOf', () => {
  it.each<[string, ClassificationSystem]>([
    ['NL-SfB', 'nl-sfb'],
    ['NL/SfB', 'nl-sfb'],
    ['NLSfB 2019', 'nl-sfb'],
    ['nl sfb tabel 1', 'nl-sfb'],
    ['OmniClass', 'omniclass'],
    ['OmniClass Table 21', 'omniclass'],
    ['http://www.omniclass.org/tables/OmniClass_21_2012-05-16.xls', 'omniclass'],
    ['Uniclass 2015', 'uniclass'],
    ['Uniclass2015', 'uniclass'],
    ['https://www.thenbs.com/our-tools/uniclass-2015', 'uniclass'],
    ['DIN 276', 'din276'],
    ['DIN276-1:2008-12', 'din276'],
    ['Kostengruppen', 'din276'],
    ['BB/SfB', 'bb-sfb'],
    ['CI/SfB', 'bb-sfb'],
    ['CISfB table 1', 'bb-sfb'],
    ['NS 3451', 'ns3451'],
    ['NS3451:2022', 'ns3451'],
    ['Bygningsdelstabell', 'ns3451'],
    ['Uniformat', 'uniformat'],
    ['UniFormat II', 'uniformat'],
    ['Assembly Code', 'uniformat'],
  ])('%s is %s', (name, system) => {
    expect(classificationSystemOf(name)).toBe(system);
  });

  it.each<[string | null]>([[null], [''], ['MasterFormat'], ['SfB'], ['ARCHICAD Classification - v 2.0'], ['IFC4']])(
    '%s is no system read',
    (name) => {
      expect(classificationSystemOf(name)).toBeNull();
    },
  );
});

describe('the tables', () => {
  it.each(TABLES)('%s: every target is an NL-SfB code of nl-sfb.json with a brand layer', (_system, table) => {
    for (const row of table) {
      expect(LISTED_CODES.has(row.nlSfb), `${row.code} → ${row.nlSfb}`).toBe(true);
      expect(brandLayerOf(row.nlSfb), `${row.code} → ${row.nlSfb}`).not.toBe('Unknown');
    }
  });

  it.each(TABLES)('%s: every code is listed once and reads as itself', (system, table) => {
    expect(new Set(table.map((row) => row.code)).size).toBe(table.length);
    for (const row of table) expect(nlSfbOfReference(system, row.code), row.code).toBe(row.nlSfb);
  });
});

describe('nlSfbOfReference', () => {
  it.each<[MappedClassificationSystem, string, string]>([
    // OmniClass table 21
    ['omniclass', '21-01 10 10', '16'],
    ['omniclass', '21-01 10 20', '17'],
    ['omniclass', '21-01 40 20', '13.2'],
    ['omniclass', '21-02 10 10', '23'],
    ['omniclass', '21-02 10 20', '27.2'],
    ['omniclass', '21-02 10 80', '24'],
    ['omniclass', '21-02 20 10', '21'],
    ['omniclass', '21-02 20 20', '31'],
    ['omniclass', '21-02 20 50', '31'],
    ['omniclass', '21-02 30 10', '47'],
    ['omniclass', '21-03 10 10', '22'],
    ['omniclass', '21-03 10 30', '32'],
    ['omniclass', '21-03 10 70', '45'],
    ['omniclass', '21-03 20 30', '43'],
    ['omniclass', '21-04 20 20', '52'],
    ['omniclass', '21-04 30 20', '56'],
    ['omniclass', '21-04 50 40', '63'],
    ['omniclass', '21-05 20 50', '8-'],
    ['omniclass', '21-07 20', '9-'],
    // Uniclass 2015
    ['uniclass', 'EF_20_05_30', '16'],
    ['uniclass', 'EF_25_10', '22'],
    ['uniclass', 'EF_25_30', '31'],
    ['uniclass', 'EF_30_10', '27'],
    ['uniclass', 'EF_30_20', '23'],
    ['uniclass', 'EF_35_10', '24'],
    ['uniclass', 'EF_70_80', '63'],
    ['uniclass', 'Ss_20_05_65', '17'],
    ['uniclass', 'Ss_25_10_20', '21'],
    ['uniclass', 'Ss_25_10_30', '22'],
    ['uniclass', 'Ss_25_20', '41'],
    ['uniclass', 'Ss_30_10', '27.2'],
    ['uniclass', 'Ss_30_12', '23'],
    ['uniclass', 'Ss_30_25', '45'],
    ['uniclass', 'Ss_30_40', '47'],
    ['uniclass', 'Ss_65_40', '57'],
    ['uniclass', 'Ss_70_80_33', '6-'],
    // DIN 276
    ['din276', '310', '11'],
    ['din276', '322', '16'],
    ['din276', '323', '17'],
    ['din276', '324', '13'],
    ['din276', '330', '21'],
    ['din276', '331', '21.2'],
    ['din276', '332', '21.1'],
    ['din276', '333', '28'],
    ['din276', '334', '31'],
    ['din276', '335', '41'],
    ['din276', '336', '42'],
    ['din276', '337', '21'],
    ['din276', '338', '31'],
    ['din276', '341', '22.2'],
    ['din276', '342', '22.1'],
    ['din276', '344', '32'],
    ['din276', '345', '42'],
    ['din276', '351', '23'],
    ['din276', '352', '43'],
    ['din276', '353', '45'],
    ['din276', '361', '27.2'],
    ['din276', '362', '37'],
    ['din276', '363', '47'],
    ['din276', '364', '45'],
    ['din276', '370', '7-'],
    ['din276', '411', '52'],
    ['din276', '420', '56'],
    ['din276', '430', '57'],
    ['din276', '445', '63'],
    ['din276', '460', '66'],
    ['din276', '480', '67'],
    ['din276', '600', '8-'],
    // BB/SfB, CI/SfB table 1
    ['bb-sfb', '(21)', '21'],
    ['bb-sfb', '21', '21'],
    ['bb-sfb', '(1-)', '1-'],
    ['bb-sfb', '(16)', '16'],
    ['bb-sfb', '(28)', '28'],
    ['bb-sfb', '(35)', '45'],
    ['bb-sfb', '(56)', '56'],
    ['bb-sfb', '(68)', '65'],
    ['bb-sfb', '(8-)', '8-'],
    ['bb-sfb', '82', '82'],
    // NS 3451
    ['ns3451', '21', '1-'],
    ['ns3451', '22', '28'],
    ['ns3451', '23', '21'],
    ['ns3451', '231', '21.2'],
    ['ns3451', '232', '21.1'],
    ['ns3451', '234', '31'],
    ['ns3451', '24', '22'],
    ['ns3451', '241', '22.2'],
    ['ns3451', '242', '22.1'],
    ['ns3451', '244', '32'],
    ['ns3451', '25', '23'],
    ['ns3451', '251', '23'],
    ['ns3451', '252', '13'],
    ['ns3451', '26', '27'],
    ['ns3451', '261', '27.2'],
    ['ns3451', '262', '47'],
    ['ns3451', '263', '37'],
    ['ns3451', '27', '7-'],
    ['ns3451', '281', '24'],
    ['ns3451', '284', '23'],
    ['ns3451', '287', '34'],
    ['ns3451', '31', '5-'],
    ['ns3451', '36', '57'],
    ['ns3451', '44', '63'],
    ['ns3451', '54', '65'],
    ['ns3451', '62', '66'],
    ['ns3451', '7', '9-'],
    // Uniformat II
    ['uniformat', 'A1010', '16'],
    ['uniformat', 'A1020', '17'],
    ['uniformat', 'A1030', '13'],
    ['uniformat', 'B1010', '23'],
    ['uniformat', 'B1020', '27.2'],
    ['uniformat', 'B2010', '21'],
    ['uniformat', 'B2020', '31'],
    ['uniformat', 'B2030', '31'],
    ['uniformat', 'B3010', '47'],
    ['uniformat', 'B3020', '37'],
    ['uniformat', 'C1010', '22'],
    ['uniformat', 'C1020', '32'],
    ['uniformat', 'C1030', '7-'],
    ['uniformat', 'C2010', '24'],
    ['uniformat', 'C2020', '44'],
    ['uniformat', 'C3010', '42'],
    ['uniformat', 'C3020', '43'],
    ['uniformat', 'C3030', '45'],
    ['uniformat', 'D10', '66'],
    ['uniformat', 'D2010', '74'],
    ['uniformat', 'D2020', '53'],
    ['uniformat', 'D3020', '56'],
    ['uniformat', 'D3050', '57'],
    ['uniformat', 'D40', '59'],
    ['uniformat', 'D50', '6-'],
    ['uniformat', 'D5020', '63'],
    ['uniformat', 'E10', '7-'],
    ['uniformat', 'E20', '8-'],
    ['uniformat', 'G', '9-'],
  ])('%s %s → %s', (system, code, nlSfb) => {
    expect(nlSfbOfReference(system, code)).toBe(nlSfb);
  });

  it.each<[MappedClassificationSystem, string, string]>([
    ['din276', '331.10', '21.2'],
    ['din276', '331.1.2', '21.2'],
    ['din276', '339', '21'],
    ['din276', '346', '22'],
    ['din276', '419', '5-'],
    ['din276', '451', '64'],
    ['din276', '530', '9-'],
    ['din276', '610', '8-'],
    ['omniclass', '21-02 10 10 20', '23'],
    ['omniclass', '21-02 10 10 10 01', '23'],
    ['omniclass', '21-02 20 10 10', '21'],
    ['omniclass', '21-04 40 10', '59'],
    ['omniclass', '21-07 20 80', '9-'],
    ['uniclass', 'Ss_25_10_30_35', '22'],
    ['uniclass', 'Ss_25_10_32', '22'],
    ['uniclass', 'Ss_20_05_65_41', '17'],
    ['uniclass', 'EF_35_10_30', '24'],
    ['uniclass', 'EF_50_30', '52'],
    ['uniclass', 'Ss_55_70_38', '5-'],
    ['bb-sfb', '(21.1)', '21'],
    ['bb-sfb', '(58)', '5-'],
    ['bb-sfb', '(87)', '8-'],
    ['bb-sfb', '(90)', '9-'],
    ['ns3451', '231.1', '21.2'],
    ['ns3451', '239', '21'],
    ['ns3451', '39', '5-'],
    ['ns3451', '49', '6-'],
    ['ns3451', '72', '9-'],
    ['uniformat', 'B2010.10', '21'],
    ['uniformat', 'B2010100', '21'],
    ['uniformat', 'D2090', '5-'],
    ['uniformat', 'D4010', '59'],
    ['uniformat', 'E1090', '7-'],
    ['uniformat', 'G2010', '9-'],
  ])('%s %s falls back to its nearest listed parent: %s', (system, code, nlSfb) => {
    expect(nlSfbOfReference(system, code)).toBe(nlSfb);
  });

  it.each<[MappedClassificationSystem, string, string]>([
    ['omniclass', '21-02 10 10 00', '23'],
    ['omniclass', '21-07 00 00', '9-'],
    ['omniclass', '21-021010', '23'],
    ['omniclass', '21-02.10.10', '23'],
    ['omniclass', '21 - 02 10 10', '23'],
    ['omniclass', '21\u201302 10 10', '23'],
    ['omniclass', '21-02 10 10 Floor Construction', '23'],
    ['uniclass', 'ef_25_10', '22'],
    ['uniclass', 'EF 30 20', '23'],
    ['uniclass', 'ss-25-10-20', '21'],
    ['uniclass', 'SS_30_40_30', '47'],
    ['uniclass', 'Ss_30_25 Ceiling and soffit systems', '45'],
    ['din276', 'KG 331', '21.2'],
    ['din276', 'kg331', '21.2'],
    ['din276', '331 Tragende Außenwände', '21.2'],
    ['din276', '\uff13\uff13\uff11', '21.2'],
    ['bb-sfb', '(5\u2013)', '5-'],
    ['bb-sfb', '(21)Fg2', '21'],
    ['bb-sfb', '21 Buitenwanden', '21'],
    ['ns3451', '231 Bærende yttervegger', '21.2'],
    ['uniformat', 'b2010', '21'],
    ['uniformat', 'B2010 Exterior Walls', '21'],
  ])('%s reads %s as written by tools: %s', (system, code, nlSfb) => {
    expect(nlSfbOfReference(system, code)).toBe(nlSfb);
  });

  it.each<[string, string]>([
    ['EF_25_10', '22'],
    ['Ss_25_10_30', '22'],
    ['ss 25 10 30', '22'],
    ['SS-25-10-30-35', '22'],
    ['EF_30_20 Floors', '23'],
    ['21-02 10 10', '23'],
    ['21-02 10 10 10', '23'],
    ['21-021010', '23'],
    ['21-02 20 50', '31'],
    ['B2010', '21'],
    ['B2010.10', '21'],
    ['C1010', '22'],
    ['d5020', '63'],
  ])('without a system, %s tells its system by its shape: %s', (code, nlSfb) => {
    expect(nlSfbOfReference(null, code)).toBe(nlSfb);
  });

  it.each<[string]>([
    // Ambiguous between NL-SfB, DIN 276 and NS 3451.
    ['21'],
    ['23'],
    ['21.2'],
    ['231'],
    ['331'],
    ['(21)'],
    // Shapes too loose to tell a system.
    ['B20'],
    ['B2010100'],
    ['21-02-2010'],
    ['Beton C20/25'],
    ['IfcWall'],
    // Tables not mapped: OmniClass table 23 (products), Uniclass Pr (products).
    ['23-13 17 00'],
    ['Pr_20_93_47'],
    [''],
  ])('without a system, %s is null', (code) => {
    expect(nlSfbOfReference(null, code)).toBeNull();
  });

  it.each<[ClassificationSystem, string]>([
    ['nl-sfb', '21'],
    ['nl-sfb', '21.2'],
    ['omniclass', '21-02'],
    ['omniclass', '21-06 10'],
    ['omniclass', '23-13 17 00'],
    ['uniclass', 'EF_99_10'],
    ['uniclass', 'Ss_32_20'],
    ['uniclass', 'Pr_20_93_47'],
    ['din276', '300'],
    ['din276', '400'],
    ['din276', '999'],
    ['din276', '3310'],
    ['bb-sfb', '(2-)'],
    ['bb-sfb', '(29)'],
    ['bb-sfb', '212'],
    ['ns3451', '2'],
    ['ns3451', '29'],
    ['ns3451', '2311'],
    ['uniformat', 'B'],
    ['uniformat', 'F1010'],
    ['uniformat', 'Beton'],
  ])('%s %s is null: no code of the table, nor a parent', (system, code) => {
    expect(nlSfbOfReference(system, code)).toBeNull();
  });
});
