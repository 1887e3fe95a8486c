/**
 * What the passport service asks a server, through the queued client and only through documented endpoints: the
 * files of a building or portfolio (passports and source files), the name, a passport request, a file's status
 * message and a signed download address. Every answer comes back as a value or a message, never as an exception.
 */
import { createHash } from 'node:crypto';
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import { BuildingFileStatuses, BuildingFileType, PortfolioFileStatuses, PortfolioFileType } from '../../shared/api/enums';
import type { BuildingFileResponse } from '../../shared/api/schemas';
import type { QueuedClient } from '../http/queued-client';
import type { PassportFormat, PassportLanguage, PassportSubject } from '../../shared/passports';

/** A passport file on the server, from either listing. */
export interface RemotePassport {
  id: string;
  format: PassportFormat;
  /** Generated: status Uploaded. */
  ready: boolean;
  /** Its generation failed: status Error (building passports only; a portfolio file has no such status). */
  failed: boolean;
  lastModifiedDate: string;
}

/** A source file of a building on the server. */
export interface RemoteSourceFile {
  id: string;
  name: string | null;
  mapped: boolean;
  /** The server is working on it (uploaded, importing, refining, mapping): its elements may still change. */
  busy: boolean;
  lastModifiedDate: string;
}

/** The statuses in which a source file's processing has ended, for now. */
const AT_REST: ReadonlySet<number> = new Set([BuildingFileStatuses.Mapped, BuildingFileStatuses.Error, BuildingFileStatuses.UnknownImportFile]);

/** An answer: the value, or why there is none (`status` when the server answered, undefined when it did not). */
export type Remote<T> = { ok: true; value: T } | { ok: false; message: string; status: number | undefined; aborted: boolean };

/** A message for the user about a call without a usable answer. */
export function failureMessage(result: CallProblem | CallNetworkFailure): string {
  if (result.kind === 'network') return result.error.message;
  const detail = result.problem.detail ?? result.problem.title ?? `HTTP ${result.status}`;
  return `${detail} (${result.status})`;
}

/** A failed call as a `Remote`. */
function remoteFailure(result: CallProblem | CallNetworkFailure): Remote<never> {
  return {
    ok: false,
    message: failureMessage(result),
    status: result.kind === 'problem' ? result.status : undefined,
    aborted: result.kind === 'network' && result.error.reason === 'aborted',
  };
}

function sourceFile(file: BuildingFileResponse): RemoteSourceFile {
  const mapped = file.status === BuildingFileStatuses.Mapped;
  return { id: file.id, name: file.fileName, mapped, busy: !AT_REST.has(file.status), lastModifiedDate: file.lastModifiedDate };
}

/** The passport id in the Location of a 202 (`…/files/{id}/status`), or null when it names none. */
export function fileIdFromLocation(location: string | null): string | null {
  const match = location === null ? null : /\/files\/([0-9a-fA-F-]{36})(?:[/?]|$)/.exec(location);
  return match?.[1] ?? null;
}

/** The passports of a building or portfolio, and the source files of a building (none for a portfolio). */
export async function listSubjectFiles(
  client: QueuedClient,
  subject: PassportSubject,
  signal: AbortSignal,
): Promise<Remote<{ passports: RemotePassport[]; sources: RemoteSourceFile[] }>> {
  if (subject.kind === 'building') {
    const result = await client.call('listBuildingFiles', { params: { buildingId: subject.id } }, { signal });
    if (result.kind !== 'ok') return remoteFailure(result);
    const passports: RemotePassport[] = [];
    const sources: RemoteSourceFile[] = [];
    for (const file of result.value) {
      if (file.type === BuildingFileType.Source) sources.push(sourceFile(file));
      if (file.type === BuildingFileType.PassportPdf || file.type === BuildingFileType.PassportExcel) {
        passports.push({
          id: file.id,
          format: file.type === BuildingFileType.PassportPdf ? 'pdf' : 'xlsx',
          ready: file.status === BuildingFileStatuses.Uploaded,
          failed: file.status === BuildingFileStatuses.Error,
          lastModifiedDate: file.lastModifiedDate,
        });
      }
    }
    return { ok: true, value: { passports, sources } };
  }
  const result = await client.call('listPortfolioFiles', { params: { portfolioId: subject.id } }, { signal });
  if (result.kind !== 'ok') return remoteFailure(result);
  const passports = result.value
    .filter((file) => file.type === PortfolioFileType.PassportPdf)
    .map(
      (file): RemotePassport => ({
        id: file.id,
        format: 'pdf',
        ready: file.status === PortfolioFileStatuses.Uploaded,
        failed: false,
        lastModifiedDate: file.lastModifiedDate,
      }),
    );
  return { ok: true, value: { passports, sources: [] } };
}

