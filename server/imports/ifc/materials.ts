/**
 * One material name per material select. Every variant resolves to a list of (name, share) pairs: IfcMaterial (one,
 * share 1), IfcMaterialList (each, share 1), IfcMaterialLayerSet(Usage) and IfcMaterialLayer(WithOffsets) (share =
 * layer thickness), IfcMaterialProfileSet(Usage(Tapering)) and IfcMaterialProfile (share 1 each), and
 * IfcMaterialConstituentSet / IfcMaterialConstituent (share = Fraction, 1 when absent).
 *
 * The name is the distinct names joined with ' / ', the dominant one first: ordered by total share, descending, ties
 * in file order. One material stays its plain name, so simple elements match the catalogue exactly; a layered wall
 * reads `Kalkzandsteen / Minerale wol / Baksteen` with its thickest layer first, so a StartsWith match lands on the
 * material that carries most of the mass, while every layer stays visible for the user and for product matching.
 */
import { WebIfc } from './web-ifc';
import { numberOf, refOf, refsOf, textOf, type LineSource } from './raw';

const {
  IFCMATERIAL,
  IFCMATERIALCONSTITUENT,
  IFCMATERIALCONSTITUENTSET,
  IFCMATERIALLAYER,
  IFCMATERIALLAYERSET,
  IFCMATERIALLAYERSETUSAGE,
  IFCMATERIALLAYERWITHOFFSETS,
  IFCMATERIALLIST,
  IFCMATERIALPROFILE,
  IFCMATERIALPROFILESET,
  IFCMATERIALPROFILESETUSAGE,
  IFCMATERIALPROFILESETUSAGETAPERING,
  IFCMATERIALPROFILEWITHOFFSETS,
} = WebIfc;

/** Separator between the names of a multi-material element. */
export const MATERIAL_SEPARATOR = ' / ';

/** A material's name and its share in a set (thickness, fraction, or 1). */
export interface MaterialShare {
  name: string;
  share: number;
}

/** Resolves material selects to names, caching per select (sets are shared by many elements). */
export class MaterialReader {
  private readonly cache = new Map<number, string | null>();

  constructor(private readonly reader: LineSource) {}

  /** The material name of a material select, or null when it names none. */
  name(selectId: number): string | null {
    const cached = this.cache.get(selectId);
    if (cached !== undefined) return cached;
    const name = joinNames(this.shares(selectId));
    this.cache.set(selectId, name);
    return name;
  }

  /** The (name, share) pairs of a material select, in file order. */
  shares(id: number, depth = 0): MaterialShare[] {
    const line = depth > 4 ? null : this.reader.line(id);
    if (line === null) return [];
    const args = line.arguments;
    switch (line.type) {
      case IFCMATERIAL:
        return this.material(id, 1);
      case IFCMATERIALLIST:
        return refsOf(args[0]).flatMap((material) => this.material(material, 1));
      case IFCMATERIALLAYERSETUSAGE:
      case IFCMATERIALPROFILESETUSAGE:
      case IFCMATERIALPROFILESETUSAGETAPERING: {
        const set = refOf(args[0]);
        return set === null ? [] : this.shares(set, depth + 1);
      }
      case IFCMATERIALLAYERSET:
        return refsOf(args[0]).flatMap((layer) => this.shares(layer, depth + 1));
      case IFCMATERIALLAYER:
      case IFCMATERIALLAYERWITHOFFSETS: {
        // IfcMaterialLayer(Material, LayerThickness, …): a layer without material (an air gap) names nothing.
        const material = refOf(args[0]);
        return material === null ? [] : this.material(material, Math.max(0, numberOf(args[1]) ?? 0));
      }
      case IFCMATERIALPROFILESET:
        return refsOf(args[2]).flatMap((profile) => this.shares(profile, depth + 1));
      case IFCMATERIALPROFILE:
      case IFCMATERIALPROFILEWITHOFFSETS: {
        // IfcMaterialProfile(Name, Description, Material, Profile, Priority, Category)
        const material = refOf(args[2]);
        return material === null ? [] : this.material(material, 1);
      }
      case IFCMATERIALCONSTITUENTSET:
        return refsOf(args[2]).flatMap((constituent) => this.shares(constituent, depth + 1));
      case IFCMATERIALCONSTITUENT: {
        // IfcMaterialConstituent(Name, Description, Material, Fraction, Category)
        const material = refOf(args[2]);
        return material === null ? [] : this.material(material, Math.max(0, numberOf(args[3]) ?? 1));
      }
      default:
        return [];
    }
  }

  /** IfcMaterial(Name, …) with the share it has in its set. */
  private material(id: number, share: number): MaterialShare[] {
    const line = this.reader.line(id);
    if (line === null || line.type !== IFCMATERIAL) return [];
    const name = textOf(line.arguments[0])?.trim();
    return name === undefined || name === '' ? [] : [{ name, share }];
  }
}

/** Distinct names, the largest total share first, ties in file order, joined; null when there are none. */
export function joinNames(shares: readonly MaterialShare[]): string | null {
  const totals = new Map<string, number>();
  for (const { name, share } of shares) totals.set(name, (totals.get(name) ?? 0) + share);
  if (totals.size === 0) return null;
  // Map iteration is insertion (file) order and Array.prototype.sort is stable: ties keep it.
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([name]) => name)
    .join(MATERIAL_SEPARATOR);
}
