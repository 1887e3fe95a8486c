/**
 * Property and quantity sets, reduced to the entries the importer reads, and the rules that pick quantities and phases
 * from them (the platform's IFC import document, "Geometrical properties" and "Building phase"):
 * - a quantity is looked up name by name in priority order (Net before the plain name before Gross; area: the
 *   platform's list with `Area`, Revit's property, after the Net ones), each name first
 *   in the element's quantity sets (IfcElementQuantity), then its property sets, then the type's sets; the first value
 *   > 0 wins (a 0 only when nothing positive exists). Weight also takes any IfcQuantityWeight, whatever its name.
 * - phases are the values of `Phase Created`, `Renovation Status` (German ArchiCAD: `Umbau-Status`), `Phase` and
 *   `Status` (case-sensitive names), in that order, distinct.
 * - `Pset_Madaster` overrides both (and the material and classification) where it has a value.
 * Values are converted to SI: by the quantity's or property's own unit, else by the project's unit of its kind.
 */
import { WebIfc } from './web-ifc';
import { numberOf, refOf, refsOf, textOf, type RawArgument, type LineSource } from './raw';
import type { QuantityKind, UnitFactors, UnitReader } from './units';

const {
  IFCAREAMEASURE,
  IFCBOOLEAN,
  IFCELEMENTQUANTITY,
  IFCIDENTIFIER,
  IFCLABEL,
  IFCLENGTHMEASURE,
  IFCLOGICAL,
  IFCMASSMEASURE,
  IFCNONNEGATIVELENGTHMEASURE,
  IFCPOSITIVELENGTHMEASURE,
  IFCPROPERTYENUMERATEDVALUE,
  IFCPROPERTYSET,
  IFCPROPERTYSINGLEVALUE,
  IFCQUANTITYAREA,
  IFCQUANTITYLENGTH,
  IFCQUANTITYVOLUME,
  IFCQUANTITYWEIGHT,
  IFCTEXT,
  IFCVOLUMEMEASURE,
  LABEL,
} = WebIfc;

/** The quantities of an imported element. */
export type QuantityField = 'volume' | 'area' | 'length' | 'width' | 'height' | 'weight';

const FIELD_KINDS: Record<QuantityField, QuantityKind> = {
  volume: 'volume',
  area: 'area',
  length: 'length',
  width: 'length',
  height: 'length',
  weight: 'mass',
};

/** Property names per quantity, in priority order. */
export const QUANTITY_NAMES: Record<QuantityField, readonly string[]> = {
  volume: ['NetVolume', 'Volume', 'GrossVolume'],
  area: [
    'NetArea',
    'NetSideArea',
    'NetSurfaceArea',
    'Area',
    'GrossSideArea',
    'TotalSurfaceArea',
    'GrossSurfaceArea',
    'OuterSurfaceArea',
    'CrossSectionArea',
    'TotalArea',
    'GrossArea',
  ],
  length: ['NetLength', 'Length', 'GrossLength'],
  width: ['NetWidth', 'Width', 'GrossWidth'],
  height: ['NetHeight', 'Height', 'GrossHeight'],
  weight: ['NetWeight', 'Weight', 'GrossWeight'],
};

/** Property names that carry a phase, in priority order (`Umbau-Status`: German ArchiCAD's Renovation Status). */
export const PHASE_NAMES = ['Phase Created', 'Renovation Status', 'Umbau-Status', 'Phase', 'Status'] as const;

/** The platform's override set (IFC import document §2.1); its name is matched case-insensitively. */
const MADASTER_SET = 'pset_madaster';
const MADASTER_QUANTITIES: Record<QuantityField, string> = {
  volume: 'Volume',
  area: 'Area',
  length: 'Length',
  width: 'Width',
  height: 'Height',
  weight: 'Weight',
};

/** The common properties classification is inferred from (`Pset_WallCommon`, `Pset_SlabCommon`, …). */
const COMMON_FLAGS = ['IsExternal', 'LoadBearing'] as const;
/** A common property set of IFC: `Pset_<Something>Common`. */
const COMMON_SET = /^pset_\w*common$/i;

const INTERESTING_NAMES = new Set<string>([...Object.values(QUANTITY_NAMES).flat(), ...PHASE_NAMES, ...COMMON_FLAGS]);

