/** The rows of portfolios and buildings: portfolios and their files, buildings, their figures and their files. */
import type { Flag } from './flag';

/** A portfolio (folder of buildings). */
export interface PortfoliosTable {
  id: string;
  accountId: string;
  name: string;
  logo: string | null;
  logoBlobKey: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A documentation file or passport of a portfolio. */
export interface PortfolioFilesTable {
  id: string;
  portfolioId: string;
  type: number;
  fileName: string;
  fileSize: number;
  status: number;
  statusMessage: string | null;
  lastModifiedDate: string;
  tags: string;
  blobKey: string | null;
  contentType: string | null;
  createdAt: string;
}

/** A building: the BuildingRequest fields plus what the server maintains. */
export interface BuildingsTable {
  id: string;
  accountId: string;
  portfolioId: string;
  name: string;
  cadastralDesignation: string | null;
  cadastralArea: number | null;
  parcelnumber: string | null;
  publicLawRestriction: string | null;
  completionDate: string | null;
  lastRenovationDate: string | null;
  addressStreet: string | null;
  addressHousenumber: string | null;
  addressHousenumberAddition: string | null;
  addressZipcode: string | null;
  addressCity: string | null;
  addressCountry: string | null;
  buildingUsage: string | null;
  grossSurfaceArea: number | null;
  energyLabel: string | null;
  energyPerformanceCoefficient: number | null;
  energyIndex: number | null;
  expectedLifespan: number | null;
  expectedLifespanStructure: number | null;
  expectedLifespanSkin: number | null;
  expectedLifespanServices: number | null;
  expectedLifespanSpacePlan: number | null;
  expectedLifespanStuff: number | null;
  breeamLabel: number | null;
  gprLabel: number | null;
  mpgLabel: number | null;
  leedLabel: string | null;
  wellScoreBuilding: number | null;
  wellScoreInterior: number | null;
  wellScoreCoreAndShell: number | null;
  classificationType: string | null;
  images: string;
  mpgLabelManual: number | null;
  mpgLabelIndicative: number | null;
  isDirty: Flag;
  hasDirtyElements: Flag;
  mostRecentBimInfo: string | null;
  geoLatitude: number | null;
  geoLongtitude: number | null;
  phaseType: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Figures of a building computed by its last recalculation (JSON of the wire objects). */
export interface BuildingFiguresTable {
  buildingId: string;
  circular: string | null;
  financialInputs: string | null;
  validation: string | null;
  computedAt: string;
}

/** A building file: source (IFC/sheet), information file or passport. */
export interface BuildingFilesTable {
  id: string;
  buildingId: string;
  type: number;
  fileName: string;
  fileSize: number;
  status: number;
  statusMessage: string | null;
  isActive: Flag;
  isDirty: Flag;
  lastModifiedDate: string;
  tags: string;
  preferredAccountIds: string;
  validation: string | null;
  elementProcessedCount: number;
  elementCount: number;
  blobKey: string | null;
  contentType: string | null;
  language: string | null;
  createdAt: string;
  /** JSON array: the reasons of the first rows the last import left out, one line each. */
  rejectedRows: string;
  /** How many rows the last import left out. */
  rejectedCount: number;
  /** JSON `ImportPartsFindings`: what the last import split (server/imports/README.md, "Materials"); null: nothing on record. */
  partFindings: string | null;
}
