/**
 * `requestOnMapped`: notes source files that reached Mapped and records passport requests for those whose change has
 * settled: the file has been Mapped for the quiet period and the server works on no other file of its building (or
 * the building was signalled). A file whose elements are the same as when passports were last asked for it (a
 * refinement that changed nothing) asks for none. One request per format covers all files that became due in the
 * same check.
 */
import type { PassportContext, TargetCheck } from './passport-context';
import type { SeenSourceFile, StoredTarget } from './passport-model';
import { elementsFingerprint, type RemoteSourceFile } from './passport-remote';

/** A Mapped source file that may need passports, once its elements are known. */
interface Candidate {
  buildingId: string;
  file: RemoteSourceFile;
  record: SeenSourceFile;
}

/** What the listing shows of the target's source files, and which Mapped ones may be due. */
function observeSources(
  target: StoredTarget,
  sources: ReadonlyMap<string, RemoteSourceFile[]>,
  signals: ReadonlySet<string>,
  at: Date,
  mappedSettleMs: number,
): { seen: Record<string, SeenSourceFile>; candidates: Candidate[] } {
  const seen = { ...target.sourceFiles };
  const candidates: Candidate[] = [];
  const present = new Set<string>();
  for (const [buildingId, files] of sources) {
    const buildingBusy = files.some((file) => file.busy);
    for (const file of files) {
      present.add(file.id);
      const earlier = seen[file.id];
      if (!file.mapped) {
        seen[file.id] = { lastModifiedDate: file.lastModifiedDate, mappedSince: null, handled: false, fingerprint: earlier?.fingerprint };
        continue;
      }
      let record = earlier;
      // Reaching Mapped again (a new version, a refinement) changes lastModifiedDate, even when no check saw the steps between.
      if (record === undefined || record.mappedSince === null || record.lastModifiedDate !== file.lastModifiedDate) {
        record = { lastModifiedDate: file.lastModifiedDate, mappedSince: at.toISOString(), handled: !target.sourceFilesKnown, fingerprint: earlier?.fingerprint };
        seen[file.id] = record;
      }
      const quiet = record.mappedSince !== null && at.getTime() - Date.parse(record.mappedSince) >= mappedSettleMs && !buildingBusy;
      const baselineMissing = record.handled && record.fingerprint === undefined;
      if (baselineMissing || (!record.handled && (quiet || signals.has(buildingId)))) candidates.push({ buildingId, file, record });
    }
  }
  for (const id of Object.keys(seen)) if (!present.has(id)) delete seen[id];
  return { seen, candidates };
}

/**
 * Records the passport requests that source files reaching Mapped call for. `sources` holds the source files of the
 * target's building, or of every building of its portfolio; `signals` the buildings told about by `sourceFileMapped`.
 */
export async function requestOnMapped(
  context: PassportContext,
  check: TargetCheck,
  sources: ReadonlyMap<string, RemoteSourceFile[]>,
  signals: ReadonlySet<string>,
): Promise<void> {
  const { records } = context;
  const { target, client, signal } = check;
  const before = JSON.stringify(target.sourceFiles);
  const firstCheck = !target.sourceFilesKnown;
  const { seen, candidates } = observeSources(target, sources, signals, context.clock(), context.mappedSettleMs);
  records.observeSourceFiles(target, seen);

  const due: RemoteSourceFile[] = [];
  for (const { buildingId, file, record } of candidates) {
    if (signal.aborted || !records.isCurrent(target)) return;
    const fingerprint = await elementsFingerprint(client, buildingId, file.id, signal);
    // Without the elements nothing is decided: the next check tries again.
    if (!fingerprint.ok) continue;
    if (!record.handled && fingerprint.value !== record.fingerprint) due.push(file);
    else if (!record.handled) context.log(`${file.name ?? file.id} was processed again with the same elements; no new passport.`);
    records.sourceFileHandled(record, fingerprint.value);
  }
  if (due.length > 0) {
    const sourceFiles = due.map((file) => ({ id: file.id, name: file.name }));
    for (const format of target.formats) {
      records.addEntry(target, { format, language: target.language, origin: 'on-mapped', state: 'requested', sourceFiles });
    }
  }
  // The handled marks and the new requests are written together, so a restart neither repeats nor loses a request.
  if (firstCheck || due.length > 0 || JSON.stringify(seen) !== before) await records.saveQuietly();
}