/**
 * Properties in which CAD tools name what an element is made of besides its material association: Revit's "Materials
 * and Finishes" parameters (`Material`, `Frame Material`, `Glass Pane Material`, `Structural Material` …), ArchiCAD's
 * surface (`Oberfläche`, `Surface`), and the plain words for material in the languages the app speaks.
 */
const MATERIAL_HINT_NAME = /^(?:(?:.*\s)?material|oberfläche|surface|materiaal|werkstoff|matériau|materiale|materiales?)$/iu;

const QUANTITY_CLASSES = new Map<number, QuantityKind>([
  [IFCQUANTITYLENGTH, 'length'],
  [IFCQUANTITYAREA, 'area'],
  [IFCQUANTITYVOLUME, 'volume'],
  [IFCQUANTITYWEIGHT, 'mass'],
]);

const MEASURE_KINDS = new Map<number, QuantityKind>([
  [IFCLENGTHMEASURE, 'length'],
  [IFCPOSITIVELENGTHMEASURE, 'length'],
  [IFCNONNEGATIVELENGTHMEASURE, 'length'],
  [IFCAREAMEASURE, 'area'],
  [IFCVOLUMEMEASURE, 'volume'],
  [IFCMASSMEASURE, 'mass'],
]);

const TEXT_TYPES = new Set<number>([IFCLABEL, IFCTEXT, IFCIDENTIFIER]);
const TRUTH_TYPES = new Set<number>([IFCBOOLEAN, IFCLOGICAL]);

/** One property or quantity the importer may read. */
export interface PropertyEntry {
  name: string;
  /** In SI when `kind` is known; otherwise as written, and the project's unit of the field it is read for applies. */
  number: number | null;
  kind: QuantityKind | null;
  text: string | null;
  /** The value of an IfcBoolean or IfcLogical (true or false; UNKNOWN is null). */
  truth: boolean | null;
  /** An IfcQuantityWeight (the platform takes the first one, whatever its name). */
  weightQuantity: boolean;
}

/** A property or quantity set, reduced to its interesting entries. */
export interface DefinitionSummary {
  quantitySet: boolean;
  madaster: boolean;
  /** One of IFC's `Pset_*Common` sets. */
  common: boolean;
  entries: PropertyEntry[];
}

/** What the sets of one element say. */
export interface ResolvedProperties {
  quantities: Record<QuantityField, number | null>;
  phases: string[];
  madasterMaterial: string | null;
  madasterClassification: string | null;
  madasterPhase: string | null;
  /** `IsExternal` of the first common set that says (the element's own before its type's); null when none does. */
  isExternal: boolean | null;
  /** `LoadBearing`, the same way. */
  loadBearing: boolean | null;
  /** The distinct texts of material properties (MATERIAL_HINT_NAME), in set order. */
  materialHints: string[];
}

/** Reads property and quantity sets; sets related to several objects are cached once read. */
export class PropertyReader {
  private readonly cache = new Map<number, DefinitionSummary | null>();

  constructor(
    private readonly reader: LineSource,
    private readonly units: UnitReader,
    private readonly factors: UnitFactors,
    private readonly shared: ReadonlySet<number>,
  ) {}

  /** Reads these sets and their properties in bulk, ahead of `summary` (skips the cached ones). */
  prefetch(definitionIds: readonly number[]): void {
    const wanted = definitionIds.filter((id) => !this.cache.has(id));
    this.reader.prefetch(wanted);
    const children: number[] = [];
    for (const id of wanted) {
      const line = this.reader.line(id);
      if (line !== null) children.push(...refsOf(line.arguments[4]));
    }
    this.reader.prefetch(children);
  }

  /** The interesting entries of a property set or element quantity; null for any other definition. */
  summary(id: number): DefinitionSummary | null {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const summary = this.read(id);
    if (this.shared.has(id)) this.cache.set(id, summary);
    return summary;
  }

