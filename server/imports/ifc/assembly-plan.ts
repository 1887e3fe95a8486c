/**
 * Which level of an assembly is imported (see extract.ts's module comment): its parts, when some part below it carries
 * quantities, else the assembly whole when it carries them itself, else the parts; and what an assembly hands down.
 */
import type { ElementFacts } from '../../refine/classification-inference';
import type { ModelClassification } from './classifications';
import { joinNames, type MaterialShare } from './materials';
import type { ModelReaders } from './model-readers';
import type { ResolvedProperties } from './properties';

/** What an assembly hands down to parts that lack it. */
export interface Inherited {
  references: ModelClassification[];
  phases: string[];
  /** What the assembly is, for parts whose own class says nothing (IfcBuildingElementPart). */
  facts: ElementFacts | null;
}

/** Containment and aggregation are followed at most this deep (a file with a cycle must not hang the import). */
export const MAX_DEPTH = 32;
/** Parts read per bulk read while deciding assemblies. */
const PLANNING_SLICE = 500;

/** Whether an element carries a quantity that counts (the mass comes from weight or volume; area products exist). */
function hasQuantities(resolved: ResolvedProperties): boolean {
  const { volume, weight, area } = resolved.quantities;
  return (volume ?? 0) > 0 || (weight ?? 0) > 0 || (area ?? 0) > 0;
}

export class AssemblyPlan {
  private readonly inherited = new Map<number, Inherited>();
  /** Properties of parts, resolved while deciding their assemblies; each is taken once by the extraction, then dropped. */
  private readonly resolvedParts = new Map<number, ResolvedProperties>();
  /** Assembly → its element parts (direct). */
  private readonly partsOf = new Map<number, number[]>();
  /** Assemblies whose parts are imported (the assembly itself is not). */
  readonly splitAssemblies = new Set<number>();
  /** Assemblies imported as one element (their parts are not). */
  readonly wholeAssemblies = new Set<number>();

  /** Plans the assemblies among `elements`, the model's elements in file order. */
  constructor(
    private readonly model: ModelReaders,
    elements: readonly number[],
  ) {
    const eligible = new Set(elements);
    for (const [part, whole] of model.relations.aggregatedBy) {
      if (!eligible.has(part) || !eligible.has(whole)) continue;
      const parts = this.partsOf.get(whole);
      if (parts === undefined) this.partsOf.set(whole, [part]);
      else parts.push(part);
    }
    this.decideAssemblies();
  }

  /** Whether an element is imported: an assembly only when taken whole, nothing an assembly taken whole covers. */
  imports(id: number): boolean {
    return (this.partsOf.has(id) ? this.wholeAssemblies.has(id) : true) && !this.coveredByWhole(id);
  }

  /** The properties of a part resolved while planning, once; undefined for any other element. */
  takeResolved(id: number): ResolvedProperties | undefined {
    const planned = this.resolvedParts.get(id);
    if (planned !== undefined) this.resolvedParts.delete(id);
    return planned;
  }

  /**
   * Splits the assemblies into those counted by their parts and those counted whole (see the module comment). Reads
   * the quantities of every part below an assembly first, in bulk; the extraction reuses them.
   */
  private decideAssemblies(): void {
    if (this.partsOf.size === 0) return;
    const leaves = new Set<number>();
    for (const parts of this.partsOf.values()) for (const part of parts) if (!this.partsOf.has(part)) leaves.add(part);
    const leafIds = [...leaves].sort((a, b) => a - b);
    const carries = new Map<number, boolean>();
    for (let first = 0; first < leafIds.length; first += PLANNING_SLICE) {
      const slice = leafIds.slice(first, first + PLANNING_SLICE);
      this.model.prefetch(slice);
      for (const id of slice) {
        const resolved = this.model.resolve(id);
        this.resolvedParts.set(id, resolved);
        carries.set(id, hasQuantities(resolved));
      }
      this.model.release();
    }
    // Whether any leaf below an assembly carries quantities; memoised, and a cycle counts as "no".
    const below = new Map<number, boolean>();
    const leafCarries = (assembly: number, depth: number): boolean => {
      const known = below.get(assembly);
      if (known !== undefined) return known;
      below.set(assembly, false);
      let result = false;
      for (const part of this.partsOf.get(assembly) ?? []) {
        if (this.partsOf.has(part) ? depth < MAX_DEPTH && leafCarries(part, depth + 1) : carries.get(part) === true) {
          result = true;
          break;
        }
      }
      below.set(assembly, result);
      return result;
    };
    for (const assembly of this.partsOf.keys()) {
      if (!leafCarries(assembly, 0) && hasQuantities(this.model.resolve(assembly))) this.wholeAssemblies.add(assembly);
      else this.splitAssemblies.add(assembly);
    }
  }

  /** Whether an assembly above this element is imported whole (so the element is part of it, not imported itself). */
  private coveredByWhole(id: number): boolean {
    let current = this.model.relations.aggregatedBy.get(id);
    for (let depth = 0; current !== undefined && this.partsOf.has(current) && depth < MAX_DEPTH; depth++) {
      if (this.wholeAssemblies.has(current)) return true;
      current = this.model.relations.aggregatedBy.get(current);
    }
    return false;
  }

  /** The materials of the leaf parts below an assembly, joined as one name. */
  partsMaterial(assembly: number): string | null {
    const shares: MaterialShare[] = [];
    const visit = (id: number, depth: number): void => {
      for (const part of this.partsOf.get(id) ?? []) {
        if (this.partsOf.has(part)) {
          if (depth < MAX_DEPTH) visit(part, depth + 1);
          continue;
        }
        const select = this.model.materialSelect(part);
        // Each part counts once, whatever its layers: names are ranked by how many parts they make up.
        const names = select === undefined ? [] : [...new Set(this.model.materials.shares(select).map((share) => share.name))];
        for (const name of names) shares.push({ name, share: 1 });
      }
    };
    visit(assembly, 0);
    return joinNames(shares);
  }

  /** Classification references, phases and facts of the nearest assemblies above a part (none for an element that is no part). */
  inheritedBy(id: number): Inherited {
    const result: Inherited = { references: [], phases: [], facts: null };
    let current = this.model.relations.aggregatedBy.get(id);
    for (let depth = 0; current !== undefined && this.partsOf.has(current) && depth < MAX_DEPTH; depth++) {
      const own = this.assemblyInfo(current);
      if (result.references.length === 0) result.references = own.references;
      if (result.phases.length === 0) result.phases = own.phases;
      result.facts ??= own.facts;
      if (result.references.length > 0 && result.phases.length > 0) break;
      current = this.model.relations.aggregatedBy.get(current);
    }
    return result;
  }

  private assemblyInfo(id: number): Inherited {
    let info = this.inherited.get(id);
    if (info === undefined) {
      const type = this.model.typeOf(id);
      const resolved = this.model.resolve(id);
      const references = this.model.referencesOf(id);
      const line = this.model.reader.line(id);
      info = {
        // Pset_Madaster's classification first, as a reference of NL-SfB.
        references: resolved.madasterClassification === null ? references : [{ code: resolved.madasterClassification, systemNames: ['NL-SfB'] }, ...references],
        phases: resolved.madasterPhase === null ? resolved.phases : [resolved.madasterPhase, ...resolved.phases],
        facts: line === null ? null : this.model.factsOf(line, type, resolved),
      };
      this.inherited.set(id, info);
    }
    return info;
  }
}
