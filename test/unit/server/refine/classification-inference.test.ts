import { describe, expect, it } from 'vitest';
import {
  INFERENCE_RULES,
  inferNlSfbCode,
  nlSfbCodeOfLayerName,
  type ElementFacts,
  type InferredCode,
} from '../../../../server/refine/classification-inference';
import { brandLayerOf } from '../../../../server/refine/nl-sfb';
import { committedSeedData } from '../../../../server/store/seed/system-data';

const LISTED_CODES: ReadonlySet<string> = new Set(committedSeedData.nlSfb.codes.map(({ code }) => code));

/** An element of `ifcClass` that says nothing else, with `facts` on top. */
function element(ifcClass: string, facts: Partial<Omit<ElementFacts, 'ifcClass'>> = {}): ElementFacts {
  return { ifcClass, predefinedType: null, typeClass: null, isExternal: null, loadBearing: null, ...facts };
}

const EXTERNAL = { isExternal: true };
const INTERNAL = { isExternal: false };

/** Every code an inferred code can give. */
function codesOf(code: InferredCode | undefined): string[] {
  if (code === undefined || code === null) return [];
  if (typeof code === 'string') return [code];
  return [code.external, code.internal, code.unknown].filter((side): side is string => side !== null);
}

describe('inferNlSfbCode', () => {
  it.each<[string, ElementFacts, string | null]>([
    ['an external wall', element('IfcWall', EXTERNAL), '21'],
    ['an internal wall', element('IfcWallStandardCase', INTERNAL), '22'],
    ['a wall that does not say where it stands', element('IfcWallElementedCase'), '22'],
    ['a load-bearing external wall', element('IfcWall', { isExternal: true, loadBearing: true }), '21.2'],
    ['a load-bearing internal wall', element('IfcWallStandardCase', { isExternal: false, loadBearing: true }), '22.2'],
    ['a load-bearing wall of unknown side', element('IfcWall', { loadBearing: true }), '22.2'],
    ['a wall that is not load-bearing', element('IfcWall', { isExternal: true, loadBearing: false }), '21'],
    ['a curtain wall', element('IfcCurtainWall'), '21'],
    ['a curtain panel', element('IfcPlate', { predefinedType: 'CURTAIN_PANEL' }), '31'],
    ['a mullion', element('IfcMember', { predefinedType: 'MULLION' }), '31'],
    ['a floor slab', element('IfcSlab', { predefinedType: 'FLOOR' }), '23'],
    ['a roof slab', element('IfcSlab', { predefinedType: 'ROOF' }), '27'],
    ['a load-bearing roof slab', element('IfcSlabStandardCase', { predefinedType: 'ROOF', loadBearing: true }), '27.2'],
    ['a base slab', element('IfcSlab', { predefinedType: 'BASESLAB' }), '13'],
    ['a landing', element('IfcSlab', { predefinedType: 'LANDING' }), '24'],
    ['a slab without a type', element('IfcSlabElementedCase'), '23'],
    ['a slab of another type', element('IfcSlab', { predefinedType: 'APPROACH_SLAB' }), '23'],
    ['a load-bearing floor slab', element('IfcSlab', { predefinedType: 'FLOOR', loadBearing: true }), '23'],
    ['a roof', element('IfcRoof'), '27'],
    ['a column', element('IfcColumn'), '28'],
    ['a column (IFC4 standard case)', element('IfcColumnStandardCase'), '28'],
    ['a beam', element('IfcBeam'), '28'],
    ['a beam (IFC4 standard case)', element('IfcBeamStandardCase'), '28'],
    ['a member', element('IfcMember', { predefinedType: 'BRACE' }), '28'],
    ['a member (IFC4 standard case)', element('IfcMemberStandardCase'), '28'],
    ['a plate', element('IfcPlate', { predefinedType: 'SHEET' }), '28'],
    ['a plate (IFC4 standard case)', element('IfcPlateStandardCase'), '28'],
    ['a steel assembly', element('IfcElementAssembly'), '28'],
    ['a truss', element('IfcElementAssembly', { predefinedType: 'TRUSS' }), '28'],
    ['a slab field', element('IfcElementAssembly', { predefinedType: 'SLAB_FIELD' }), '23'],
    ['a mechanical fastener', element('IfcMechanicalFastener'), '28'],
    ['a fastener', element('IfcFastener'), '28'],
    ['a discrete accessory', element('IfcDiscreteAccessory'), '28'],
    ['a reinforcing bar', element('IfcReinforcingBar'), '28'],
    ['a footing', element('IfcFooting', { predefinedType: 'PAD_FOOTING' }), '16'],
    ['a pile', element('IfcPile'), '17'],
    ['a caisson (IFC4X3)', element('IfcCaissonFoundation'), '17'],
    ['a stair', element('IfcStair'), '24'],
    ['a stair flight', element('IfcStairFlight'), '24'],
    ['a ramp', element('IfcRamp'), '24'],
    ['a ramp flight', element('IfcRampFlight'), '24'],
    ['a railing', element('IfcRailing'), '34'],
    ['an external window', element('IfcWindow', EXTERNAL), '31'],
    ['an internal window', element('IfcWindowStandardCase', INTERNAL), '32'],
    ['a window that does not say where it is', element('IfcWindow'), '31'],
    ['an external door', element('IfcDoor', EXTERNAL), '31'],
    ['an internal door', element('IfcDoorStandardCase', INTERNAL), '32'],
    ['a door that does not say where it is', element('IfcDoor'), '32'],
    ['an external shading device', element('IfcShadingDevice', EXTERNAL), '31'],
    ['an internal shading device', element('IfcShadingDevice', INTERNAL), null],
    ['a ceiling', element('IfcCovering', { predefinedType: 'CEILING' }), '45'],
    ['flooring', element('IfcCovering', { predefinedType: 'FLOORING' }), '43'],
    ['external cladding', element('IfcCovering', { predefinedType: 'CLADDING', isExternal: true }), '41'],
    ['internal cladding', element('IfcCovering', { predefinedType: 'CLADDING', isExternal: false }), '42'],
    ['cladding that does not say where it is', element('IfcCovering', { predefinedType: 'CLADDING' }), '42'],
    ['roofing', element('IfcCovering', { predefinedType: 'ROOFING' }), '47'],
    ['a membrane', element('IfcCovering', { predefinedType: 'MEMBRANE' }), null],
    ['insulation', element('IfcCovering', { predefinedType: 'INSULATION' }), null],
    ['a covering without a type', element('IfcCovering'), null],
    ['a furnishing element (IFC2X3)', element('IfcFurnishingElement'), '8-'],
    ['furniture (IFC4)', element('IfcFurniture', { predefinedType: 'CHAIR' }), '8-'],
    ['system furniture (IFC4)', element('IfcSystemFurnitureElement'), '8-'],
    ['terrain', element('IfcGeographicElement', { predefinedType: 'TERRAIN' }), '9-'],
    ['an elevator', element('IfcTransportElement', { predefinedType: 'ELEVATOR' }), '66'],
    ['an escalator', element('IfcTransportElement', { predefinedType: 'ESCALATOR' }), '66'],
    ['an electrical element (IFC2X3)', element('IfcElectricalElement'), '6-'],
  ])('%s', (_what, facts, code) => {
    expect(inferNlSfbCode(facts)).toBe(code);
  });

  it.each<[string, string]>([
    // Generic distribution classes.
    ['IfcDistributionElement', '5-'],
    ['IfcDistributionFlowElement', '5-'],
    ['IfcDistributionControlElement', '5-'],
    ['IfcEnergyConversionDevice', '5-'],
    ['IfcFlowController', '5-'],
    ['IfcFlowFitting', '5-'],
    ['IfcFlowMovingDevice', '5-'],
    ['IfcFlowSegment', '5-'],
    ['IfcFlowStorageDevice', '5-'],
    ['IfcFlowTerminal', '5-'],
    ['IfcFlowTreatmentDevice', '5-'],
    // Mechanical.
    ['IfcPipeSegment', '5-'],
    ['IfcPipeFitting', '5-'],
    ['IfcValve', '5-'],
    ['IfcPump', '5-'],
    ['IfcTank', '5-'],
    ['IfcSensor', '5-'],
    ['IfcWasteTerminal', '52'],
    ['IfcInterceptor', '52'],
    ['IfcMedicalDevice', '54'],
    ['IfcChiller', '55'],
    ['IfcBoiler', '56'],
    ['IfcSpaceHeater', '56'],
    ['IfcDuctSegment', '57'],
    ['IfcDuctFitting', '57'],
    ['IfcAirTerminal', '57'],
    ['IfcFan', '57'],
    ['IfcUnitaryEquipment', '57'],
    ['IfcFireSuppressionTerminal', '59'],
    ['IfcSanitaryTerminal', '74'],
    // Electrical.
    ['IfcCableSegment', '6-'],
    ['IfcCableCarrierSegment', '6-'],
    ['IfcCableFitting', '6-'],
    ['IfcCableCarrierFitting', '6-'],
    ['IfcOutlet', '6-'],
    ['IfcSwitchingDevice', '6-'],
    ['IfcElectricAppliance', '6-'],
    ['IfcProtectiveDevice', '6-'],
    ['IfcJunctionBox', '6-'],
    ['IfcElectricMotor', '6-'],
    ['IfcElectricDistributionBoard', '61'],
    ['IfcElectricDistributionPoint', '61'],
    ['IfcTransformer', '61'],
    ['IfcElectricGenerator', '61'],
    ['IfcLightFixture', '63'],
    ['IfcLamp', '63'],
    ['IfcCommunicationsAppliance', '64'],
    ['IfcAudioVisualAppliance', '64'],
    ['IfcAlarm', '65'],
    ['IfcConveyorSegment', '66'],
  ])('distribution element %s → %s', (ifcClass, code) => {
    expect(inferNlSfbCode(element(ifcClass))).toBe(code);
  });

  it.each<[string, string, string]>([
    ['IfcFlowTerminal', 'IfcLightFixtureType', '63'],
    ['IfcFlowTerminal', 'IfcLampType', '63'],
    ['IfcFlowTerminal', 'IfcElectricApplianceType', '6-'],
    ['IfcFlowTerminal', 'IfcOutletType', '6-'],
    ['IfcFlowTerminal', 'IfcSanitaryTerminalType', '74'],
    ['IfcFlowTerminal', 'IfcAirTerminalType', '57'],
    ['IfcFlowTerminal', 'IfcGasTerminalType', '54'],
    ['IfcFlowTerminal', 'IfcElectricHeaterType', '56'],
    ['IfcFlowSegment', 'IfcCableSegmentType', '6-'],
    ['IfcFlowSegment', 'IfcCableCarrierSegmentType', '6-'],
    ['IfcFlowSegment', 'IfcDuctSegmentType', '57'],
    ['IfcFlowSegment', 'IfcPipeSegmentType', '5-'],
    ['IfcFlowController', 'IfcSwitchingDeviceType', '6-'],
    ['IfcFlowController', 'IfcElectricDistributionPointType', '61'],
    ['IfcFlowFitting', 'IfcJunctionBoxType', '6-'],
    ['IfcEnergyConversionDevice', 'IfcBoilerType', '56'],
    ['IfcEnergyConversionDevice', 'IfcTransformerType', '61'],
    ['IfcDistributionControlElement', 'IfcAlarmType', '65'],
    ['IFCFLOWTERMINAL', 'IFCLIGHTFIXTURETYPE', '63'],
  ])('IFC2X3 %s with a type of class %s → %s', (ifcClass, typeClass, code) => {
    expect(inferNlSfbCode(element(ifcClass, { typeClass }))).toBe(code);
  });

  it.each<[string, string, string]>([
    ['a generic element of an unknown type class', 'IfcFlowTerminal', 'IfcFooType'],
    ['a generic element whose type class is no distribution element', 'IfcFlowTerminal', 'IfcWallType'],
  ])('%s keeps its class’s code', (_what, ifcClass, typeClass) => {
    expect(inferNlSfbCode(element(ifcClass, { typeClass }))).toBe('5-');
  });

  it('reads the type class only for generic classes: a specific class says what it is', () => {
    expect(inferNlSfbCode(element('IfcPipeSegment', { typeClass: 'IfcLightFixtureType' }))).toBe('5-');
    expect(inferNlSfbCode(element('IfcWall', { typeClass: 'IfcLightFixtureType' }))).toBe('22');
  });

  it('compares classes and PredefinedTypes in any letter case, around spaces', () => {
    expect(inferNlSfbCode(element('IFCWALLSTANDARDCASE', EXTERNAL))).toBe('21');
    expect(inferNlSfbCode(element('ifcslab', { predefinedType: 'roof' }))).toBe('27');
    expect(inferNlSfbCode(element(' IfcCovering ', { predefinedType: ' Ceiling ' }))).toBe('45');
  });

  it.each<[string]>([['NOTDEFINED'], ['USERDEFINED'], ['notdefined']])('a PredefinedType %s says nothing', (predefinedType) => {
    expect(inferNlSfbCode(element('IfcSlab', { predefinedType }))).toBe('23');
    expect(inferNlSfbCode(element('IfcCovering', { predefinedType }))).toBeNull();
  });

  it.each<[string]>([
    ['IfcBuildingElementProxy'],
    ['IfcBuildingElementPart'],
    ['IfcOpeningElement'],
    ['IfcVirtualElement'],
    ['IfcCivilElement'],
    ['IfcChimney'],
    ['IfcSpace'],
    ['Wall'],
    [''],
  ])('%s gets no code', (ifcClass) => {
    expect(inferNlSfbCode(element(ifcClass, { isExternal: true, loadBearing: true, typeClass: 'IfcLightFixtureType' }))).toBeNull();
  });

  it('covers every IFC4 and IFC4X3 distribution element class (and IFC2X3’s distribution point)', () => {
    const distributionClasses = [
      'IfcActuator', 'IfcAlarm', 'IfcController', 'IfcFlowInstrument', 'IfcProtectiveDeviceTrippingUnit', 'IfcSensor',
      'IfcUnitaryControlElement', 'IfcDistributionChamberElement', 'IfcAirToAirHeatRecovery', 'IfcBoiler', 'IfcBurner',
      'IfcChiller', 'IfcCoil', 'IfcCondenser', 'IfcCooledBeam', 'IfcCoolingTower', 'IfcElectricGenerator',
      'IfcElectricMotor', 'IfcEngine', 'IfcEvaporativeCooler', 'IfcEvaporator', 'IfcHeatExchanger', 'IfcHumidifier',
      'IfcMotorConnection', 'IfcSolarDevice', 'IfcTransformer', 'IfcTubeBundle', 'IfcUnitaryEquipment',
      'IfcAirTerminalBox', 'IfcDamper', 'IfcElectricDistributionBoard', 'IfcElectricTimeControl', 'IfcFlowMeter',
      'IfcProtectiveDevice', 'IfcSwitchingDevice', 'IfcValve', 'IfcCableCarrierFitting', 'IfcCableFitting',
      'IfcDuctFitting', 'IfcJunctionBox', 'IfcPipeFitting', 'IfcCompressor', 'IfcFan', 'IfcPump',
      'IfcCableCarrierSegment', 'IfcCableSegment', 'IfcDuctSegment', 'IfcPipeSegment', 'IfcConveyorSegment',
      'IfcElectricFlowStorageDevice', 'IfcTank', 'IfcAirTerminal', 'IfcAudioVisualAppliance',
      'IfcCommunicationsAppliance', 'IfcElectricAppliance', 'IfcFireSuppressionTerminal', 'IfcLamp', 'IfcLightFixture',
      'IfcLiquidTerminal', 'IfcMedicalDevice', 'IfcMobileTelecommunicationsAppliance', 'IfcOutlet',
      'IfcSanitaryTerminal', 'IfcSignal', 'IfcSpaceHeater', 'IfcStackTerminal', 'IfcWasteTerminal', 'IfcDuctSilencer',
      'IfcFilter', 'IfcInterceptor', 'IfcElectricDistributionPoint',
    ];
    const missing = distributionClasses.filter((ifcClass) => inferNlSfbCode(element(ifcClass)) === null);
    expect(missing).toEqual([]);
    for (const ifcClass of distributionClasses) {
      expect(brandLayerOf(inferNlSfbCode(element(ifcClass))), ifcClass).toBe(ifcClass === 'IfcSanitaryTerminal' ? 'SpacePlan' : 'Services');
    }
  });
});

