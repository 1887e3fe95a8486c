/**
 * Classification references of other systems mapped to NL-SfB: which system an IfcClassification names, and the NL-SfB
 * code a reference code of that system stands for. Pure tables and parsing, no I/O. NL-SfB codes themselves are read by
 * `normaliseNlSfbCode` (nl-sfb.ts); a result here is a code of `nl-sfb.json` as that list writes it.
 *
 * Choice of targets, the same in every table: the two-digit NL-SfB element (`21`, `56`); its `.2` child where the source
 * names the load-bearing part (`331 Tragende Außenwände` → `21.2`, a roof construction → `27.2`) and `.1` where it names
 * the non-load-bearing one; a main group (`5-`, `8-`) where the source spans several elements of it. Main groups `2-`,
 * `3-` and `4-` are never targets: they carry no brand layer, so such a reference tells refinement nothing it can use.
 */

/** The classification systems whose references are read. */
export type ClassificationSystem = 'nl-sfb' | 'omniclass' | 'uniclass' | 'din276' | 'bb-sfb' | 'ns3451' | 'uniformat';

/** The systems with a table to NL-SfB (NL-SfB itself needs none). */
export type MappedClassificationSystem = Exclude<ClassificationSystem, 'nl-sfb'>;

/** One row of a system's table: a code as the system writes it, its name there, and the NL-SfB code it maps to. */
export interface ReferenceRow {
  readonly code: string;
  readonly name: string;
  readonly nlSfb: string;
}

const rows = (...entries: readonly (readonly [code: string, name: string, nlSfb: string])[]): readonly ReferenceRow[] =>
  entries.map(([code, name, nlSfb]) => ({ code, name, nlSfb }));

/** How tools write a system's name in IfcClassification.Name, Source or Edition; the first that matches wins. */
const SYSTEM_NAMES: readonly (readonly [ClassificationSystem, RegExp])[] = [
  // CI/SfB is the British parent of BB/SfB; its table 1 has the same structure.
  ['bb-sfb', /\b(?:bb|ci)\s*[/_-]?\s*sfb\b/i],
  ['nl-sfb', /\bnl\s*[/_-]?\s*sfb/i],
  ['omniclass', /omni\s*class/i],
  ['uniclass', /uni\s*class/i],
  ['din276', /\bdin\s*[-_]?\s*276|\bkostengruppe/i],
  ['ns3451', /\bns\s*[-_]?\s*3451|\bbygningsdel/i],
  // Revit names its Uniformat parameter "Assembly Code".
  ['uniformat', /uni\s*format|\bassembly\s*code/i],
];

/**
 * The system an IfcClassification's Name (or Source, Edition) denotes, tolerant of how tools write it: "NL/SfB",
 * "NLSfB 2019", "OmniClass Table 21", "Uniclass2015", "DIN276-1:2008-12", "CI/SfB" (as BB/SfB), "NS3451:2022",
 * "UniFormat II", "Assembly Code". Null for none of these.
 */
