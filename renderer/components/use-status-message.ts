/**
 * A building file's status message (on the building's page, in drop folders and Activity) in the user's language: the server writes English sentences, which
 * `shared/status-messages.ts` reads back into data; a message worded otherwise shows as it came.
 */
import { useI18n } from 'vue-i18n';
import { useCountWords } from './use-count-words';
import {
  parseStatusMessage,
  type Rejection,
  type ReportSummary,
  type RowProblem,
  type StatusSentence,
} from '../../shared/status-messages';

/**
 * The words of a status message; `active`, when given, is whether the file counts now: a summary written before the
 * file was activated or deactivated says how many count all the same, so it is worded as the file is.
 */
export function useStatusMessage(): (message: string, active?: boolean) => string {
  const { t, n } = useI18n();
  const { reasonText } = useCountWords();
  const count = (value: number): string => n(value, 'integer');

  function field(name: string): string {
    switch (name) {
      case 'volume':
        return t('statusMessage.field.volume');
      case 'area':
        return t('statusMessage.field.area');
      case 'length':
        return t('statusMessage.field.length');
      case 'width':
        return t('statusMessage.field.width');
      case 'height':
        return t('statusMessage.field.height');
      case 'weight':
        return t('statusMessage.field.weight');
      case 'amount':
        return t('statusMessage.field.amount');
      default:
        return name;
    }
  }

  function problemText(problem: RowProblem): string {
    switch (problem.kind) {
      case 'no-id':
        return t('statusMessage.noId');
      case 'no-computed-value':
        return t('statusMessage.noComputedValue', { field: field(problem.field), formula: problem.formula });
      case 'not-a-number':
        return t('statusMessage.notANumber', { field: field(problem.field), value: problem.value });
      case 'negative':
        return t('statusMessage.negative', { field: field(problem.field) });
      case 'duplicate-id':
        return problem.firstSheet === null
          ? t('statusMessage.duplicateId', { id: problem.id, row: problem.firstRow })
          : t('statusMessage.duplicateIdOnSheet', { id: problem.id, sheet: problem.firstSheet, row: problem.firstRow });
    }
  }

  function rejectionText(rejection: Rejection): string {
    if (rejection.kind === 'text') return rejection.text;
    return t('statusMessage.rejectedRow', { sheet: rejection.sheet, row: rejection.row, problems: rejection.problems.map(problemText).join(', ') });
  }

  /** How many count, why the others do not, and what was assumed (the assumptions that are not 0). */
  function summaryText(summary: ReportSummary): string {
    const reasons = summary.notCounted.map(({ reason, elements }) => reasonText(reason, elements)).join(', ');
    const figures = { counted: count(summary.counted), elements: count(summary.elements), reasons };
    const counting =
      summary.notCounted.length === 0
        ? summary.active
          ? t('statusMessage.counts.all', figures)
          : t('statusMessage.counts.allOnceActive', figures)
        : summary.active
          ? t('statusMessage.counts.some', figures)
          : t('statusMessage.counts.someOnceActive', figures);
    const assumed = [
      summary.mappedByKeyword > 0 ? t('statusMessage.counts.mappedByKeyword', { count: count(summary.mappedByKeyword) }) : null,
      summary.measuredFromGeometry > 0 ? t('statusMessage.counts.fromGeometry', { count: count(summary.measuredFromGeometry) }) : null,
      summary.layerFromNames > 0 ? t('statusMessage.counts.layerFromNames', { count: count(summary.layerFromNames) }) : null,
      summary.layerFromClass > 0 ? t('statusMessage.counts.layerFromClass', { count: count(summary.layerFromClass) }) : null,
    ].filter((text): text is string => text !== null);
    return assumed.length === 0 ? counting : `${counting} ${t('statusMessage.counts.assumed', { list: assumed.join(', ') })}`;
  }

  function sentenceText(sentence: StatusSentence): string {
    switch (sentence.kind) {
      case 'created':
        return t('statusMessage.created');
      case 'uploaded':
        return t('statusMessage.uploaded');
      case 'waiting-for-import':
        return t('statusMessage.waitingForImport');
      case 'importing':
        return t('statusMessage.importing');
      case 'refinement-queued':
        return t('statusMessage.refinementQueued');
      case 'refining':
        return t('statusMessage.refining');
      case 'mapping':
        return t('statusMessage.mapping');
      case 'passport-queued':
        return t('statusMessage.passportQueued');
      case 'passport-computing':
        return t('statusMessage.passportComputing');
      case 'passport-writing':
        return t('statusMessage.passportWriting');
      case 'passport-generated':
        return sentence.of === 'elements'
          ? t('statusMessage.passportOfElements', { count: count(sentence.count) })
          : t('statusMessage.passportOfBuildings', { count: count(sentence.count) });
      case 'refinement-failed':
        return t('statusMessage.refinementFailed', { reason: sentence.reason });
      case 'passport-failed':
        return t('statusMessage.passportFailed', { reason: sentence.reason });
      case 'import-summary': {
        if (sentence.rejected === 0) return t('statusMessage.imported', { imported: count(sentence.imported) });
        const unshown = sentence.rejected - sentence.shown.length;
        const rows = sentence.shown.map(rejectionText);
        if (unshown > 0) rows.push(t('statusMessage.moreRejected', { count: count(unshown) }));
        return t('statusMessage.importedWithRejections', { imported: count(sentence.imported), rejected: count(sentence.rejected), rows: rows.join('; ') });
      }
      case 'report-summary':
        return summaryText(sentence);
    }
  }

  return (message, active) => {
    const sentences = parseStatusMessage(message);
    if (sentences === null) return message;
    return sentences.map((sentence) => sentenceText(sentence.kind === 'report-summary' && active !== undefined ? { ...sentence, active } : sentence)).join(' ');
  };
}