/** The source files of every building of a portfolio, by building id. */
export async function listPortfolioSources(
  client: QueuedClient,
  portfolioId: string,
  signal: AbortSignal,
): Promise<Remote<Map<string, RemoteSourceFile[]>>> {
  const buildings = await client.call('listPortfolioBuildings', { params: { id: portfolioId } }, { signal });
  if (buildings.kind !== 'ok') return remoteFailure(buildings);
  const byBuilding = new Map<string, RemoteSourceFile[]>();
  for (const building of buildings.value) {
    const files = await client.call('listBuildingFiles', { params: { buildingId: building.id } }, { signal });
    if (files.kind !== 'ok') return remoteFailure(files);
    byBuilding.set(building.id, files.value.filter((file) => file.type === BuildingFileType.Source).map(sourceFile));
  }
  return { ok: true, value: byBuilding };
}

/** Elements read per page for a fingerprint. */
const FINGERPRINT_PAGE = 1000;

/** An element's fields with their keys in order, so that the same element always gives the same text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * A SHA-256 of every element of a source file as the server answers it (quantities, mapping, phase, layer and
 * classification matches), in id order: equal fingerprints mean a passport would show the same elements.
 */
export async function elementsFingerprint(client: QueuedClient, buildingId: string, fileId: string, signal: AbortSignal): Promise<Remote<string>> {
  const hash = createHash('sha256');
  for (let skip = 0; ; skip += FINGERPRINT_PAGE) {
    const page = await client.call(
      'listElements',
      { params: { buildingId, fileId }, query: { $orderby: 'id', $top: FINGERPRINT_PAGE, $skip: skip } },
      { signal },
    );
    if (page.kind !== 'ok') return remoteFailure(page);
    for (const element of page.value) hash.update(`${JSON.stringify(canonical(element))}\n`);
    // A server that ignores `$top` answers everything at once.
    if (page.value.length !== FINGERPRINT_PAGE) return { ok: true, value: hash.digest('hex') };
  }
}

/** The name of the building or portfolio. */
export async function subjectName(client: QueuedClient, subject: PassportSubject, signal: AbortSignal): Promise<Remote<string>> {
  const result =
    subject.kind === 'building'
      ? await client.call('getBuilding', { params: { id: subject.id } }, { signal })
      : await client.call('getPortfolio', { params: { id: subject.id } }, { signal });
  if (result.kind !== 'ok') return remoteFailure(result);
  return { ok: true, value: result.value.name ?? '' };
}

/** What one passport request says. */
export interface PassportRequest {
  format: PassportFormat;
  language: PassportLanguage;
  /** Lets a server that honours `Idempotency-Key` answer a repeated request without making a second passport. */
  idempotencyKey: string;
}

/**
 * Asks for one passport; answers the id of the new passport file, or null when the answer does not name it (a
 * building passport's 202 names it only in its Location). A portfolio passport lists every building of the portfolio.
 */
export async function requestPassport(
  client: QueuedClient,
  subject: PassportSubject,
  request: PassportRequest,
  signal: AbortSignal,
): Promise<Remote<string | null>> {
  const headers = { 'accept-language': request.language, 'idempotency-key': request.idempotencyKey };
  if (subject.kind === 'building') {
    const operation = request.format === 'pdf' ? 'exportBuildingPassport' : 'exportBuildingExcelPassport';
    const result = await client.call(operation, { params: { id: subject.id }, headers }, { signal });
    if (result.kind !== 'ok') return remoteFailure(result);
    return { ok: true, value: fileIdFromLocation(result.headers.get('location')) };
  }
  const buildings = await client.call('listPortfolioBuildings', { params: { id: subject.id } }, { signal });
  if (buildings.kind !== 'ok') return remoteFailure(buildings);
  const body = { buildingIds: buildings.value.map((building) => building.id) };
  const result = await client.call('exportPortfolioPassport', { params: { id: subject.id }, headers, body }, { signal });
  if (result.kind !== 'ok') return remoteFailure(result);
  return { ok: true, value: result.value.id };
}

/** The server's status message of a file, or null when it gives none. */
export async function fileStatusMessage(
  client: QueuedClient,
  subject: PassportSubject,
  fileId: string,
  signal: AbortSignal,
): Promise<string | null> {
  const result =
    subject.kind === 'building'
      ? await client.call('getBuildingFileStatus', { params: { buildingId: subject.id, fileId } }, { signal })
      : await client.call('getPortfolioFileStatus', { params: { portfolioId: subject.id, fileId } }, { signal });
  return result.kind === 'ok' ? result.value.statusMessage : null;
}

/** A signed download address of a file and when it expires (ms since the epoch; NaN when the server gave no valid time). */
export async function downloadLink(
  client: QueuedClient,
  subject: PassportSubject,
  fileId: string,
  signal: AbortSignal,
): Promise<Remote<{ url: string; expiresAt: number }>> {
  const result =
    subject.kind === 'building'
      ? await client.call('getBuildingFileDownload', { params: { buildingId: subject.id, fileId } }, { signal })
      : await client.call('getPortfolioFileDownload', { params: { portfolioId: subject.id, fileId } }, { signal });
  if (result.kind !== 'ok') return remoteFailure(result);
  return { ok: true, value: { url: result.value.url, expiresAt: Date.parse(result.value.expirationDateTime) } };
}