describe('the inference table', () => {
  it('lists every class once', () => {
    const classes = INFERENCE_RULES.flatMap((rule) => rule.classes.map((ifcClass) => ifcClass.toLowerCase()));
    expect(new Set(classes).size).toBe(classes.length);
    for (const ifcClass of classes) expect(ifcClass).toMatch(/^ifc[a-z]+$/);
  });

  it('gives every class of a row the row’s code when the element says nothing else', () => {
    for (const rule of INFERENCE_RULES) {
      const expected = rule.code === null || typeof rule.code === 'string' ? rule.code : rule.code.unknown;
      for (const ifcClass of rule.classes) expect(inferNlSfbCode(element(ifcClass)), ifcClass).toBe(expected);
    }
  });

  it('has only targets that nl-sfb.json lists and that have a brand layer', () => {
    const outcomes = INFERENCE_RULES.flatMap((rule) => [rule, ...Object.values(rule.predefinedTypes ?? {})]);
    const targets = outcomes.flatMap((outcome) => [...codesOf(outcome.code), ...codesOf(outcome.loadBearing)]);
    expect(targets.length).toBeGreaterThan(30);
    for (const target of new Set(targets)) {
      expect(LISTED_CODES.has(target), target).toBe(true);
      expect(brandLayerOf(target), target).not.toBe('Unknown');
    }
  });

  it('gives load-bearing walls and roof slabs the structural layer', () => {
    expect(brandLayerOf(inferNlSfbCode(element('IfcWall', { isExternal: true, loadBearing: true })))).toBe('Structure');
    expect(brandLayerOf(inferNlSfbCode(element('IfcWall', { isExternal: true })))).toBe('Skin');
    expect(brandLayerOf(inferNlSfbCode(element('IfcSlab', { predefinedType: 'ROOF', loadBearing: true })))).toBe('Structure');
  });
});

