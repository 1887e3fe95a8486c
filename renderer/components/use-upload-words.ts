/**
 * The words of uploads, on the building and portfolio pages alike: sizes, rates and time left (numbers through `n()`),
 * and each state with the colour of its tag.
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../shared/api/enums';
import type { UploadEntry, UploadState } from '../../shared/uploads';
import type { TagType } from './use-state-tags';

const KIB = 1024;

/** The texts of uploads in the current language. */
export function useUploadWords() {
  const { t, n } = useI18n();

  /** A size in B, KiB, MiB or GiB, whichever reads best. */
  function bytesText(bytes: number): string {
    if (bytes < KIB) return t('uploads.units.bytes', { size: n(bytes, 'integer') });
    if (bytes < KIB ** 2) return t('uploads.units.kib', { size: n(bytes / KIB, 'decimal') });
    if (bytes < KIB ** 3) return t('uploads.units.mib', { size: n(bytes / KIB ** 2, 'decimal') });
    return t('uploads.units.gib', { size: n(bytes / KIB ** 3, 'decimal') });
  }

  /** A duration in seconds, minutes or hours. */
  function durationText(seconds: number): string {
    const whole = Math.max(1, Math.ceil(seconds));
    if (whole < 60) return t('uploads.units.seconds', { count: n(whole, 'integer') });
    if (whole < 3600) return t('uploads.units.minutes', { count: n(Math.ceil(whole / 60), 'integer') });
    return t('uploads.units.hours', { count: n(whole / 3600, 'decimal') });
  }

  /** What has gone and what is known of the rest: `3.2 MiB of 40 MiB · 1.1 MiB/s · 34 s left`. */
  function progressText(entry: UploadEntry): string {
    const parts = [t('uploads.sent', { sent: bytesText(entry.sentBytes), total: bytesText(entry.size) })];
    if (entry.bytesPerSecond !== null) parts.push(t('uploads.rate', { rate: bytesText(entry.bytesPerSecond) }));
    if (entry.secondsLeft !== null) parts.push(t('uploads.left', { time: durationText(entry.secondsLeft) }));
    return parts.join(' · ');
  }

  function stateTag(state: UploadState): { text: string; type: TagType } {
    switch (state) {
      case 'waiting':
        return { text: t('uploads.states.waiting'), type: 'default' };
      case 'creating':
        return { text: t('uploads.states.creating'), type: 'info' };
      case 'sending':
        return { text: t('uploads.states.sending'), type: 'info' };
      case 'done':
        return { text: t('uploads.states.done'), type: 'success' };
      case 'failed':
        return { text: t('uploads.states.failed'), type: 'error' };
      case 'cancelled':
        return { text: t('uploads.states.cancelled'), type: 'warning' };
      default:
        return assertNever(state, 'upload state');
    }
  }

  return { bytesText, durationText, progressText, stateTag };
}
