/**
 * The lines a screen shows for an `ApiFailure`, the one wording of failures for every screen. A sync's failure and a
 * failure of an action the user started differ in two ways: the sync tries again by itself, so no answer is worded
 * by its reason and says that changes wait; and a refused key asks the user to check it, where an action's refusal
 * names the level the key lacks.
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../shared/api/enums';
import type { ApiFailure } from '../api/failure';

/** Whose failure a screen shows: the sync's, or that of an action on a building or a portfolio. */
export type FailureSource = 'sync' | 'building' | 'portfolio';

/** The texts of failures in the current language. */
export function useFailureText() {
  const { t, n } = useI18n();

  /**
   * A sync's network failure by its reason alone: its message names the operation and the address, which say nothing
   * to the user.
   */
  function syncNetworkText(reason: string): string {
    switch (reason) {
      case 'unreachable':
        return t('failure.unreachable');
      case 'timeout':
        return t('failure.timeout');
      case 'processing':
        return t('failure.processing');
      case 'aborted':
        return t('failure.stopped');
      case 'invalid-response':
        return t('failure.badResponse');
      default:
        return t('failure.badRequest');
    }
  }

  /** An action's network failure: the server out of reach, unless the request or its answer was the problem. */
  function actionNetworkText(reason: string): string {
    switch (reason) {
      case 'invalid-response':
        return t('failure.badResponse');
      case 'invalid-request':
        return t('failure.badRequest');
      default:
        return t('failure.network');
    }
  }

  /** The server's problem answer: its title and status, detail and invalid fields, and what to do about a refused key. */
  function problemLines(failure: Extract<ApiFailure, { kind: 'problem' }>, source: FailureSource): string[] {
    const { problem, status } = failure;
    const refusedKey = status === 401 || status === 403;
    const heading =
      refusedKey && source !== 'sync'
        ? t('buildings.refusal.forbidden', { status: n(status, 'integer') })
        : t('failure.problem', { title: problem.title, status: n(status, 'integer') });
    const lines = [heading];
    if (problem.detail !== '') lines.push(problem.detail);
    // Servers other than ours may leave `errors` out.
    for (const field of problem.errors ?? []) lines.push(t('failure.field', { path: field.path, message: field.message }));
    if (refusedKey && source === 'sync') lines.push(t('sync.checkKey'));
    return lines;
  }

  /** A failure as lines: what happened, then the server's detail and invalid fields when it gave them. */
  function failureLines(failure: ApiFailure, source: FailureSource = 'sync'): string[] {
    switch (failure.kind) {
      case 'problem':
        return problemLines(failure, source);
      case 'network':
        return [source === 'sync' ? syncNetworkText(failure.reason) : actionNetworkText(failure.reason)];
      case 'host':
        return [t('failure.host', { message: failure.message })];
      case 'invalid-answer':
        return [t('failure.invalidAnswer', { message: failure.message })];
      case 'internal':
        return [t('failure.internal', { message: failure.message })];
      case 'no-connection':
        return [t('buildings.refusal.noConnection')];
      case 'not-on-server':
        return [source === 'portfolio' ? t('portfolioPage.refusal.notOnServer') : t('buildings.refusal.notOnServer')];
      case 'offline':
        return [t('buildings.refusal.offline')];
      default:
        return assertNever(failure, 'API failure');
    }
  }

  return { failureLines };
}
