/**
 * What an element of a layered or composite material splits into (the platform's IFC import document §2.5.8 and
 * §2.6.1–§2.6.3; server/imports/README.md, "Materials"), read once per material select and cached, since a set is
 * shared by many elements:
 * - IfcMaterialLayerSetUsage and IfcMaterialLayerSet: one part per layer whose thickness is above 0, in the set's
 *   order, with its thickness in metres; a layer of thickness 0, below 0 or none is left out (and counted in a set of
 *   two or more layers). A layer without a material is still a part, naming none.
 * - IfcMaterialConstituentSet: one part per constituent, its share the Fraction. Fractions that do not add up to 1 are
 *   divided by their sum; a constituent without a (valid) fraction shares what the others leave, equally with the
 *   others without one, and when nothing is left every constituent gets an equal share (assumed); a fraction of 0
 *   makes up nothing of the element and is left out.
 * - IfcMaterialList: one part per material, equal shares (assumed).
 * A select of one material (IfcMaterial, a single layer or constituent, profiles) splits into nothing: null.
 */
import type { PartKind } from '../imported-element';
import { numberOf, refOf, refsOf, textOf, type LineSource } from './raw';
import { WebIfc } from './web-ifc';

const { IFCMATERIAL, IFCMATERIALCONSTITUENT, IFCMATERIALCONSTITUENTSET, IFCMATERIALLAYER, IFCMATERIALLAYERSET, IFCMATERIALLAYERSETUSAGE, IFCMATERIALLAYERWITHOFFSETS, IFCMATERIALLIST } =
  WebIfc;

/** How far the sum of given fractions may be from 1 before it counts as not adding up (written with three decimals). */
const FRACTION_TOLERANCE = 1e-3;

/** One part of a split material. */
export interface MaterialPart {
  /** The name of its material; null when it has none (an air gap) or the material is unnamed. */
  name: string | null;
  /** Its share of the element: its thickness over the parts' total, or its fraction; the parts' shares add up to 1. */
  share: number;
  /** A layer's thickness in metres; null for constituents and listed materials. */
  thickness: number | null;
}

/** What a material select of several materials splits into. */
export interface MaterialSplit {
  kind: PartKind;
  /** In the set's order. Fewer than two: the element stays whole. */
  parts: MaterialPart[];
  /** The shares were assumed, not given: a material list, constituents without fractions. */
  shareAssumed: boolean;
  /** Layers left out for their thickness (0, below 0, or none). */
  layersLeftOut: number;
  /** The given fractions did not add up to 1 and were divided by their sum. */
  fractionsNormalised: boolean;
}

/** A constituent as written: its material's name and its fraction, null when missing or invalid (below 0). */
interface Constituent {
  name: string | null;
  fraction: number | null;
}

/** Parts of equal shares. */
function equalParts(names: readonly (string | null)[]): MaterialPart[] {
  return names.map((name) => ({ name, share: 1 / names.length, thickness: null }));
}

/** The parts of a constituent set by its fractions (see the module comment). */
function constituentSplit(constituents: readonly Constituent[]): MaterialSplit {
  let given = 0;
  let missing = 0;
  for (const { fraction } of constituents) {
    if (fraction === null) missing += 1;
    else given += fraction;
  }
  const split = (parts: MaterialPart[], shareAssumed: boolean, fractionsNormalised = false): MaterialSplit => ({
    kind: 'constituent',
    parts,
    shareAssumed,
    layersLeftOut: 0,
    fractionsNormalised,
  });
  const left = 1 - given;
  if (missing === constituents.length || (missing > 0 && left <= FRACTION_TOLERANCE) || (missing === 0 && given <= 0)) {
    return split(equalParts(constituents.map((constituent) => constituent.name)), true);
  }
  const parts: MaterialPart[] = [];
  for (const { name, fraction } of constituents) {
    if (fraction === 0) continue;
    const share = fraction === null ? left / missing : missing > 0 ? fraction : fraction / given;
    parts.push({ name, share, thickness: null });
  }
  return split(parts, missing > 0, missing === 0 && Math.abs(given - 1) > FRACTION_TOLERANCE);
}