export function classificationSystemOf(name: string | null): ClassificationSystem | null {
  if (name === null) return null;
  const text = name.normalize('NFKC');
  return SYSTEM_NAMES.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

/**
 * OmniClass table 21 (Elements, 2012 edition), whose numbering follows UniFormat 2010: `21-02 20 50` is B2050. Codes as
 * OmniClass writes them without trailing `00` pairs (`21-02` is `21-02 00 00`).
 */
const OMNICLASS_ROWS = rows(
  ['21-01', 'Substructure', '1-'],
  ['21-01 10', 'Foundations', '16'],
  ['21-01 10 10', 'Standard Foundations', '16'],
  ['21-01 10 20', 'Special Foundations', '17'],
  ['21-01 20', 'Subgrade Enclosures', '16'],
  ['21-01 40', 'Slabs-On-Grade', '13'],
  ['21-01 40 10', 'Standard Slabs-on-Grade', '13.1'],
  ['21-01 40 20', 'Structural Slabs-on-Grade', '13.2'],
  ['21-01 60', 'Water and Gas Mitigation', '11'],
  ['21-02 10', 'Superstructure', '28'],
  ['21-02 10 10', 'Floor Construction', '23'],
  ['21-02 10 20', 'Roof Construction', '27.2'],
  ['21-02 10 80', 'Stairs', '24'],
  ['21-02 20', 'Exterior Vertical Enclosures', '21'],
  ['21-02 20 10', 'Exterior Walls', '21'],
  ['21-02 20 20', 'Exterior Windows', '31'],
  ['21-02 20 50', 'Exterior Doors and Grilles', '31'],
  ['21-02 20 70', 'Exterior Louvers and Vents', '31'],
  ['21-02 30', 'Exterior Horizontal Enclosures', '27'],
  ['21-02 30 10', 'Roofing', '47'],
  ['21-02 30 60', 'Horizontal Openings', '37'],
  ['21-03 10', 'Interior Construction', '22'],
  ['21-03 10 10', 'Interior Partitions', '22'],
  ['21-03 10 20', 'Interior Windows', '32'],
  ['21-03 10 30', 'Interior Doors', '32'],
  ['21-03 10 40', 'Interior Grilles and Gates', '32'],
  ['21-03 10 60', 'Raised Floor Construction', '43'],
  ['21-03 10 70', 'Suspended Ceiling Construction', '45'],
  ['21-03 10 90', 'Interior Specialties', '7-'],
  ['21-03 20 10', 'Wall Finishes', '42'],
  ['21-03 20 30', 'Flooring', '43'],
  ['21-03 20 40', 'Stair Finishes', '44'],
  ['21-03 20 50', 'Ceiling Finishes', '45'],
  ['21-04 10', 'Conveying', '66'],
  ['21-04 20', 'Plumbing', '5-'],
  ['21-04 20 10', 'Domestic Water Distribution', '53'],
  ['21-04 20 20', 'Sanitary Drainage', '52'],
  ['21-04 20 30', 'Building Support Plumbing Systems', '52'],
  ['21-04 20 50', 'General Service Compressed-Air', '54'],
  ['21-04 30', 'HVAC', '5-'],
  ['21-04 30 10', 'Facility Fuel Systems', '54'],
  ['21-04 30 20', 'Heating Systems', '56'],
  ['21-04 30 30', 'Cooling Systems', '55'],
  ['21-04 30 60', 'Ventilation', '57'],
  ['21-04 40', 'Fire Protection', '59'],
  ['21-04 50', 'Electrical', '6-'],
  ['21-04 50 10', 'Facility Power Generation', '61'],
  ['21-04 50 20', 'Electrical Service and Distribution', '61'],
  ['21-04 50 30', 'General Purpose Electrical Power', '62'],
  ['21-04 50 40', 'Lighting', '63'],
  ['21-04 60', 'Communications', '64'],
  ['21-04 70', 'Electronic Safety and Security', '65'],
  ['21-04 80', 'Integrated Automation', '67'],
  ['21-05 10', 'Equipment', '7-'],
  ['21-05 20', 'Furnishings', '8-'],
  ['21-05 20 10', 'Fixed Furnishings', '7-'],
  ['21-05 20 50', 'Movable Furnishings', '8-'],
  ['21-07', 'Sitework', '9-'],
);

/**
 * Uniclass 2015: table EF (Elements/functions) and the systems of table Ss that are building elements. Wall codes that
 * do not say which side of the envelope they are on give `22`, as walls of unknown side do in classification-inference.ts;
 * doors and windows together give `31`. Services below Ss level 1 are not listed: Ss is revised often, its level-1
 * groups are stable.
 */
const UNICLASS_ROWS = rows(
  ['EF_15_10', 'Groundworks and earthworks', '11'],
  ['EF_20', 'Structural elements', '28'],
  ['EF_20_05', 'Substructure', '1-'],
  ['EF_20_05_30', 'Foundations', '16'],
  ['EF_20_10', 'Superstructure', '28'],
  ['EF_25_10', 'Walls', '22'],
  ['EF_25_30', 'Doors and windows', '31'],
  ['EF_25_55', 'Barriers', '34'],
  ['EF_30_10', 'Roofs', '27'],
  ['EF_30_20', 'Floors', '23'],
  ['EF_30_25', 'Ceilings and soffits', '45'],
  ['EF_30_30', 'Decks', '23'],
  ['EF_30_60', 'Pavements', '9-'],
  ['EF_35', 'Stairs and ramps', '24'],
  ['EF_40', 'Signage, fittings, furnishings and equipment', '7-'],
  ['EF_40_30', 'Furnishings', '8-'],
  ['EF_45', 'Flora and fauna elements', '9-'],
  ['EF_50', 'Waste disposal functions', '52'],
  ['EF_55', 'Piped supply functions', '5-'],
  ['EF_55_20', 'Gas supply', '54'],
  ['EF_55_30', 'Fire-extinguishing supply', '59'],
  ['EF_55_40', 'Steam supply', '53'],
  ['EF_55_50', 'Liquid fuel supply', '54'],
  ['EF_55_70', 'Water supply', '53'],
  ['EF_60', 'Heating, cooling and refrigeration functions', '5-'],
  ['EF_60_60', 'Refrigeration', '55'],
  ['EF_65', 'Ventilation and air conditioning functions', '57'],
  ['EF_70', 'Electrical power and lighting functions', '6-'],
  ['EF_70_10', 'Electrical power generation', '61'],
  ['EF_70_30', 'Electricity distribution and transmission', '61'],
  ['EF_70_80', 'Lighting', '63'],
  ['EF_75', 'Communications, security, safety and protection functions', '6-'],
  ['EF_75_10', 'Communication', '64'],
  ['EF_75_40', 'Security', '65'],
  ['EF_75_50', 'Safety and protection', '65'],
  ['EF_75_70', 'Control and management', '67'],
  ['EF_80', 'Transport functions', '66'],
  ['Ss_15_10', 'Groundworks and earthworks systems', '11'],
  ['Ss_20', 'Structural systems', '28'],
  ['Ss_20_05', 'Substructure systems', '1-'],
  ['Ss_20_05_15', 'Concrete foundation systems', '16'],
  ['Ss_20_05_65', 'Piling systems', '17'],
  ['Ss_20_10', 'Structural frame systems', '28'],
  ['Ss_20_20', 'Structural beams', '28'],
  ['Ss_20_30', 'Structural columns', '28'],
  ['Ss_20_60', 'Retaining wall systems', '16'],
  ['Ss_25_10', 'Framed wall systems', '22'],
  ['Ss_25_10_20', 'Curtain walling systems', '21'],
  ['Ss_25_10_30', 'Framed partition systems', '22'],
  ['Ss_25_11', 'Monolithic wall structure systems', '22'],
  ['Ss_25_12', 'Panel wall structure systems', '22'],
  ['Ss_25_13', 'Unit wall structure systems', '22'],
  ['Ss_25_14', 'Fence systems', '9-'],
  ['Ss_25_15', 'Fixed pedestrian barrier systems', '34'],
  ['Ss_25_16', 'Fixed traffic and protective barrier systems', '9-'],
  ['Ss_25_20', 'Wall cladding systems', '41'],
  ['Ss_25_25', 'Wall lining systems', '42'],
  ['Ss_25_30', 'Door and window systems', '31'],
  ['Ss_25_60_05', 'Balustrade and handrail systems', '34'],
  ['Ss_30_10', 'Roof structure systems', '27.2'],
  ['Ss_30_12', 'Floor and deck structure systems', '23'],
  ['Ss_30_14', 'Paving systems', '9-'],
  ['Ss_30_20', 'Flooring and decking systems', '43'],
  ['Ss_30_25', 'Ceiling and soffit systems', '45'],
  ['Ss_30_30_30', 'Floor hatch systems', '33'],
  ['Ss_30_30_71', 'Roof hatch systems', '37'],
  ['Ss_30_30_72', 'Rooflight and roof window systems', '37'],
  ['Ss_30_40', 'Roof and balcony covering and finish systems', '47'],
  ['Ss_30_42', 'Floor covering and finishing systems', '43'],
  ['Ss_30_47', 'Ceiling and soffit covering and finishing systems', '45'],
  ['Ss_30_75', 'Roof, floor and paving drainage systems', '52'],
  ['Ss_35', 'Stair and ramp systems', '24'],
  ['Ss_40', 'Signage, fittings, furnishings and equipment (FF&E) and general finishing systems', '7-'],
  ['Ss_45', 'Flora and fauna systems', '9-'],
  ['Ss_50', 'Disposal systems', '52'],
  ['Ss_55', 'Piped supply systems', '5-'],
  ['Ss_60', 'Heating, cooling and refrigeration systems', '5-'],
  ['Ss_65', 'Ventilation and air conditioning systems', '57'],
  ['Ss_70', 'Electrical systems', '6-'],
  ['Ss_75', 'Communications, security, safety, control and protection systems', '6-'],
  ['Ss_80', 'Transport systems', '66'],
);

/**
 * DIN 276 cost groups (Kostengruppen) 300, 400, 500 and 600, with the meanings of DIN 276-1:2008-12. The 2018 edition
 * renumbered some: there 324 is Gründungsbeläge, 325 Abdichtungen, 352 Deckenöffnungen, 353 Deckenbeläge and 370
 * Infrastrukturanlagen; 354 (Deckenbekleidungen) and 380 (Baukonstruktive Einbauten) exist only there and mean what
 * 353 and 370 mean in 2008. 300 (all of the construction) and 400 (mechanical and electrical services together) span
 * several NL-SfB main groups: not listed.
 */
const DIN276_ROWS = rows(
  ['310', 'Baugrube', '11'],
  ['320', 'Gründung', '1-'],
  ['321', 'Baugrundverbesserung', '11'],
  ['322', 'Flachgründungen', '16'],
  ['323', 'Tiefgründungen', '17'],
  ['324', 'Unterböden und Bodenplatten', '13'],
  ['325', 'Bodenbeläge', '43'],
  ['330', 'Außenwände', '21'],
  ['331', 'Tragende Außenwände', '21.2'],
  ['332', 'Nichttragende Außenwände', '21.1'],
  ['333', 'Außenstützen', '28'],
  ['334', 'Außentüren und -fenster', '31'],
  ['335', 'Außenwandbekleidungen, außen', '41'],
  ['336', 'Außenwandbekleidungen, innen', '42'],
  ['337', 'Elementierte Außenwände', '21'],
  ['338', 'Sonnenschutz', '31'],
  ['340', 'Innenwände', '22'],
  ['341', 'Tragende Innenwände', '22.2'],
  ['342', 'Nichttragende Innenwände', '22.1'],
  ['343', 'Innenstützen', '28'],
  ['344', 'Innentüren und -fenster', '32'],
  ['345', 'Innenwandbekleidungen', '42'],
  ['350', 'Decken', '23'],
  ['351', 'Deckenkonstruktionen', '23'],
  ['352', 'Deckenbeläge', '43'],
  ['353', 'Deckenbekleidungen', '45'],
  ['354', 'Deckenbekleidungen (2018)', '45'],
  ['360', 'Dächer', '27'],
  ['361', 'Dachkonstruktionen', '27.2'],
  ['362', 'Dachfenster, Dachöffnungen', '37'],
  ['363', 'Dachbeläge', '47'],
  ['364', 'Dachbekleidungen', '45'],
  ['370', 'Baukonstruktive Einbauten', '7-'],
  ['380', 'Baukonstruktive Einbauten (2018)', '7-'],
  ['410', 'Abwasser-, Wasser-, Gasanlagen', '5-'],
  ['411', 'Abwasseranlagen', '52'],
  ['412', 'Wasseranlagen', '53'],
  ['413', 'Gasanlagen', '54'],
  ['420', 'Wärmeversorgungsanlagen', '56'],
  ['430', 'Lufttechnische Anlagen', '57'],
  ['434', 'Kälteanlagen', '55'],
  ['440', 'Starkstromanlagen', '6-'],
  ['441', 'Hoch- und Mittelspannungsanlagen', '61'],
  ['442', 'Eigenstromversorgungsanlagen', '61'],
  ['443', 'Niederspannungsschaltanlagen', '61'],
  ['444', 'Niederspannungsinstallationsanlagen', '62'],
  ['445', 'Beleuchtungsanlagen', '63'],
  ['446', 'Blitzschutz- und Erdungsanlagen', '61'],
  ['450', 'Fernmelde- und informationstechnische Anlagen', '64'],
  ['456', 'Gefahrenmelde- und Alarmanlagen', '65'],
  ['460', 'Förderanlagen', '66'],
  // Kitchens, laundries, medical gases, fire extinguishing, process installations: services of several kinds.
  ['470', 'Nutzungsspezifische Anlagen', '5-'],
  ['480', 'Gebäudeautomation', '67'],
  ['500', 'Außenanlagen', '9-'],
  ['600', 'Ausstattung und Kunstwerke', '8-'],
);

/**
 * BB/SfB and CI/SfB table 1 (elements), from which NL-SfB descends: the element groups 1- to 9- mean what they mean in
 * NL-SfB, except CI/SfB's (35) suspended ceilings and (68) security, control. Codes as CI/SfB writes them, in brackets.
 */
const BB_SFB_ROWS = rows(
  ['(1-)', 'Substructure', '1-'],
  ['(11)', 'Ground', '11'],
  ['(13)', 'Floor beds', '13'],
  ['(16)', 'Retaining walls, foundations', '16'],
  ['(17)', 'Pile foundations', '17'],
  ['(21)', 'External walls', '21'],
  ['(22)', 'Internal walls, partitions', '22'],
  ['(23)', 'Floors, galleries', '23'],
  ['(24)', 'Stairs, ramps', '24'],
  ['(27)', 'Roofs', '27'],
  ['(28)', 'Building frames, other primary elements', '28'],
  ['(31)', 'Secondary elements to external walls', '31'],
  ['(32)', 'Secondary elements to internal walls', '32'],
  ['(33)', 'Secondary elements to floors', '33'],
  ['(34)', 'Balustrades', '34'],
  ['(35)', 'Suspended ceilings', '45'],
  ['(37)', 'Secondary elements to roofs', '37'],
  ['(41)', 'External wall finishes', '41'],
  ['(42)', 'Internal wall finishes', '42'],
  ['(43)', 'Floor finishes', '43'],
  ['(44)', 'Stair finishes', '44'],
  ['(45)', 'Ceiling finishes', '45'],
  ['(47)', 'Roof finishes', '47'],
  ['(5-)', 'Services, mainly piped and ducted', '5-'],
  ['(52)', 'Waste disposal, drainage', '52'],
  ['(53)', 'Liquid supply', '53'],
  ['(54)', 'Gases supply', '54'],
  ['(55)', 'Space cooling', '55'],
  ['(56)', 'Space heating', '56'],
  ['(57)', 'Air conditioning, ventilation', '57'],
  ['(6-)', 'Services, mainly electrical', '6-'],
  ['(61)', 'Electrical supply', '61'],
  ['(62)', 'Power', '62'],
  ['(63)', 'Lighting', '63'],
  ['(64)', 'Communications', '64'],
  ['(66)', 'Transport', '66'],
  ['(68)', 'Security, control', '65'],
  ['(7-)', 'Fittings', '7-'],
  ['(71)', 'Circulation fittings', '71'],
  ['(72)', 'General room fittings', '72'],
  ['(73)', 'Culinary fittings', '73'],
  ['(74)', 'Sanitary, hygiene fittings', '74'],
  ['(75)', 'Cleaning, maintenance fittings', '75'],
  ['(76)', 'Storage, screening fittings', '76'],
  ['(8-)', 'Loose furniture, equipment', '8-'],
  ['(81)', 'Circulation loose equipment', '81'],
  ['(82)', 'General room loose equipment', '82'],
  ['(83)', 'Culinary loose equipment', '83'],
  ['(84)', 'Sanitary, hygiene loose equipment', '84'],
  ['(85)', 'Cleaning, maintenance loose equipment', '85'],
  ['(86)', 'Storage, screening loose equipment', '86'],
  ['(9-)', 'External elements', '9-'],
);

/** NS 3451 (bygningsdelstabell, 2009 and 2022; the 2022 edition kept these codes). */
const NS3451_ROWS = rows(
  ['21', 'Grunn og fundamenter', '1-'],
  ['214', 'Støttekonstruksjoner', '16'],
  ['215', 'Pelefundamentering', '17'],
  ['216', 'Direkte fundamentering', '16'],
  ['22', 'Bæresystemer', '28'],
  ['23', 'Yttervegger', '21'],
  ['231', 'Bærende yttervegger', '21.2'],
  ['232', 'Ikke-bærende yttervegger', '21.1'],
  ['233', 'Glassfasader', '21'],
  ['234', 'Vinduer, dører, porter', '31'],
  ['235', 'Utvendig kledning og overflate', '41'],
  ['236', 'Innvendig overflate', '42'],
  ['24', 'Innervegger', '22'],
  ['241', 'Bærende innervegger', '22.2'],
  ['242', 'Ikke-bærende innervegger', '22.1'],
  ['244', 'Vinduer, dører, foldevegger', '32'],
  ['25', 'Dekker', '23'],
  ['251', 'Frittbærende dekker', '23'],
  ['252', 'Gulv på grunn', '13'],
  ['253', 'Oppforet gulv, påstøp', '43'],
  ['254', 'Gulvsystemer', '43'],
  ['255', 'Gulvoverflate', '43'],
  ['256', 'Faste himlinger og overflatebehandling', '45'],
  ['257', 'Systemhimlinger', '45'],
  ['26', 'Yttertak', '27'],
  ['261', 'Primærkonstruksjoner', '27.2'],
  ['262', 'Taktekning', '47'],
  ['263', 'Glasstak, overlys, takluker', '37'],
  ['27', 'Fast inventar', '7-'],
  ['28', 'Trapper, balkonger m.m.', '24'],
  ['281', 'Innvendige trapper', '24'],
  ['282', 'Utvendige trapper', '24'],
  ['283', 'Ramper', '24'],
  ['284', 'Balkonger og verandaer', '23'],
  ['286', 'Baldakiner og skjermtak', '27'],
  ['287', 'Rekkverk, håndlister og fendere', '34'],
  ['3', 'VVS-installasjoner', '5-'],
  ['32', 'Varme', '56'],
  ['33', 'Brannslokking', '59'],
  ['34', 'Gass og trykkluft', '54'],
  ['35', 'Prosesskjøling', '55'],
  ['36', 'Luftbehandling', '57'],
  ['37', 'Komfortkjøling', '55'],
  ['38', 'Vannbehandling', '53'],
  ['4', 'Elkraft', '6-'],
  ['41', 'Basisinstallasjoner for elkraft', '61'],
  ['42', 'Høyspent forsyning', '61'],
  ['43', 'Lavspent forsyning', '61'],
  ['44', 'Lys', '63'],
  ['45', 'Elvarme', '56'],
  ['46', 'Reservekraft', '61'],
  ['5', 'Tele og automatisering', '6-'],
  ['52', 'Integrert kommunikasjon', '64'],
  ['53', 'Telefoni og personsøking', '64'],
  ['54', 'Alarm- og signalsystemer', '65'],
  ['55', 'Lyd- og bildesystemer', '64'],
  ['56', 'Automatisering', '67'],
  ['62', 'Person- og varetransport', '66'],
  ['63', 'Transportanlegg for småvarer', '66'],
  ['66', 'Fastmontert spesialutrustning for virksomhet', '7-'],
  ['67', 'Løs spesialutrustning for virksomhet', '8-'],
  ['7', 'Utendørs', '9-'],
);

/**
 * Uniformat II (ASTM E1557), as Revit's Assembly Code writes it. UniFormat 2010 (CSI) reuses some of these codes with
 * other meanings (its C1030 is Interior Doors, C2010 Wall Finishes); this table reads them as Uniformat II.
 */
const UNIFORMAT_ROWS = rows(
  ['A', 'Substructure', '1-'],
  ['A10', 'Foundations', '1-'],
  ['A1010', 'Standard Foundations', '16'],
  ['A1020', 'Special Foundations', '17'],
  ['A1030', 'Slab on Grade', '13'],
  ['A20', 'Basement Construction', '1-'],
  ['A2010', 'Basement Excavation', '11'],
  ['A2020', 'Basement Walls', '16'],
  ['B10', 'Superstructure', '28'],
  ['B1010', 'Floor Construction', '23'],
  ['B1020', 'Roof Construction', '27.2'],
  ['B20', 'Exterior Enclosure', '21'],
  ['B2010', 'Exterior Walls', '21'],
  ['B2020', 'Exterior Windows', '31'],
  ['B2030', 'Exterior Doors', '31'],
  ['B30', 'Roofing', '47'],
  ['B3010', 'Roof Coverings', '47'],
  ['B3020', 'Roof Openings', '37'],
  ['C10', 'Interior Construction', '22'],
  ['C1010', 'Partitions', '22'],
  ['C1020', 'Interior Doors', '32'],
  ['C1030', 'Fittings', '7-'],
  ['C20', 'Stairs', '24'],
  ['C2010', 'Stair Construction', '24'],
  ['C2020', 'Stair Finishes', '44'],
  ['C3010', 'Wall Finishes', '42'],
  ['C3020', 'Floor Finishes', '43'],
  ['C3030', 'Ceiling Finishes', '45'],
  ['D10', 'Conveying', '66'],
  ['D20', 'Plumbing', '5-'],
  ['D2010', 'Plumbing Fixtures', '74'],
  ['D2020', 'Domestic Water Distribution', '53'],
  ['D2030', 'Sanitary Waste', '52'],
  ['D2040', 'Rain Water Drainage', '52'],
  ['D30', 'HVAC', '5-'],
  ['D3010', 'Energy Supply', '54'],
  ['D3020', 'Heat Generating Systems', '56'],
  ['D3030', 'Cooling Generating Systems', '55'],
  ['D3050', 'Terminal and Package Units', '57'],
  ['D3060', 'Controls and Instrumentation', '58'],
  ['D40', 'Fire Protection', '59'],
  ['D50', 'Electrical', '6-'],
  ['D5010', 'Electrical Service and Distribution', '61'],
  ['D5020', 'Lighting and Branch Wiring', '63'],
  ['D5030', 'Communications and Security', '64'],
  ['D5090', 'Other Electrical Systems', '61'],
  ['E10', 'Equipment', '7-'],
  ['E20', 'Furnishings', '8-'],
  ['E2010', 'Fixed Furnishings', '7-'],
  ['E2020', 'Movable Furnishings', '8-'],
  ['G', 'Building Sitework', '9-'],
);

/** The tables, by system: what a README table of the mappings is made from. */
export const CLASSIFICATION_TABLES: Readonly<Record<MappedClassificationSystem, readonly ReferenceRow[]>> = {
  omniclass: OMNICLASS_ROWS,
  uniclass: UNICLASS_ROWS,
  din276: DIN276_ROWS,
  'bb-sfb': BB_SFB_ROWS,
  ns3451: NS3451_ROWS,
  uniformat: UNIFORMAT_ROWS,
};

// Dashes other than U+002D that word processors put in codes ("21–02 10 10", "(2–)").
const DASHES = /[\u2010-\u2015\u2212]/g;

/** A reference code as the readers below expect it: NFKC (full-width digits), plain dashes, no surrounding spaces. */
function cleaned(code: string): string {
  return code.normalize('NFKC').replace(DASHES, '-').trim();
}

/** The codes a list of two-digit groups stands for, most specific first: [a, b, c] → [abc, ab, a]. */
function prefixesOf<T>(parts: readonly T[], join: (parts: readonly T[]) => string): string[] {
  return parts.map((_, index) => join(parts.slice(0, parts.length - index)));
}

const pairsOf = (digits: string): string[] => digits.match(/\d\d/g) ?? [];

// After a code: its end, or a name after spaces ("21-02 10 10 Floor Construction"), not more digits.
const END = String.raw`(?=$|\s+\D)`;

// "21-02 10 10", "21-021010", "21-02 10 10 10"; with the system named, also dots or dashes between the pairs.
const OMNICLASS = new RegExp(String.raw`^21\s*-\s*(\d\d(?:[\s.-]?\d\d){0,5})${END}`);
const OMNICLASS_SHAPE = new RegExp(String.raw`^21-\d\d(?: ?\d\d){0,5}${END}`);
// "EF_25_10", "Ss_25_10_30", "ss 25 10", "EF-25-10": a table prefix and two-digit groups.
const UNICLASS = new RegExp(String.raw`^(ef|ss)[\s_-]?(\d\d(?:[\s_-]?\d\d)*)${END}`, 'i');
// "KG 331", "331", "331.10": three digits, then deeper levels the table does not list.
const DIN276 = /^(?:kg\s*)?([1-8]\d\d)(?:\.\d+)*(?=$|\s)/i;
// "(21)", "(2-)", "(21.1)" (anything may follow the bracket: "(21) Fg2"), "21", "2-".
const BB_SFB = /^(?:\((\d[\d-])(?:\.\d+)?\)|(\d[\d-])(?:\.\d+)?(?=$|\s))/;
// "2", "23", "231", "231.1".
const NS3451 = /^([2-7]\d{0,2})(?:\.\d+)*(?=$|\s)/;
// "B", "B20", "B2010", "B2010.10", and Revit's deeper "B2010100".
const UNIFORMAT = new RegExp(String.raw`^([a-g])(\d\d)?(\d\d)?(?:\.?\d+)?${END}`, 'i');
const UNIFORMAT_SHAPE = new RegExp(String.raw`^[a-g]\d{4}(?:\.\d+)?${END}`, 'i');

/** How a system's codes are read: the table keys to try for a code, and whether a code's shape alone tells the system. */
interface SystemReader {
  /** The table's keys to try for a (cleaned) reference code, most specific first; none when it is no code of the system. */
  readonly keysOf: (code: string) => readonly string[];
  /** Set for the systems whose codes no other system writes alike: whether a code has that shape. */
  readonly hasOwnShape?: (code: string) => boolean;
}

const READERS: Readonly<Record<MappedClassificationSystem, SystemReader>> = {
  omniclass: {
    keysOf: (code) => {
      const digits = OMNICLASS.exec(code)?.[1]?.replace(/\D/g, '') ?? '';
      // Trailing 00 pairs say "no further level": 21-02 10 00 is 21-02 10.
      const pairs = pairsOf(digits.replace(/(?:00)+$/, ''));
      return prefixesOf(pairs, ([first, ...rest]) => [`21-${first ?? ''}`, ...rest].join(' '));
    },
    hasOwnShape: (code) => OMNICLASS_SHAPE.test(code),
  },
  uniclass: {
    keysOf: (code) => {
      const match = UNICLASS.exec(code);
      if (match === null) return [];
      const table = match[1]?.toLowerCase() === 'ef' ? 'EF' : 'Ss';
      return prefixesOf(pairsOf(match[2] ?? ''), (pairs) => [table, ...pairs].join('_'));
    },
    hasOwnShape: (code) => UNICLASS.test(code),
  },
  din276: {
    keysOf: (code) => {
      const group = DIN276.exec(code)?.[1];
      if (group === undefined) return [];
      // 331 → 330 → 300: each level zeroes one more digit.
      return [...new Set([group, `${group.slice(0, 2)}0`, `${group.charAt(0)}00`])];
    },
  },
  'bb-sfb': {
    keysOf: (code) => {
      const match = BB_SFB.exec(code);
      const element = match?.[1] ?? match?.[2];
      if (element === undefined) return [];
      const group = `(${element.charAt(0)}-)`;
      return element.endsWith('-') ? [group] : [`(${element})`, group];
    },
  },
  ns3451: {
    keysOf: (code) => {
      const digits = NS3451.exec(code)?.[1];
      return digits === undefined ? [] : prefixesOf([...digits], (parts) => parts.join(''));
    },
  },
  uniformat: {
    keysOf: (code) => {
      const match = UNIFORMAT.exec(code);
      if (match === null) return [];
      const [, letter = '', group, element] = match;
      const levels = [letter.toUpperCase(), group, element].filter((level): level is string => level !== undefined);
      return prefixesOf(levels, (parts) => parts.join(''));
    },
    hasOwnShape: (code) => UNIFORMAT_SHAPE.test(code),
  },
};

const TABLE_INDEX: ReadonlyMap<MappedClassificationSystem, ReadonlyMap<string, string>> = new Map(
  Object.entries(CLASSIFICATION_TABLES).map(([system, table]) => [
    system as MappedClassificationSystem,
    new Map(table.map((row) => [row.code, row.nlSfb])),
  ]),
);

const SHAPED_SYSTEMS = (Object.keys(READERS) as MappedClassificationSystem[]).filter(
  (system) => READERS[system].hasOwnShape !== undefined,
);

/**
 * The NL-SfB code (as nl-sfb.json writes it: `21`, `21.2`, `8-`) a classification reference code of `system` stands
 * for, else null. A code more specific than its table falls back to its nearest listed parent in its own system
 * (DIN `331.10` → `331`, OmniClass `21-02 10 10 20` → `21-02 10 10`, Uniclass `Ss_25_10_30_35` → `Ss_25_10_30`).
 * Without a system, only codes whose shape tells their system are read: Uniclass 2015 (`EF_25_10`, `ss-25-10-30`),
 * OmniClass table 21 (`21-02 10 10`, `21-021010`), Uniformat II (`B2010`, `B2010.10`); a plain number is null (it could
 * be NL-SfB, DIN 276 or NS 3451). `nl-sfb` gives null: its codes are read by `normaliseNlSfbCode`.
 */
export function nlSfbOfReference(system: ClassificationSystem | null, code: string): string | null {
  if (system === 'nl-sfb') return null;
  const text = cleaned(code);
  const readAs = system ?? SHAPED_SYSTEMS.find((shaped) => READERS[shaped].hasOwnShape?.(text) === true);
  if (readAs === undefined) return null;
  const table = TABLE_INDEX.get(readAs);
  for (const key of READERS[readAs].keysOf(text)) {
    const nlSfb = table?.get(key);
    if (nlSfb !== undefined) return nlSfb;
  }
  return null;
}