describe('nlSfbCodeOfLayerName', () => {
  it.each<[string, string]>([
    ['21_Buitenwanden', '21'],
    ['21.1_Buitenwanden', '21.1'],
    ['(21) Buitenwanden', '21'],
    ['(21)Buitenwanden', '21'],
    ['( 21.2 ) dragend', '21.2'],
    ['NLSfB-21', '21'],
    ['NL-SfB 21.2 dragend', '21.2'],
    ['nl_sfb_22', '22'],
    ['SfB: 23', '23'],
    ['BK-21', '21'],
    ['A-21.1', '21.1'],
    ['S_28_kolommen', '28'],
    ['21-Buitenwanden', '21'],
    ['21 Buitenwanden', '21'],
    ['  45 Plafonds  ', '45'],
    ['21.24_Buitenwanden', '21.2'],
    ['21.99', '21'],
    ['5-_Installaties', '5-'],
    ['2\u2013 Ruwbouw', '2-'],
    ['\uff12\uff11_Buitenwanden', '21'],
  ])('%s holds %s', (layerName, code) => {
    expect(nlSfbCodeOfLayerName(layerName)).toBe(code);
  });

  it.each<[string]>([
    ['Walls'],
    ['A-WALL'],
    ['0'],
    ['Default'],
    ['Layer 1'],
    ['212'],
    ['2014_walls'],
    ['21.2.4'],
    ['21Buitenwanden'],
    ['Layer-21'],
    ['90_Terrein'],
    ['29_Overig'],
    ['99.1'],
    [''],
  ])('%s holds no listed code', (layerName) => {
    expect(nlSfbCodeOfLayerName(layerName)).toBeNull();
  });
});
