/**
 * NL-SfB codes for elements whose model carries no usable classification: from the element's IFC class (with its
 * PredefinedType, type class, IsExternal and LoadBearing), and from the name of its presentation layer where a CAD layer
 * standard wrote the code there. Pure tables, no I/O.
 */
import { committedSeedData } from '../store/seed/system-data';
import { listedCodeOf, nlSfbCodeIndex } from './nl-sfb';

/** What the inference reads of an element. */
export interface ElementFacts {
  /** The IFC class, e.g. 'IfcWallStandardCase' (any letter case). */
  ifcClass: string;
  /** The element's PredefinedType, else its type object's (e.g. 'FLOOR'); NOTDEFINED and USERDEFINED count as null. */
  predefinedType: string | null;
  /** The class of its type object (e.g. 'IfcLightFixtureType'): what an IFC2X3 distribution element is. */
  typeClass: string | null;
  /** IsExternal of its Pset_*Common. */
  isExternal: boolean | null;
  /** LoadBearing of its Pset_*Common. */
  loadBearing: boolean | null;
}

/** An NL-SfB code that depends on IsExternal (`unknown`: the element does not say). */
export interface CodeBySide {
  readonly external: string | null;
  readonly internal: string | null;
  readonly unknown: string | null;
}

/** An NL-SfB code, one by IsExternal, or null for none. */
export type InferredCode = string | null | CodeBySide;

/** The code an element gets, and the one it gets instead when it is load-bearing. */
export interface InferenceOutcome {
  readonly code: InferredCode;
  /** Instead of `code` when LoadBearing is true. */
  readonly loadBearing?: InferredCode;
}

/** One row of the inference table. */
export interface InferenceRule extends InferenceOutcome {
  /** What the classes are, in words (for the README). */
  readonly what: string;
  /** The IFC classes the row covers: IFC2X3, IFC4 and IFC4X3 names. */
  readonly classes: readonly string[];
  /** Other outcomes for these PredefinedTypes (upper case). */
  readonly predefinedTypes?: Readonly<Record<string, InferenceOutcome>>;
}

const sided = (external: string | null, internal: string | null, unknown: string | null): CodeBySide => ({
  external,
  internal,
  unknown,
});

/** Building elements, structure and furniture. */
export const BUILDING_ELEMENT_RULES: readonly InferenceRule[] = [
  {
    what: 'Walls',
    classes: ['IfcWall', 'IfcWallStandardCase', 'IfcWallElementedCase'],
    // A wall that does not say where it stands is more often inside than in the envelope.
    code: sided('21', '22', '22'),
    loadBearing: sided('21.2', '22.2', '22.2'),
  },
  { what: 'Curtain walls', classes: ['IfcCurtainWall'], code: '21' },
  {
    what: 'Slabs',
    classes: ['IfcSlab', 'IfcSlabStandardCase', 'IfcSlabElementedCase'],
    code: '23',
    predefinedTypes: {
      FLOOR: { code: '23' },
      ROOF: { code: '27', loadBearing: '27.2' },
      BASESLAB: { code: '13' },
      LANDING: { code: '24' },
    },
  },
  { what: 'Roofs', classes: ['IfcRoof'], code: '27' },
  {
    what: 'Columns and beams',
    classes: ['IfcColumn', 'IfcColumnStandardCase', 'IfcBeam', 'IfcBeamStandardCase'],
    code: '28',
  },
  {
    what: 'Members (a mullion is part of a curtain wall)',
    classes: ['IfcMember', 'IfcMemberStandardCase'],
    code: '28',
    predefinedTypes: { MULLION: { code: '31' } },
  },
  {
    what: 'Plates (a curtain panel is part of a curtain wall)',
    classes: ['IfcPlate', 'IfcPlateStandardCase'],
    code: '28',
    predefinedTypes: { CURTAIN_PANEL: { code: '31' } },
  },
  {
    what: 'Element assemblies (structural steel assemblies)',
    classes: ['IfcElementAssembly'],
    code: '28',
    predefinedTypes: { SLAB_FIELD: { code: '23' } },
  },
  {
    what: 'Fasteners and accessories (steel connections)',
    classes: ['IfcMechanicalFastener', 'IfcFastener', 'IfcDiscreteAccessory'],
    code: '28',
  },
  {
    // Tekla and Revit export reinforcement with its own volume and weight: it is part of the structure it reinforces.
    what: 'Reinforcement',
    classes: ['IfcReinforcingElement', 'IfcReinforcingBar', 'IfcReinforcingMesh', 'IfcTendon', 'IfcTendonAnchor', 'IfcTendonConduit'],
    code: '28',
  },
  { what: 'Footings', classes: ['IfcFooting'], code: '16' },
  { what: 'Piles', classes: ['IfcPile', 'IfcDeepFoundation', 'IfcCaissonFoundation'], code: '17' },
  { what: 'Stairs and ramps', classes: ['IfcStair', 'IfcStairFlight', 'IfcRamp', 'IfcRampFlight'], code: '24' },
  { what: 'Railings', classes: ['IfcRailing'], code: '34' },
  { what: 'Windows', classes: ['IfcWindow', 'IfcWindowStandardCase'], code: sided('31', '32', '31') },
  { what: 'Doors', classes: ['IfcDoor', 'IfcDoorStandardCase'], code: sided('31', '32', '32') },
  {
    // Shading modelled as elements is mostly brise-soleils and louvres on the facade; indoor blinds are no element of it.
    what: 'Shading devices',
    classes: ['IfcShadingDevice'],
    code: sided('31', null, '31'),
  },
  {
    what: 'Coverings',
    classes: ['IfcCovering'],
    code: null,
    predefinedTypes: {
      CEILING: { code: '45' },
      FLOORING: { code: '43' },
      CLADDING: { code: sided('41', '42', '42') },
      ROOFING: { code: '47' },
    },
  },
  {
    // 8-, not 82: the class does not tell user, kitchen or storage furniture apart (Revit exports casework as furniture).
    what: 'Furniture',
    classes: ['IfcFurnishingElement', 'IfcFurniture', 'IfcSystemFurnitureElement'],
    code: '8-',
  },
  { what: 'Terrain and vegetation', classes: ['IfcGeographicElement'], code: '9-' },
  { what: 'Transport elements', classes: ['IfcTransportElement'], code: '66' },
  { what: 'Electrical elements (IFC2X3)', classes: ['IfcElectricalElement'], code: '6-' },
];

