/**
 * A building file's status message (on the building's page, in drop folders and Activity) in the user's language: the server writes English sentences, which
 * `shared/status-messages.ts` reads back into data; a message worded otherwise shows as it came.
 */
import { useI18n } from 'vue-i18n';
import { parseStatusMessage, type Rejection, type RowProblem, type StatusSentence } from '../../shared/status-messages';

export function useStatusMessage(): (message: string) => string {
  const { t, n } = useI18n();
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

  /** "12 mapped (3 by keyword)": a figure with what was assumed to reach it, the assumptions that are not 0. */
  function withAssumed(said: string, assumed: string[]): string {
    return assumed.length === 0 ? said : t('statusMessage.assumed', { said, assumed: assumed.join(', ') });
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
      case 'report-summary': {
        const assumed = (parts: [number, string][]): string[] => parts.filter(([value]) => value > 0).map(([, text]) => text);
        const figures = {
          counted: count(sentence.counted),
          elements: count(sentence.elements),
          mapped: withAssumed(t('statusMessage.mapped', { count: count(sentence.mapped) }), assumed([
            [sentence.mappedByKeyword, t('statusMessage.byKeyword', { count: count(sentence.mappedByKeyword) })],
          ])),
          measured: withAssumed(t('statusMessage.measured', { count: count(sentence.measured) }), assumed([
            [sentence.measuredFromGeometry, t('statusMessage.fromGeometry', { count: count(sentence.measuredFromGeometry) })],
          ])),
          layered: withAssumed(t('statusMessage.layered', { count: count(sentence.layered) }), assumed([
            [sentence.layerFromNames, t('statusMessage.fromLayerNames', { count: count(sentence.layerFromNames) })],
            [sentence.layerFromClass, t('statusMessage.fromClass', { count: count(sentence.layerFromClass) })],
          ])),
        };
        return sentence.active ? t('statusMessage.counted', figures) : t('statusMessage.wouldCount', figures);
      }
    }
  }

  return (message) => {
    const sentences = parseStatusMessage(message);
    return sentences === null ? message : sentences.map(sentenceText).join(' ');
  };
}
