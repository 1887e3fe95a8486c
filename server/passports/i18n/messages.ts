/** The labels and sentences a passport prints, one set per language. */
import type { BuildingLevel, NotCountedReason, Phase } from '../../../shared/api';

/** The labels and sentences of one language. */
export interface PassportMessages {
  /** BCP 47 tag the Intl formatters use. */
  locale: string;
  /** The language's own name. */
  languageName: string;
  materialPassport: string;
  portfolioPassport: string;
  generatedBy: (date: string) => string;
  pageOf: (page: number, total: number) => string;
  /** Short "not available", for a headline figure that cannot be calculated. */
  notAvailable: string;
  disclaimer: string;
  noImage: string;

  keyFigures: string;
  identity: string;
  name: string;
  address: string;
  buildingUsage: string;
  grossFloorArea: string;
  completionDate: string;
  lastRenovation: string;
  energyLabel: string;
  energyPerformanceCoefficient: string;
  energyIndex: string;
  cadastralDesignation: string;
  cadastralArea: string;
  parcelNumber: string;
  sustainabilityLabels: string;
  expectedLifespans: string;
  lifespanBuilding: string;
  lifespanIndustryAverage: string;
  wholeBuilding: string;

  circularity: string;
  ciScore: string;
  ciScoreShort: string;
  ciScoreBuilding: string;
  phases: string;
  constructionPhase: string;
  usagePhase: string;
  endOfLifePhase: string;
  corrections: string;
  correctionMaterials: string;
  correctionLayers: string;
  calculation: string;
  figure: string;
  value: string;
  ciExplanation: string;
  correctionsExplanation: string;
  ciUnavailable: string;

  layers: string;
  layer: string;
  elements: string;
  mass: string;
  share: string;
  total: string;
  totalMass: string;
  layersExplanation: string;
  noLayers: string;

  families: string;
  family: string;
  currentValue: string;
  familiesExplanation: string;
  noFamilies: string;
  massTonnes: string;
  valueEuro: string;

  validation: string;
  check: string;
  byNumber: string;
  byVolume: string;
  classificationAssigned: string;
  materialSpecified: string;
  elementsMapped: string;
  knownMass: string;
  volumeGiven: string;
  areaGiven: string;
  lengthGiven: string;
  baseQuantitiesGiven: string;
  validationExplanation: string;
  /** What counts in the circularity index (shared/counting.ts): a heading, what it means, a row and the reasons. */
  counting: string;
  countingExplanation: string;
  counted: string;
  /** Excel: the element column saying whether it counts, and the cell of one that does. */
  inIndex: string;
  counts: string;
  notCountedReasons: Record<NotCountedReason, string>;

  financial: string;
  ncwValue: string;
  ncwPerLayer: string;
  lifespan: string;
  financialExplanation: string;

  buildings: string;
  building: string;
  city: string;
  averageCi: string;
  ciPerBuilding: string;
  portfolioOverview: string;
  portfolioValidation: string;
  portfolioExplanation: string;

  /** Excel: sheet names (≤ 31 characters, none of `[]:*?/\`). */
  sheetSummary: string;
  sheetLayers: string;
  sheetFamilies: string;
  sheetElements: string;
  field: string;
  elementId: string;
  elementName: string;
  ifcClass: string;
  typeName: string;
  sourceMaterial: string;
  mappedTo: string;
  classificationCode: string;
  phase: string;
  floor: string;
  volumeM3: string;
  areaM2: string;
  lengthM: string;
  widthM: string;
  heightM: string;
  weightKg: string;
  massKg: string;
  areaUnitLabel: string;
  yearsLabel: string;

  levels: Record<(typeof BuildingLevel)[keyof typeof BuildingLevel]['id'], string>;
  phaseNames: Record<(typeof Phase)[keyof typeof Phase]['id'], string>;
  familyNames: Record<'stone' | 'metal' | 'wood' | 'plastic' | 'glass' | 'organic' | 'unknown', string>;
}
