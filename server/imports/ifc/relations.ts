/**
 * The model's relationships as maps, read in one pass over the lines of every relation class, in file order (never per
 * element: web-ifc's `properties` helper searches the relations again for every element, which is quadratic; nor one
 * pass per class, which would read a large file from disk once for each). All IfcRel* classes read here keep their
 * related objects at argument 4 and the relating one at 5 (IfcRelContainedInSpatialStructure: elements 4, structure 5;
 * IfcRelAggregates: whole 4, parts 5), in every schema.
 */
import { WebIfc } from './web-ifc';
import { refOf, refsOf, textOf, type LineSource, type RawLine } from './raw';

const {
  IFCPRESENTATIONLAYERASSIGNMENT,
  IFCRELAGGREGATES,
  IFCRELASSOCIATESCLASSIFICATION,
  IFCRELASSOCIATESMATERIAL,
  IFCRELCONTAINEDINSPATIALSTRUCTURE,
  IFCRELDEFINESBYPROPERTIES,
  IFCRELDEFINESBYTYPE,
} = WebIfc;

/** Who relates to whom, by express id. When a file relates an object twice where once is meant, the first one wins. */
export interface Relations {
  /** Element → the spatial structure it is contained in. */
  containedIn: Map<number, number>;
  /** Part → the whole that aggregates it (an assembly, or a spatial parent). */
  aggregatedBy: Map<number, number>;
  /** Object → its type object. */
  typeOf: Map<number, number>;
  /** Object → its property and quantity sets, in file order of the relations. */
  definitionsOf: Map<number, number[]>;
  /** Property set definitions related to more than one object: worth caching once read. */
  sharedDefinitions: Set<number>;
  /** Object → its material select (IfcMaterial, a set, a set usage, a list …). */
  materialOf: Map<number, number>;
  /** Object → its classification references. */
  classificationsOf: Map<number, number[]>;
  /** Representation or representation item → the name of the presentation layer it is assigned to. */
  layerOf: Map<number, string>;
}

/** Relates each key to `value` unless a relation read before already did: the first one wins. */
function relateFirst<V>(map: Map<number, V>, keys: readonly number[], value: V): void {
  for (const key of keys) if (!map.has(key)) map.set(key, value);
}

function appendTo(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Reads the six relation classes the importer needs, and the presentation layers. */
export function readRelations(reader: LineSource): Relations {
  const relations: Relations = {
    containedIn: new Map(),
    aggregatedBy: new Map(),
    typeOf: new Map(),
    definitionsOf: new Map(),
    sharedDefinitions: new Set(),
    materialOf: new Map(),
    classificationsOf: new Map(),
    layerOf: new Map(),
  };

  // Seen once so far; a second sighting makes a definition shared.
  const seenDefinitions = new Set<number>();
  const readers = new Map<number, (line: RawLine) => void>([
    [
      IFCRELCONTAINEDINSPATIALSTRUCTURE,
      (line) => {
        const structure = refOf(line.arguments[5]);
        if (structure !== null) relateFirst(relations.containedIn, refsOf(line.arguments[4]), structure);
      },
    ],
    [
      IFCRELAGGREGATES,
      (line) => {
        const whole = refOf(line.arguments[4]);
        if (whole !== null) relateFirst(relations.aggregatedBy, refsOf(line.arguments[5]).filter((part) => part !== whole), whole);
      },
    ],
    [
      IFCRELDEFINESBYTYPE,
      (line) => {
        const type = refOf(line.arguments[5]);
        if (type !== null) relateFirst(relations.typeOf, refsOf(line.arguments[4]), type);
      },
    ],
    [
      IFCRELDEFINESBYPROPERTIES,
      (line) => {
        // IFC4 allows an IfcPropertySetDefinitionSet (a list) as the relating definition.
        const definitions = refsOf(line.arguments[5]);
        const objects = refsOf(line.arguments[4]);
        for (const definition of definitions) {
          if (objects.length > 1 || seenDefinitions.has(definition)) relations.sharedDefinitions.add(definition);
          else seenDefinitions.add(definition);
          for (const object of objects) appendTo(relations.definitionsOf, object, definition);
        }
      },
    ],
    [
      IFCRELASSOCIATESMATERIAL,
      (line) => {
        const material = refOf(line.arguments[5]);
        if (material !== null) relateFirst(relations.materialOf, refsOf(line.arguments[4]), material);
      },
    ],
    [
      IFCRELASSOCIATESCLASSIFICATION,
      (line) => {
        const classification = refOf(line.arguments[5]);
        if (classification === null) return;
        for (const object of refsOf(line.arguments[4])) appendTo(relations.classificationsOf, object, classification);
      },
    ],
  ]);
  // IfcPresentationLayerAssignment(Name, Description, AssignedItems, Identifier); With Style is a subtype.
  const readLayer = (line: RawLine): void => {
    const name = textOf(line.arguments[0])?.trim();
    if (name) relateFirst(relations.layerOf, refsOf(line.arguments[2]), name);
  };

  // Each class's lines stay in file order, so "the first one wins" holds as it would class by class.
  const ids = [...readers.keys()].flatMap((type) => reader.idsOfType(type));
  ids.push(...reader.idsOfType(IFCPRESENTATIONLAYERASSIGNMENT, true));
  reader.each(
    ids.sort((a, b) => a - b),
    (line) => (readers.get(line.type) ?? readLayer)(line),
  );

  return relations;
}