/**
 * The generic distribution classes: IFC2X3 has no subclasses for most distribution elements, so their type object's
 * class (IfcLightFixtureType) says what they are.
 */
const GENERIC_DISTRIBUTION_RULE: InferenceRule = {
  what: 'Distribution elements, generic (refined by their type class)',
  classes: [
    'IfcDistributionElement',
    'IfcDistributionFlowElement',
    'IfcDistributionControlElement',
    'IfcEnergyConversionDevice',
    'IfcFlowController',
    'IfcFlowFitting',
    'IfcFlowMovingDevice',
    'IfcFlowSegment',
    'IfcFlowStorageDevice',
    'IfcFlowTerminal',
    'IfcFlowTreatmentDevice',
  ],
  code: '5-',
};

/**
 * Distribution elements: every IfcDistributionElement subtype of IFC2X3, IFC4 and IFC4X3, plus the IFC2X3 type classes
 * without an occurrence class of their own (IfcGasTerminalType, IfcElectricHeaterType), which a generic element's type
 * class names. Two-digit codes where the class tells the installation; pipes, valves and pumps serve drainage, water and
 * heating alike and stay 5-.
 */
export const DISTRIBUTION_RULES: readonly InferenceRule[] = [
  GENERIC_DISTRIBUTION_RULE,
  { what: 'Drainage terminals and interceptors', classes: ['IfcWasteTerminal', 'IfcStackTerminal', 'IfcInterceptor'], code: '52' },
  { what: 'Gas terminals and medical gases', classes: ['IfcGasTerminal', 'IfcMedicalDevice'], code: '54' },
  {
    what: 'Cooling',
    classes: ['IfcChiller', 'IfcCoolingTower', 'IfcCondenser', 'IfcEvaporator', 'IfcEvaporativeCooler', 'IfcCooledBeam'],
    code: '55',
  },
  { what: 'Heating', classes: ['IfcBoiler', 'IfcBurner', 'IfcSpaceHeater', 'IfcElectricHeater'], code: '56' },
  {
    what: 'Air handling',
    classes: [
      'IfcAirTerminal',
      'IfcAirTerminalBox',
      'IfcAirToAirHeatRecovery',
      'IfcDamper',
      'IfcDuctFitting',
      'IfcDuctSegment',
      'IfcDuctSilencer',
      'IfcFan',
      'IfcHumidifier',
      'IfcUnitaryEquipment',
    ],
    code: '57',
  },
  { what: 'Fire suppression terminals', classes: ['IfcFireSuppressionTerminal'], code: '59' },
  {
    what: 'Other mechanical distribution elements',
    classes: [
      'IfcPipeSegment',
      'IfcPipeFitting',
      'IfcValve',
      'IfcPump',
      'IfcCompressor',
      'IfcTank',
      'IfcFlowMeter',
      'IfcFilter',
      'IfcCoil',
      'IfcHeatExchanger',
      'IfcTubeBundle',
      'IfcEngine',
      'IfcSolarDevice',
      'IfcDistributionChamberElement',
      'IfcLiquidTerminal',
      'IfcActuator',
      'IfcController',
      'IfcFlowInstrument',
      'IfcSensor',
      'IfcUnitaryControlElement',
    ],
    code: '5-',
  },
  {
    what: 'Central electrical installations',
    classes: [
      'IfcElectricDistributionBoard',
      'IfcElectricDistributionPoint',
      'IfcTransformer',
      'IfcElectricGenerator',
      'IfcElectricFlowStorageDevice',
    ],
    code: '61',
  },
  { what: 'Lighting', classes: ['IfcLightFixture', 'IfcLamp'], code: '63' },
  {
    what: 'Communication',
    classes: ['IfcCommunicationsAppliance', 'IfcAudioVisualAppliance', 'IfcMobileTelecommunicationsAppliance'],
    code: '64',
  },
  { what: 'Alarms', classes: ['IfcAlarm'], code: '65' },
  {
    what: 'Other electrical elements',
    classes: [
      'IfcCableSegment',
      'IfcCableFitting',
      'IfcCableCarrierSegment',
      'IfcCableCarrierFitting',
      'IfcJunctionBox',
      'IfcOutlet',
      'IfcSwitchingDevice',
      'IfcProtectiveDevice',
      'IfcProtectiveDeviceTrippingUnit',
      'IfcElectricAppliance',
      'IfcElectricMotor',
      'IfcMotorConnection',
      'IfcElectricTimeControl',
      'IfcSignal',
    ],
    code: '6-',
  },
  { what: 'Conveyor segments', classes: ['IfcConveyorSegment'], code: '66' },
  { what: 'Sanitary terminals', classes: ['IfcSanitaryTerminal'], code: '74' },
];

