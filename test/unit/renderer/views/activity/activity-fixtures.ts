/**
 * Drop folders, their files and passports as the host's services report them, for the Activity screen's tests.
 */
import type { DropFolderFile, DropFolderStatus } from '../../../../../shared/dropfolders';
import type { PassportEntry, PassportTarget } from '../../../../../shared/passports';

/** A watched drop folder into a building. */
export function folder(id: string, changes: Partial<DropFolderStatus> = {}): DropFolderStatus {
  return {
    id,
    folder: `/srv/${id}`,
    target: { kind: 'building', buildingId: '11111111-1111-4111-8111-111111111111' },
    connectionId: 'team',
    activate: true,
    fileTypes: ['.ifc'],
    informationFiles: false,
    polling: false,
    paused: false,
    watch: 'watching',
    problem: null,
    ...changes,
  };
}

/** A file of a drop folder. */
export function dropFile(mappingId: string, path: string, changes: Partial<DropFolderFile> = {}): DropFolderFile {
  return {
    mappingId,
    path,
    kind: 'source',
    state: 'detected',
    size: 10,
    mtimeMs: 1,
    sha256: null,
    buildingId: null,
    fileId: null,
    attempts: 0,
    lastError: null,
    remoteStatus: null,
    remoteMessage: null,
    progress: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...changes,
  };
}

/** A passport folder of a building. */
export function passportTarget(id: string, name: string | null): PassportTarget {
  return {
    id,
    connectionId: 'team',
    subject: { kind: 'building', id: '11111111-1111-4111-8111-111111111111' },
    folder: `/srv/passports/${id}`,
    formats: ['pdf', 'xlsx'],
    language: 'en',
    requestOnMapped: false,
    name,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastCheckedAt: null,
    lastError: null,
  };
}

/** A passport of a target. */
export function passport(id: string, changes: Partial<PassportEntry> = {}): PassportEntry {
  return {
    id,
    targetId: 't1',
    subject: { kind: 'building', id: '11111111-1111-4111-8111-111111111111' },
    format: 'pdf',
    language: 'en',
    origin: 'request',
    sourceFiles: [],
    state: 'requested',
    requestedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    remoteFileId: null,
    filePath: null,
    bytes: null,
    error: null,
    ...changes,
  };
}
