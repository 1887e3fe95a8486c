/**
 * The validation figures of a building file or a building (decisions §8): fractions of the elements by count
 * ("ByNumber") or by volume ("ByVolume"). A building passes the elements of its active source files.
 */
import type { BuildingValidation } from '../../shared/api';
import { positive, type CalcCatalogue, type CalcElement } from './inputs';
import { elementMass } from './mass';

/** The checks of one element, each true or false. */
export interface ElementChecks {
  classification: boolean;
  volume: boolean;
  area: boolean;
  length: boolean;
  /** At least one base quantity (volume, area, length) is present. */
  baseQuantities: boolean;
  materialSpecified: boolean;
  knownMass: boolean;
  mapped: boolean;
}

/**
 * The checks of one element. A base quantity is present when > 0; the material is specified when the source file names
 * one (`materialName` not blank) or the client gave a `materialId`; the mass is known when mass.ts finds it > 0.
 */
export function elementChecks(element: CalcElement, catalogue: CalcCatalogue): ElementChecks {
  const volume = positive(element.volume) !== null;
  const area = positive(element.area) !== null;
  const length = positive(element.length) !== null;
  return {
    classification: typeof element.classificationId === 'string' && element.classificationId !== '',
    volume,
    area,
    length,
    baseQuantities: volume || area || length,
    materialSpecified:
      (typeof element.materialName === 'string' && element.materialName.trim() !== '') ||
      (typeof element.materialId === 'string' && element.materialId !== ''),
    knownMass: elementMass(element, catalogue) > 0,
    mapped: element.mapping !== null && element.mapping !== undefined,
  };
}

/** BuildingValidation (= BuildingFileValidation) of these elements; 0 where there are no elements or no volume. */
export function validationFigures(elements: Iterable<CalcElement>, catalogue: CalcCatalogue): BuildingValidation {
  let count = 0;
  let totalVolume = 0;
  const byNumber = { classification: 0, volume: 0, area: 0, length: 0, baseQuantities: 0, materialSpecified: 0, knownMass: 0, mapped: 0 };
  const byVolume = { classification: 0, materialSpecified: 0, mapped: 0 };
  for (const element of elements) {
    const checks = elementChecks(element, catalogue);
    // Only positive volumes weigh: a negative or missing volume is no volume, and keeps the fractions within 0..1.
    const volume = positive(element.volume) ?? 0;
    count += 1;
    totalVolume += volume;
    for (const key of Object.keys(byNumber) as (keyof typeof byNumber)[]) if (checks[key]) byNumber[key] += 1;
    for (const key of Object.keys(byVolume) as (keyof typeof byVolume)[]) if (checks[key]) byVolume[key] += volume;
  }
  const ofNumber = (value: number) => (count > 0 ? value / count : 0);
  const ofVolume = (value: number) => (totalVolume > 0 ? value / totalVolume : 0);
  return {
    percentageClassificationAssignedByNumber: ofNumber(byNumber.classification),
    percentageClassificationAssignedByVolume: ofVolume(byVolume.classification),
    percentageVolumeBaseQuantityAssignedByNumber: ofNumber(byNumber.volume),
    percentageAreaBaseQuantityAssignedByNumber: ofNumber(byNumber.area),
    percentageLengthBaseQuantityAssignedByNumber: ofNumber(byNumber.length),
    percentageBaseQuantitiesAssignedByNumber: ofNumber(byNumber.baseQuantities),
    percentageMaterialSpecifiedByNumber: ofNumber(byNumber.materialSpecified),
    percentageMaterialSpecifiedByVolume: ofVolume(byVolume.materialSpecified),
    percentageElementsWithKnownMassByNumber: ofNumber(byNumber.knownMass),
    percentageElementsMappedByNumber: ofNumber(byNumber.mapped),
    percentageElementsMappedByVolume: ofVolume(byVolume.mapped),
  };
}
