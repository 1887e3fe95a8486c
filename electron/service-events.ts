/**
 * The events of the drop folder and passport services as the window hears them: each forwarded on its own channel,
 * and a notice where the user should learn of something (a file's work ended, a passport saved or failed). A drop
 * folder file that reaches Mapped tells the passports, which may be asked for on Mapped.
 */
import path from 'node:path';
import { assertNever } from '../shared/api/enums';
import type { DropFolderEvent } from '../shared/dropfolders';
import type { PassportEntry, PassportEvent, PassportState, PassportTarget } from '../shared/passports';
import type { BridgeEventSink } from './bridge-dispatch';

export interface PassportEventsOptions {
  emit: BridgeEventSink;
  /** A passport folder as it is now, whose name the notice of a failure gives; undefined when it is gone. */
  targetOf(targetId: string): PassportTarget | undefined;
}

/** A listener of the passport service's events. */
export function passportEventsTo({ emit, targetOf }: PassportEventsOptions): (event: PassportEvent) => void {
  const states = new Map<string, PassportState>();

  /** One notice when a passport reaches the folder or fails, however often its entry changes. */
  function noticeOf(entry: PassportEntry): void {
    const before = states.get(entry.id);
    states.set(entry.id, entry.state);
    if (before === entry.state) return;
    const format = entry.format === 'pdf' ? 'PDF' : 'Excel';
    if (entry.state === 'downloaded' && entry.filePath !== null) {
      emit('notice', { kind: 'success', title: `${path.basename(entry.filePath)} is saved`, message: `The ${format} passport is in ${path.dirname(entry.filePath)}.` });
    } else if (entry.state === 'failed') {
      const name = targetOf(entry.targetId)?.name ?? `the ${entry.subject.kind}`;
      emit('notice', { kind: 'error', title: `The ${format} passport of ${name} failed`, message: entry.error ?? 'The passport could not be made.' });
    }
  }

  return (event) => {
    emit('passports:changed', event);
    if (event.type === 'entry-changed') noticeOf(event.entry);
  };
}

export interface DropFolderEventsOptions {
  emit: BridgeEventSink;
  /** A file of the building reached Mapped (and was activated, when chosen). */
  fileMapped(buildingId: string): void;
}

/** A listener of the drop folder service's events. */
export function dropFolderEventsTo({ emit, fileMapped }: DropFolderEventsOptions): (event: DropFolderEvent) => void {
  return (event) => {
    emit('dropfolders:changed', event);
    switch (event.kind) {
      case 'notice':
        emit('notice', { kind: event.outcome === 'failed' ? 'error' : 'success', title: event.title, message: event.message });
        return;
      case 'file': {
        const { state, buildingId } = event.file;
        // Passports asked for on Mapped go out now: the file has been activated (when chosen) before it counts as mapped.
        if (state === 'mapped' && buildingId !== null) fileMapped(buildingId);
        return;
      }
      case 'file-removed':
      case 'progress':
      case 'folders':
        return;
      default:
        assertNever(event, 'drop folder event');
    }
  };
}
