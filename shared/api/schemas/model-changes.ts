/**
 * What a user set on a file's elements and a new version of its source changed after them (an extension of this
 * server, decisions §3): the fields the model changed after the user edited them, each with both values, and how the
 * user resolves them.
 */
import { Type, type Static } from 'typebox';
import { Double, Int32, Nullable, StringChoice, Uuid } from '../schema-kit';

/**
 * The fields of an element a user sets, each kept on a new version of the source: the element request's fields but
 * its id (v2.3's names; v2.1's `phase` and `classification` are `phaseLookup` and `classificationLookup`).
 */
export const USER_FIELDS = [
  'name', 'floor', 'materialName', 'materialId', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width', 'length',
  'weight', 'phaseLookup', 'classificationLookup',
] as const;
/** A field of an element a user sets. */
export type UserField = (typeof USER_FIELDS)[number];

/** A field's value as an element answers it: a text, a number, a lookup list (phase, classification), or none. */
function fieldValue(description: string) {
  return Nullable(Type.Union([Type.String(), Double(), Type.Array(Type.String())], { description }));
}
/** A field's value. */
export type UserFieldValue = Static<ReturnType<typeof fieldValue>>;

/** A field of an element that the model changed after a user set it. */
export const ModelChange = Type.Object(
  {
    elementId: Type.String({ description: 'The element identifier.' }),
    elementName: Nullable(Type.String({ description: "The element's name as it is now." })),
    field: StringChoice(USER_FIELDS),
    mine: fieldValue("The user's value, which the element holds."),
    model: fieldValue("The model's value in the last new version of the source."),
    modelBefore: fieldValue("The model's value when the user set the field: what the model changed it from."),
  },
  { additionalProperties: false },
);
/** A field the model changed after a user set it. */
export type ModelChange = Static<typeof ModelChange>;

/** An element a user had edited that the last new version of the source no longer has. */
export const RemovedEditedElement = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
/** An edited element the last new version no longer has. */
export type RemovedEditedElement = Static<typeof RemovedEditedElement>;

/** What the model changed after a user edited a building file's elements. */
export const BuildingFileModelChanges = Type.Object(
  {
    buildingFileId: Uuid(),
    changes: Type.Array(ModelChange, {
      description: 'Every field the model changed after a user set it, unresolved, by element id then field: the element holds the user\'s value.',
    }),
    removedEdited: Type.Object(
      {
        count: Int32({ minimum: 0 }),
        elements: Type.Array(RemovedEditedElement, { description: 'The first 1000 of them.' }),
      },
      {
        additionalProperties: false,
        description: 'Elements a user had edited that the last new version of the source no longer has: they went, as the model says.',
      },
    ),
  },
  { additionalProperties: false },
);
/** What the model changed after a user edited a file's elements. */
export type BuildingFileModelChanges = Static<typeof BuildingFileModelChanges>;

/** Which value a resolution keeps: the user's (the change is cleared) or the model's (the field follows the model again). */
export const MODEL_CHANGE_CHOICES = ['mine', 'model'] as const;
/** Which value a resolution keeps. */
export type ModelChangeChoice = (typeof MODEL_CHANGE_CHOICES)[number];

/** The resolution of one change. */
export const ModelChangeResolution = Type.Object({
  elementId: Type.String({ minLength: 1 }),
  field: StringChoice(USER_FIELDS),
  keep: StringChoice(MODEL_CHANGE_CHOICES),
});
/** The resolution of one change. */
export type ModelChangeResolution = Static<typeof ModelChangeResolution>;

/** Resolutions applied together: all of them, or none when one is refused. */
export const ModelChangeResolutions = Type.Array(ModelChangeResolution, { minItems: 1 });
/** Resolutions applied together. */
export type ModelChangeResolutions = Static<typeof ModelChangeResolutions>;
