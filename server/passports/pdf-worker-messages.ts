/** What the passport PDF worker is given and what it answers (passport-pdf-worker.ts, pdf-in-worker.ts). */
import type { BuildingPassportData, PortfolioPassportData } from './passport-data';

/** A passport to write: a building's (without its element rows, which the PDF does not show) or a portfolio's. */
export type PassportPdfRequest =
  | { kind: 'building'; data: Omit<BuildingPassportData, 'elements'> }
  | { kind: 'portfolio'; data: PortfolioPassportData };

/** The PDF's bytes as they are written, then the end: done, or failed with the reason. */
export type PassportPdfMessage = { type: 'chunk'; bytes: Uint8Array } | { type: 'done' } | { type: 'failed'; message: string };