/** The whole inference table: what a README table of it is made from. Classes it does not list get no code. */
export const INFERENCE_RULES: readonly InferenceRule[] = [...BUILDING_ELEMENT_RULES, ...DISTRIBUTION_RULES];

const indexByClass = (rules: readonly InferenceRule[]): ReadonlyMap<string, InferenceRule> =>
  new Map(rules.flatMap((rule) => rule.classes.map((ifcClass) => [ifcClass.toLowerCase(), rule] as const)));

const RULE_BY_CLASS = indexByClass(INFERENCE_RULES);
const DISTRIBUTION_RULE_BY_CLASS = indexByClass(DISTRIBUTION_RULES);

// Values of a PredefinedType that say nothing about the element.
const UNDEFINED_TYPES: ReadonlySet<string> = new Set(['NOTDEFINED', 'USERDEFINED']);

/** The rule of an element: its class's, or for a generic distribution class its type class's where that is more specific. */
function ruleOf(facts: ElementFacts): InferenceRule | undefined {
  const rule = RULE_BY_CLASS.get(facts.ifcClass.trim().toLowerCase());
  if (rule !== GENERIC_DISTRIBUTION_RULE || facts.typeClass === null) return rule;
  const occurrenceClass = facts.typeClass.trim().toLowerCase().replace(/type$/, '');
  return DISTRIBUTION_RULE_BY_CLASS.get(occurrenceClass) ?? rule;
}

/**
 * The NL-SfB code an element's IFC class suggests (see INFERENCE_RULES), refined by its PredefinedType, type class,
 * IsExternal and LoadBearing; null for classes the table does not list (proxies, building element parts: the caller
 * falls back to the assembly's facts) and for variants that say nothing (a covering that is a membrane).
 */
export function inferNlSfbCode(facts: ElementFacts): string | null {
  const rule = ruleOf(facts);
  if (rule === undefined) return null;
  const predefinedType = facts.predefinedType?.trim().toUpperCase() ?? null;
  const outcome =
    predefinedType === null || UNDEFINED_TYPES.has(predefinedType) ? rule : (rule.predefinedTypes?.[predefinedType] ?? rule);
  const code = facts.loadBearing === true && outcome.loadBearing !== undefined ? outcome.loadBearing : outcome.code;
  if (code === null || typeof code === 'string') return code;
  if (facts.isExternal === null) return code.unknown;
  return facts.isExternal ? code.external : code.internal;
}

const SEED_CODES = nlSfbCodeIndex(committedSeedData.nlSfb.codes);

// Dashes other than U+002D that word processors put in layer names.
const DASHES = /[\u2010-\u2015\u2212]/g;
// A layer name that starts with an NL-SfB code: optionally after an NL-SfB label ("NLSfB-", "NL-SfB ") or a short
// discipline prefix of letters and - or _ ("BK-", "A-"); the code in brackets or followed by the end, a space, _ or -,
// so that numbers that go on ("212", "2014_walls", "21.2.4") are no code.
const LAYER_CODE = /^(?:(?:nl[\s_-]*)?sfb[\s_:=-]*|[a-z]{1,4}[-_]+)?\(?\s*(\d[\d-](?:\.\d+)?)\s*(?:\)|(?=$|[\s_-]|\.(?!\d)))/i;

/**
 * The NL-SfB code a presentation layer name holds, as CAD layer standards write them: `21_Buitenwanden`,
 * `21.1_Buitenwanden`, `(21) Buitenwanden`, `NLSfB-21`, `NL-SfB 21.2 dragend`, `BK-21`, `A-21.1`. The code as nl-sfb.json
 * lists it, else its nearest listed parent down to two digits (`21.29` → `21.2`); null for names without a code
 * (`Walls`, `A-WALL`, `0`, `Layer 1`), numbers that go on (`212`, `2014_walls`) and codes the list lacks down to two
 * digits (`90`, `99.1`).
 */
export function nlSfbCodeOfLayerName(layerName: string): string | null {
  const text = layerName.normalize('NFKC').replace(DASHES, '-').trim();
  const code = LAYER_CODE.exec(text)?.[1] ?? null;
  return listedCodeOf(code, SEED_CODES)?.code ?? null;
}
