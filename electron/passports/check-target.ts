/**
 * One check of one target: list its files on the server, forget passport files the server no longer has, note source
 * files that reached Mapped (`requestOnMapped`), send the recorded requests, follow every passport file of the listing,
 * and fail passports the server deleted or never made. What goes wrong with the server is the target's `lastError`.
 */
import type { QueuedClient } from '../http/queued-client';
import { messageOf, timeoutMessage, type PassportContext, type TargetCheck } from './passport-context';
import type { StoredEntry, StoredTarget } from './passport-model';
import { listPortfolioSources, listSubjectFiles, requestPassport } from './passport-remote';
import { nameForFiles } from './download-passport';
import { followPassport } from './follow-passport';
import { requestOnMapped } from './request-on-mapped';

/** Asks the server for one passport; the entry moves to `generating`, `failed` (refused) or stays `requested` (offline). */
async function send(context: PassportContext, check: TargetCheck, entry: StoredEntry): Promise<void> {
  const { records } = context;
  const { target } = check;
  const request = { format: entry.format, language: entry.language ?? target.language, idempotencyKey: entry.idempotencyKey };
  const sent = await requestPassport(check.client, target.subject, request, check.signal);
  if (!records.isCurrent(target)) return;
  if (sent.ok) {
    records.requestSent(entry, sent.value);
  } else if (sent.aborted) {
    return;
  } else if (sent.status === undefined) {
    records.requestDeferred(entry, `Not sent yet: ${sent.message}`);
  } else {
    records.requestRefused(entry, `The server refused the passport request: ${sent.message}`);
  }
  await records.saveQuietly();
}

/** Fails the target's generating passports the server no longer lists, or that never got a file in time. */
async function failLostPassports(context: PassportContext, target: StoredTarget, listed: ReadonlySet<string>, sent: ReadonlySet<StoredEntry>): Promise<void> {
  const { records } = context;
  for (const entry of records.entriesOf(target)) {
    if (entry.state !== 'generating' || sent.has(entry)) continue;
    if (entry.remoteFileId !== null && !listed.has(entry.remoteFileId)) {
      records.generationFailed(entry, 'The passport was deleted on the server before it could be downloaded.');
      await records.saveQuietly();
    } else if (entry.remoteFileId === null && context.clock().getTime() - Date.parse(entry.stateSince) > context.generationTimeoutMs) {
      records.generationFailed(entry, timeoutMessage(context));
      await records.saveQuietly();
    }
  }
}

/** Checks one target; `signals` are the buildings told about by `sourceFileMapped`, `signal` stops the check. */
export async function checkTarget(context: PassportContext, target: StoredTarget, signals: ReadonlySet<string>, signal: AbortSignal): Promise<void> {
  const { records } = context;
  let client: QueuedClient;
  try {
    client = await context.clientFor(target.connectionId);
  } catch (error) {
    records.setTargetError(target, messageOf(error));
    return;
  }
  const check: TargetCheck = { target, client, signal };
  const listing = await listSubjectFiles(client, target.subject, signal);
  if (signal.aborted || !records.isCurrent(target)) return;
  if (!listing.ok) {
    const notFound = `The ${target.subject.kind} was not found on the server, or the key cannot see it: ${listing.message}`;
    records.setTargetError(target, listing.status === 404 ? notFound : listing.message);
    return;
  }
  const { passports, sources } = listing.value;
  const listed = new Set(passports.map((remote) => remote.id));
  records.forgetDeleted(target, listed);
  if (target.name === null) await nameForFiles(context, check);

  if (target.requestOnMapped) {
    const byBuilding =
      target.subject.kind === 'building'
        ? ({ ok: true, value: new Map([[target.subject.id, sources]]) } as const)
        : await listPortfolioSources(client, target.subject.id, signal);
    if (byBuilding.ok && records.isCurrent(target)) await requestOnMapped(context, check, byBuilding.value, signals);
  }

  // A request is sent only once it is on disk, so that a crash cannot lose a passport the server is making.
  await records.idle();
  // Passports asked for now are not in the listing, which was taken before.
  const sent = new Set<StoredEntry>();
  for (const entry of records.entriesOf(target).filter((each) => each.state === 'requested')) {
    if (signal.aborted || !records.isCurrent(target)) return;
    await send(context, check, entry);
    sent.add(entry);
  }

  if (target.preexisting === null) {
    const claimed = new Set(records.entriesOf(target).map((entry) => entry.remoteFileId));
    records.notePreexisting(
      target,
      passports.filter((remote) => !claimed.has(remote.id)).map((remote) => remote.id),
    );
    await records.saveQuietly();
  }

  for (const remote of passports) {
    if (signal.aborted || !records.isCurrent(target)) return;
    await followPassport(context, check, remote);
  }

  await failLostPassports(context, target, listed, sent);
  records.targetChecked(target);
}
