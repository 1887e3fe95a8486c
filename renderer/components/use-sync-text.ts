/**
 * The words of sync, shared by the sync indicator, the activity screen and the portfolios page: the status line,
 * the progress of a cycle, and the names of entities and operations (its failures: `use-failure-text.ts`).
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../shared/api/enums';
import type { OutboxEntity, OutboxOp, PullProgress, PushProgress } from '../db/schema';
import type { SyncPhase } from '../sync/cycle';
import type { SyncStatus } from '../stores/sync';

/** What the status line is about. */
export interface SyncStatusFacts {
  status: SyncStatus;
  phase: SyncPhase | null;
  progress: PullProgress | null;
  pushProgress: PushProgress | null;
  pendingCount: number;
  parkedCount: number;
  lastSyncAt: string | null;
  /** Offline because the server took the requests and did not answer them in time. */
  notAnswering: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Turns sync facts into what the user reads; call from a component's setup. */
export function useSyncText() {
  const { t, n, locale } = useI18n();

  /** How long ago `at` was, in the user's language ("5 minutes ago"). */
  function ago(at: string, now: number): string {
    const elapsed = Math.max(0, now - new Date(at).getTime());
    const format = new Intl.RelativeTimeFormat(locale.value, { numeric: 'auto' });
    if (elapsed < HOUR) return format.format(-Math.floor(elapsed / MINUTE), 'minute');
    if (elapsed < DAY) return format.format(-Math.floor(elapsed / HOUR), 'hour');
    return format.format(-Math.floor(elapsed / DAY), 'day');
  }

  function pushText(progress: PushProgress | null): string {
    if (progress === null) return t('sync.pushing');
    switch (progress.phase) {
      case 'entries':
        return t('sync.pushingEntries', {
          done: n(progress.pushed, 'integer'),
          total: n(progress.pushed + progress.remaining, 'integer'),
        });
      case 'file':
        switch (progress.step) {
          case 'importing':
            return t('sync.pushingElements');
          case 'refining':
            return t('sync.refining');
          case 'pulling':
            return t('sync.rereading');
          default:
            return assertNever(progress.step, 'file push step');
        }
      default:
        return assertNever(progress, 'push progress');
    }
  }

  /** What a running cycle is doing: waiting for its turn, pushing, or pulling. */
  function progressText(phase: SyncPhase | null, progress: PullProgress | null, pushProgress: PushProgress | null = null): string {
    if (phase === 'push') return pushText(pushProgress);
    if (phase === null) return t('sync.syncing');
    if (progress === null) return t('sync.pulling');
    switch (progress.phase) {
      case 'lists':
        return t('sync.progressLists');
      case 'files':
        return t('sync.progressFiles', { done: n(progress.buildingsDone, 'integer'), total: n(progress.buildingsTotal, 'integer') });
      case 'elements':
        return progress.totalPages === null
          ? t('sync.progressElements', { done: n(progress.pagesDone, 'integer') })
          : t('sync.progressElementsOf', { done: n(progress.pagesDone, 'integer'), total: n(progress.totalPages, 'integer') });
      case 'figures':
        return t('sync.progressFigures');
      default:
        return assertNever(progress, 'pull progress');
    }
  }

  /** The status line: what runs, what waits, what needs the user, or when the last sync was. */
  function statusText(facts: SyncStatusFacts, now: number): string {
    switch (facts.status) {
      case 'syncing':
        return progressText(facts.phase, facts.progress, facts.pushProgress);
      case 'offline':
        if (facts.notAnswering) return t('sync.notAnswering', { count: n(facts.pendingCount, 'integer') }, facts.pendingCount);
        return t('sync.offline', { count: n(facts.pendingCount, 'integer') }, facts.pendingCount);
      case 'error':
        return t('sync.failed');
      case 'attention':
        return t('sync.attention', { count: n(facts.parkedCount, 'integer') }, facts.parkedCount);
      case 'synced':
        if (facts.pendingCount > 0) return t('sync.pending', { count: n(facts.pendingCount, 'integer') }, facts.pendingCount);
        if (facts.lastSyncAt === null) return t('sync.neverSynced');
        if (now - new Date(facts.lastSyncAt).getTime() < MINUTE) return t('sync.syncedJustNow');
        return t('sync.synced', { time: ago(facts.lastSyncAt, now) });
      default:
        return assertNever(facts.status, 'sync status');
    }
  }

  /** The kind of item an outbox entry changes. */
  function entityText(entity: OutboxEntity): string {
    switch (entity) {
      case 'portfolios':
        return t('entity.portfolio');
      case 'buildings':
        return t('entity.building');
      case 'files':
        return t('entity.file');
      case 'elements':
        return t('entity.element');
      case 'materials':
        return t('entity.material');
      case 'materialMatches':
        return t('entity.materialMatches');
      case 'materialFinancialValues':
        return t('entity.materialFinancialValues');
      case 'products':
        return t('entity.product');
      case 'productMatches':
        return t('entity.productMatches');
      case 'productChildren':
        return t('entity.productChildren');
      case 'productFinancialValues':
        return t('entity.productFinancialValues');
      default:
        return assertNever(entity, 'outbox entity');
    }
  }

  /** What an outbox entry does to its item. */
  function opText(op: OutboxOp): string {
    switch (op) {
      case 'create':
        return t('outbox.create');
      case 'update':
        return t('outbox.update');
      case 'delete':
        return t('outbox.delete');
      default:
        return assertNever(op, 'outbox operation');
    }
  }

  return { statusText, progressText, entityText, opText };
}