  private read(id: number): DefinitionSummary | null {
    const line = this.reader.line(id);
    if (line === null) return null;
    // IfcPropertySet(GlobalId, OwnerHistory, Name, Description, HasProperties);
    // IfcElementQuantity(GlobalId, OwnerHistory, Name, Description, MethodOfMeasurement, Quantities).
    const quantitySet = line.type === IFCELEMENTQUANTITY;
    if (!quantitySet && line.type !== IFCPROPERTYSET) return null;
    const setName = textOf(line.arguments[2]) ?? '';
    const madaster = setName.toLowerCase() === MADASTER_SET;
    const common = !quantitySet && COMMON_SET.test(setName);
    const entries: PropertyEntry[] = [];
    for (const childId of refsOf(line.arguments[quantitySet ? 5 : 4])) {
      const child = this.reader.line(childId);
      if (child === null) continue;
      const name = textOf(child.arguments[0]);
      if (name === null) continue;
      const quantityKind = QUANTITY_CLASSES.get(child.type);
      const weightQuantity = child.type === IFCQUANTITYWEIGHT;
      if (!madaster && !weightQuantity && !INTERESTING_NAMES.has(name) && !MATERIAL_HINT_NAME.test(name)) continue;
      if (quantityKind !== undefined) {
        // IfcPhysicalSimpleQuantity(Name, Description, Unit, Value, …)
        const value = numberOf(child.arguments[3]);
        const factor = this.factorFor(child.arguments[2], quantityKind);
        entries.push({ name, number: value === null ? null : value * factor, kind: quantityKind, text: null, truth: null, weightQuantity });
      } else if (child.type === IFCPROPERTYSINGLEVALUE) {
        // IfcPropertySingleValue(Name, Description, NominalValue, Unit)
        entries.push({ name, ...this.value(child.arguments[2], child.arguments[3]), weightQuantity: false });
      } else if (child.type === IFCPROPERTYENUMERATEDVALUE) {
        // IfcPropertyEnumeratedValue(Name, Description, EnumerationValues, EnumerationReference): the first value.
        const values = child.arguments[2];
        const first = Array.isArray(values) ? values[0] : values;
        entries.push({ name, ...this.value(first, null), weightQuantity: false });
      }
    }
    return { quantitySet, madaster, common, entries };
  }

  /** A typed value: text for labels and identifiers, a number (in SI when its measure says its kind) otherwise. */
  private value(argument: RawArgument, unitArgument: RawArgument): Pick<PropertyEntry, 'number' | 'kind' | 'text' | 'truth'> {
    if (argument === null || argument === undefined || Array.isArray(argument)) return { number: null, kind: null, text: null, truth: null };
    const typecode = argument.type === LABEL ? argument.typecode : undefined;
    if (typecode !== undefined && TRUTH_TYPES.has(typecode)) {
      return { number: null, kind: null, text: null, truth: typeof argument.value === 'boolean' ? argument.value : null };
    }
    if (typecode !== undefined && TEXT_TYPES.has(typecode)) return { number: null, kind: null, text: textOf(argument)?.trim() || null, truth: null };
    const number = numberOf(argument);
    if (number === null) return { number: null, kind: null, text: textOf(argument)?.trim() || null, truth: null };
    const unitId = refOf(unitArgument);
    const unit = unitId === null ? null : this.units.unit(unitId);
    const kind = unit?.kind ?? (typecode === undefined ? null : (MEASURE_KINDS.get(typecode) ?? null));
    if (kind === null) return { number, kind: null, text: String(number), truth: null };
    const factor = unit !== null && unit.kind === kind ? unit.factor : this.factors[kind];
    return { number: number * factor, kind, text: String(number), truth: null };
  }

  private factorFor(unitArgument: RawArgument, kind: QuantityKind): number {
    const unitId = refOf(unitArgument);
    const unit = unitId === null ? null : this.units.unit(unitId);
    return unit !== null && unit.kind === kind ? unit.factor : this.factors[kind];
  }
}

/** The SI value of an entry read for a field of `kind`; null when it is of another kind or not a number. */
function valueFor(entry: PropertyEntry, kind: QuantityKind, factors: UnitFactors): number | null {
  if (entry.number === null) return null;
  if (entry.kind === null) return entry.number * factors[kind];
  return entry.kind === kind ? entry.number : null;
}

