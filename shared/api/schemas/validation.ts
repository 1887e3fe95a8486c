/** The validation figures of a building and of a building file (spec §2.5, decisions §8): identical shapes. */
import { Type, type Static } from 'typebox';
import { Double } from '../schema-kit';

/** A new property set per call: two components must not share one object, or the OpenAPI generator could not tell them apart. */
function validationObject(description: string) {
  return Type.Object(
    {
      percentageClassificationAssignedByNumber: Double(),
      percentageClassificationAssignedByVolume: Double(),
      percentageVolumeBaseQuantityAssignedByNumber: Double(),
      percentageAreaBaseQuantityAssignedByNumber: Double(),
      percentageLengthBaseQuantityAssignedByNumber: Double(),
      percentageBaseQuantitiesAssignedByNumber: Double(),
      percentageMaterialSpecifiedByNumber: Double(),
      percentageMaterialSpecifiedByVolume: Double(),
      percentageElementsWithKnownMassByNumber: Double(),
      percentageElementsMappedByNumber: Double(),
      percentageElementsMappedByVolume: Double(),
    },
    { additionalProperties: false, description },
  );
}

/** Validation figures over the active source files of a building. */
export const BuildingValidation = validationObject(
  'Fractions 0..1 over the active source files, by element count (ByNumber) or volume (ByVolume); 0 when empty.',
);
/** Validation figures of a building. */
export type BuildingValidation = Static<typeof BuildingValidation>;

/** Validation figures over the elements of one building file. */
export const BuildingFileValidation = validationObject(
  'Fractions 0..1 over the elements of the file, by element count (ByNumber) or volume (ByVolume); 0 when empty.',
);
/** Validation figures of a building file. */
export type BuildingFileValidation = Static<typeof BuildingFileValidation>;
