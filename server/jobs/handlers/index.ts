import type { JobKind } from '../queue';
import type { JobHandler } from '../worker';
import { importFileHandler } from './import-file';
import { demoPassportHandler } from './demo-passport';
import { buildingPassportExcelHandler, buildingPassportPdfHandler, portfolioPassportHandler } from './passports';
import { processBuildingHandler } from './process-building';
import { recountFilesHandler } from './recount-files';
import { refineFileHandler } from './refine-file';

/** The handler of every kind of job; the type makes a missing one a compile error. */
export const jobHandlers: Readonly<Record<JobKind, JobHandler>> = {
  'import-file': importFileHandler,
  'refine-file': refineFileHandler,
  'process-building': processBuildingHandler,
  'recount-files': recountFilesHandler,
  'building-passport-pdf': buildingPassportPdfHandler,
  'building-passport-excel': buildingPassportExcelHandler,
  'portfolio-passport': portfolioPassportHandler,
  'demo-passport': demoPassportHandler,
};