/** Which quantity each name in QUANTITY_NAMES is read for (every name belongs to one field). */
const NAME_FIELDS = new Map<string, QuantityField>(
  (Object.entries(QUANTITY_NAMES) as [QuantityField, readonly string[]][]).flatMap(([field, names]) => names.map((name) => [name, field] as const)),
);
const MADASTER_FIELDS = new Map<string, QuantityField>(
  (Object.entries(MADASTER_QUANTITIES) as [QuantityField, string][]).map(([field, name]) => [name, field]),
);
const FIELDS = Object.keys(QUANTITY_NAMES) as QuantityField[];

/** Sets in lookup order: quantity sets before property sets, the element's own before its type's. */
export function orderSets(own: readonly DefinitionSummary[], ofType: readonly DefinitionSummary[]): DefinitionSummary[] {
  const ordered: DefinitionSummary[] = [];
  for (const group of [own, ofType]) {
    for (const set of group) if (set.quantitySet) ordered.push(set);
    for (const set of group) if (!set.quantitySet) ordered.push(set);
  }
  return ordered;
}

/**
 * Quantities, phases and Pset_Madaster overrides from an element's sets (ordered by `orderSets`). One pass over the
 * entries records, per name, the first value > 0 in set order; the fields then take their names in priority order.
 * Runs once per element: plain loops, no closures.
 */
export function resolveProperties(sets: readonly DefinitionSummary[], factors: UnitFactors): ResolvedProperties {
  const byName = new Map<string, number>();
  const overrides = new Map<QuantityField, number>();
  const zeros = new Set<QuantityField>();
  let anyWeight: number | null = null;
  let madasterMaterial: string | null = null;
  let madasterClassification: string | null = null;
  let madasterPhase: string | null = null;
  let isExternal: boolean | null = null;
  let loadBearing: boolean | null = null;
  const materialHints: string[] = [];

  for (const set of sets) {
    for (const entry of set.entries) {
      if (!set.quantitySet && entry.text !== null && MATERIAL_HINT_NAME.test(entry.name) && !materialHints.includes(entry.text)) {
        materialHints.push(entry.text);
      }
      if (set.common && entry.truth !== null) {
        if (entry.name === 'IsExternal') isExternal ??= entry.truth;
        else if (entry.name === 'LoadBearing') loadBearing ??= entry.truth;
      }
      if (set.madaster) {
        const field = MADASTER_FIELDS.get(entry.name);
        if (field !== undefined) {
          const value = valueFor(entry, FIELD_KINDS[field], factors);
          if (value !== null && value > 0 && !overrides.has(field)) overrides.set(field, value);
        } else if (entry.text !== null) {
          if (entry.name === 'MaterialOrProductName') madasterMaterial ??= entry.text;
          else if (entry.name === 'Classification') madasterClassification ??= entry.text;
          else if (entry.name === 'Phase') madasterPhase ??= entry.text;
        }
      }
      const field = NAME_FIELDS.get(entry.name);
      if (field !== undefined) {
        const value = valueFor(entry, FIELD_KINDS[field], factors);
        if (value !== null && Number.isFinite(value)) {
          if (value > 0) {
            if (!byName.has(entry.name)) byName.set(entry.name, value);
          } else if (value === 0) zeros.add(field);
        }
      }
      if (entry.weightQuantity && anyWeight === null) {
        const value = valueFor(entry, 'mass', factors);
        if (value !== null && value > 0) anyWeight = value;
        else if (value === 0) zeros.add('weight');
      }
    }
  }

  const quantities = {} as Record<QuantityField, number | null>;
  for (const field of FIELDS) {
    let value = overrides.get(field) ?? null;
    for (const name of QUANTITY_NAMES[field]) {
      if (value !== null) break;
      value = byName.get(name) ?? null;
    }
    if (value === null && field === 'weight') value = anyWeight;
    // Nothing positive anywhere: a written 0 stays visible as 0, nothing written is null.
    quantities[field] = value ?? (zeros.has(field) ? 0 : null);
  }

  const phases: string[] = [];
  for (const name of PHASE_NAMES) {
    for (const set of sets) {
      if (set.quantitySet) continue;
      for (const entry of set.entries) {
        if (entry.name === name && entry.text !== null && !phases.includes(entry.text)) phases.push(entry.text);
      }
    }
  }

  return { quantities, phases, madasterMaterial, madasterClassification, madasterPhase, isExternal, loadBearing, materialHints };
}
