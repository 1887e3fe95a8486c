import type { ODataEntitySet, ODataField, TopLevelField } from './field-map';

/** Columns of the `elements` table that carry wire fields (see the server's migrations). */
export type ElementColumn =
  | 'id' | 'name' | 'buildingFileId' | 'materialName' | 'typeName' | 'elementClass'
  | 'volume' | 'area' | 'height' | 'width' | 'length' | 'weight'
  | 'mappingType' | 'mappingId' | 'phaseMatchId' | 'phaseMatchName'
  | 'brandLayerMatchId' | 'brandLayerMatchName'
  | 'classificationMatchId' | 'classificationMatchName' | 'classificationMatchCode'
  | 'phaseLookup' | 'classificationLookup' | 'floor';

/** A field of BuildingFileElementResponse whose column is one of `elements`. */
interface ElementField extends ODataField {
  readonly column: ElementColumn;
}

/**
 * Wire paths of BuildingFileElementResponse → `elements` columns, in wire order.
 * `id` is the element's own identifier (the mark, not a uuid); uuid columns hold lowercase text.
 */
export const ELEMENT_FIELDS = {
  id: { column: 'id', type: 'string', notNull: true },
  name: { column: 'name', type: 'string' },
  buildingFileId: { column: 'buildingFileId', type: 'uuid', notNull: true },
  materialName: { column: 'materialName', type: 'string' },
  typeName: { column: 'typeName', type: 'string' },
  elementClass: { column: 'elementClass', type: 'string' },
  volume: { column: 'volume', type: 'number' },
  area: { column: 'area', type: 'number' },
  height: { column: 'height', type: 'number' },
  width: { column: 'width', type: 'number' },
  length: { column: 'length', type: 'number' },
  weight: { column: 'weight', type: 'number' },
  'mapping/type': { column: 'mappingType', type: 'number' },
  'mapping/id': { column: 'mappingId', type: 'uuid' },
  'phaseMatch/name': { column: 'phaseMatchName', type: 'string' },
  'phaseMatch/id': { column: 'phaseMatchId', type: 'uuid' },
  'brandLayerMatch/name': { column: 'brandLayerMatchName', type: 'string' },
  'brandLayerMatch/id': { column: 'brandLayerMatchId', type: 'uuid' },
  'classificationMatch/name': { column: 'classificationMatchName', type: 'string' },
  'classificationMatch/code': { column: 'classificationMatchCode', type: 'string' },
  'classificationMatch/id': { column: 'classificationMatchId', type: 'uuid' },
  phaseLookup: { column: 'phaseLookup', type: 'string-array' },
  classificationLookup: { column: 'classificationLookup', type: 'string-array' },
  floor: { column: 'floor', type: 'string' },
} as const satisfies Readonly<Record<string, ElementField>>;

/** A wire path of an element usable in OData options, e.g. `classificationMatch/code`. */
export type ElementPath = keyof typeof ELEMENT_FIELDS;

/** A top-level field of BuildingFileElementResponse, as named in $select. */
export type ElementWireField = TopLevelField<ElementPath>;

/** The elements list as an OData entity set; element ids are unique within a building file, which every list is scoped to. */
export const ELEMENT_ENTITY_SET: ODataEntitySet<ElementPath> = { fields: ELEMENT_FIELDS, keyPath: 'id' };
