/**
 * Units of an IFC model, as factors to SI (m, m², m³, kg): the project's IfcUnitAssignment, and any unit a single
 * quantity or property names for itself. IfcSIUnit with its prefix (MILLI METRE = 0.001, GRAM = 0.001 kg, KILO GRAM =
 * 1), IfcConversionBasedUnit through its conversion factor (FOOT = 0.3048 m), with well-known imperial names as the
 * fallback when the factor is missing or unreadable. Kinds without an assignment are SI, as the IFC schema says.
 */
import { WebIfc } from './web-ifc';
import { numberOf, refOf, refsOf, textOf, type LineSource } from './raw';

const {
  IFCCONVERSIONBASEDUNIT,
  IFCMEASUREWITHUNIT,
  IFCPROJECT,
  IFCSIUNIT,
  IFCUNITASSIGNMENT,
} = WebIfc;

/** The physical kinds the importer converts. */
export type QuantityKind = 'length' | 'area' | 'volume' | 'mass';

/** Factor to SI per kind: a value × factor is in m, m², m³ or kg. */
export type UnitFactors = Record<QuantityKind, number>;

const SI: UnitFactors = { length: 1, area: 1, volume: 1, mass: 1 };

const UNIT_TYPES: Record<string, QuantityKind> = {
  LENGTHUNIT: 'length',
  AREAUNIT: 'area',
  VOLUMEUNIT: 'volume',
  MASSUNIT: 'mass',
};

const PREFIXES: Record<string, number> = {
  EXA: 1e18,
  PETA: 1e15,
  TERA: 1e12,
  GIGA: 1e9,
  MEGA: 1e6,
  KILO: 1e3,
  HECTO: 1e2,
  DECA: 1e1,
  DECI: 1e-1,
  CENTI: 1e-2,
  MILLI: 1e-3,
  MICRO: 1e-6,
  NANO: 1e-9,
  PICO: 1e-12,
  FEMTO: 1e-15,
  ATTO: 1e-18,
};

/** Conversion-based units by name (upper case), for files whose conversion factor is missing. */
const NAMED_UNITS: Record<string, { kind: QuantityKind; factor: number }> = {
  FOOT: { kind: 'length', factor: 0.3048 },
  'US SURVEY FOOT': { kind: 'length', factor: 1200 / 3937 },
  INCH: { kind: 'length', factor: 0.0254 },
  YARD: { kind: 'length', factor: 0.9144 },
  MILE: { kind: 'length', factor: 1609.344 },
  'SQUARE FOOT': { kind: 'area', factor: 0.09290304 },
  'SQUARE INCH': { kind: 'area', factor: 0.00064516 },
  'SQUARE YARD': { kind: 'area', factor: 0.83612736 },
  ACRE: { kind: 'area', factor: 4046.8564224 },
  'CUBIC FOOT': { kind: 'volume', factor: 0.028316846592 },
  'CUBIC INCH': { kind: 'volume', factor: 0.000016387064 },
  'CUBIC YARD': { kind: 'volume', factor: 0.764554857984 },
  LITRE: { kind: 'volume', factor: 0.001 },
  GALLON: { kind: 'volume', factor: 0.003785411784 },
  'US GALLON': { kind: 'volume', factor: 0.003785411784 },
  POUND: { kind: 'mass', factor: 0.45359237 },
  OUNCE: { kind: 'mass', factor: 0.028349523125 },
  'SHORT TON': { kind: 'mass', factor: 907.18474 },
  'LONG TON': { kind: 'mass', factor: 1016.0469088 },
  TONNE: { kind: 'mass', factor: 1000 },
};

/** A unit read from the file: its kind (null for kinds we do not convert) and factor to SI. */
export interface UnitFactor {
  kind: QuantityKind | null;
  factor: number;
}

/** Reads units, caching each unit line (a file has a handful). */
export class UnitReader {
  private readonly cache = new Map<number, UnitFactor | null>();

  constructor(private readonly reader: LineSource) {}

  /** The project's units: IfcProject.UnitsInContext, else the file's first IfcUnitAssignment, else SI. */
  projectFactors(): UnitFactors {
    const factors: UnitFactors = { ...SI };
    let assignment: number | null = null;
    for (const projectId of this.reader.idsOfType(IFCPROJECT)) {
      assignment = refOf(this.reader.line(projectId)?.arguments[8]);
      if (assignment !== null) break;
    }
    assignment ??= this.reader.idsOfType(IFCUNITASSIGNMENT)[0] ?? null;
    if (assignment === null) return factors;
    const seen = new Set<QuantityKind>();
    for (const unitId of refsOf(this.reader.line(assignment)?.arguments[0])) {
      const unit = this.unit(unitId);
      // The first unit of a kind counts; a second one of the same kind is an exporter's mistake.
      if (unit === null || unit.kind === null || seen.has(unit.kind)) continue;
      seen.add(unit.kind);
      factors[unit.kind] = unit.factor;
    }
    return factors;
  }

  /** The kind and factor of a named unit line (IfcSIUnit or IfcConversionBasedUnit); null when unreadable. */
  unit(id: number, depth = 0): UnitFactor | null {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const result = depth > 4 ? null : this.readUnit(id, depth);
    this.cache.set(id, result);
    return result;
  }

  private readUnit(id: number, depth: number): UnitFactor | null {
    const line = this.reader.line(id);
    if (line === null) return null;
    if (line.type === IFCSIUNIT) {
      // IfcSIUnit(Dimensions, UnitType, Prefix, Name): Dimensions is always `*`, which web-ifc leaves out of the raw
      // arguments, so the three that matter are read from the end.
      const args = line.arguments;
      const kind = UNIT_TYPES[textOf(args[args.length - 3]) ?? ''] ?? null;
      const prefix = PREFIXES[textOf(args[args.length - 2]) ?? ''] ?? 1;
      const name = textOf(args[args.length - 1]);
      switch (name) {
        case 'METRE':
          return { kind, factor: prefix };
        case 'SQUARE_METRE':
          return { kind, factor: prefix * prefix };
        case 'CUBIC_METRE':
          return { kind, factor: prefix * prefix * prefix };
        case 'GRAM':
          return { kind, factor: prefix / 1000 };
        default:
          return { kind, factor: prefix };
      }
    }
    if (line.type === IFCCONVERSIONBASEDUNIT) {
      // IfcConversionBasedUnit(Dimensions, UnitType, Name, ConversionFactor)
      const name = (textOf(line.arguments[2]) ?? '').trim().toUpperCase();
      const named = NAMED_UNITS[name];
      const kind = UNIT_TYPES[textOf(line.arguments[1]) ?? ''] ?? named?.kind ?? null;
      const factor = this.conversionFactor(refOf(line.arguments[3]), depth);
      if (factor !== null && factor > 0) return { kind, factor };
      return named === undefined ? null : { kind, factor: named.factor };
    }
    return null;
  }

  /** IfcMeasureWithUnit(ValueComponent, UnitComponent): value × the unit component's own factor. */
  private conversionFactor(measureId: number | null, depth: number): number | null {
    if (measureId === null) return null;
    const measure = this.reader.line(measureId);
    if (measure === null || measure.type !== IFCMEASUREWITHUNIT) return null;
    const value = numberOf(measure.arguments[0]);
    if (value === null) return null;
    const componentId = refOf(measure.arguments[1]);
    const component = componentId === null ? null : this.unit(componentId, depth + 1);
    return value * (component?.factor ?? 1);
  }
}