/** Reads and caches the splits of material selects. */
export class MaterialSplits {
  private readonly cache = new Map<number, MaterialSplit | null>();

  /** `metresPerUnit`: the project's length unit in metres, which layer thicknesses are written in. */
  constructor(
    private readonly reader: LineSource,
    private readonly metresPerUnit: number,
  ) {}

  /** What the material select with this id splits into; null for a select of one material. */
  of(selectId: number): MaterialSplit | null {
    let split = this.cache.get(selectId);
    if (split === undefined) {
      split = this.read(selectId);
      this.cache.set(selectId, split);
    }
    return split;
  }

  private read(selectId: number): MaterialSplit | null {
    const line = this.reader.line(selectId);
    if (line === null) return null;
    switch (line.type) {
      case IFCMATERIALLAYERSETUSAGE: {
        // IfcMaterialLayerSetUsage(ForLayerSet, LayerSetDirection, DirectionSense, OffsetFromReferenceLine, …)
        const set = refOf(line.arguments[0]);
        const setLine = set === null ? null : this.reader.line(set);
        return setLine?.type === IFCMATERIALLAYERSET ? this.layers(refsOf(setLine.arguments[0])) : null;
      }
      case IFCMATERIALLAYERSET:
        // IfcMaterialLayerSet(MaterialLayers, LayerSetName, …)
        return this.layers(refsOf(line.arguments[0]));
      case IFCMATERIALCONSTITUENTSET: {
        // IfcMaterialConstituentSet(Name, Description, MaterialConstituents)
        const constituents = refsOf(line.arguments[2]);
        return constituents.length < 2 ? null : constituentSplit(constituents.map((id) => this.constituent(id)));
      }
      case IFCMATERIALLIST: {
        // IfcMaterialList(Materials)
        const materials = refsOf(line.arguments[0]);
        if (materials.length < 2) return null;
        return { kind: 'list', parts: equalParts(materials.map((id) => this.materialName(id))), shareAssumed: true, layersLeftOut: 0, fractionsNormalised: false };
      }
      default:
        return null;
    }
  }

  /** The parts of a layer set: its layers with a thickness above 0, in order. */
  private layers(layerIds: readonly number[]): MaterialSplit | null {
    if (layerIds.length < 2) return null;
    const parts: MaterialPart[] = [];
    let total = 0;
    let layersLeftOut = 0;
    for (const id of layerIds) {
      const layer = this.reader.line(id);
      // IfcMaterialLayer(Material, LayerThickness, IsVentilated, …); IfcMaterialLayerWithOffsets begins the same.
      const isLayer = layer !== null && (layer.type === IFCMATERIALLAYER || layer.type === IFCMATERIALLAYERWITHOFFSETS);
      const thickness = isLayer ? (numberOf(layer.arguments[1]) ?? 0) * this.metresPerUnit : 0;
      if (!isLayer || !(thickness > 0)) {
        layersLeftOut += 1;
        continue;
      }
      const material = refOf(layer.arguments[0]);
      parts.push({ name: material === null ? null : this.materialName(material), share: 0, thickness });
      total += thickness;
    }
    for (const part of parts) part.share = (part.thickness ?? 0) / total;
    return { kind: 'layer', parts, shareAssumed: false, layersLeftOut, fractionsNormalised: false };
  }

  /** IfcMaterialConstituent(Name, Description, Material, Fraction, Category). */
  private constituent(id: number): Constituent {
    const line = this.reader.line(id);
    if (line === null || line.type !== IFCMATERIALCONSTITUENT) return { name: null, fraction: null };
    const material = refOf(line.arguments[2]);
    const fraction = numberOf(line.arguments[3]);
    return { name: material === null ? null : this.materialName(material), fraction: fraction !== null && fraction >= 0 ? fraction : null };
  }

  /** IfcMaterial(Name, …): its name, trimmed; null when it has none or the line is no material. */
  private materialName(id: number): string | null {
    const line = this.reader.line(id);
    if (line === null || line.type !== IFCMATERIAL) return null;
    return textOf(line.arguments[0])?.trim() || null;
  }
}
