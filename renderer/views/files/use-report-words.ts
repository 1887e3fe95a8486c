/**
 * The words of the import report for every value the server's report names: where an element's material, quantities
 * and classification came from, why geometry gave no volume, and why an element does not count, with its fix. Reasons are put in
 * words from their code, never from the server's English description. Each text is a literal key.
 */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import type { ClassificationSource, GeometryIssue, MappingSource, NotCountedReason, QuantitySource } from '../../../shared/api/schemas';

/** The breakdowns of the report. */
export type ReportBreakdown = 'material' | 'quantities' | 'classification';

/** The texts of the import report in the current language. */
export function useReportWords() {
  const { t } = useI18n();

  function materialSource(source: MappingSource): string {
    switch (source) {
      case 'model':
        return t('importReport.material.model');
      case 'rule':
        return t('importReport.material.rule');
      case 'keyword':
        return t('importReport.material.keyword');
      case 'none':
        return t('importReport.material.none');
      default:
        return assertNever(source, 'mapping source');
    }
  }

  function quantitySource(source: QuantitySource): string {
    switch (source) {
      case 'model':
        return t('importReport.quantities.model');
      case 'geometry':
        return t('importReport.quantities.geometry');
      case 'none':
        return t('importReport.quantities.none');
      default:
        return assertNever(source, 'quantity source');
    }
  }

  function classificationSource(source: ClassificationSource): string {
    switch (source) {
      case 'model':
        return t('importReport.classification.model');
      case 'layer':
        return t('importReport.classification.layer');
      case 'inferred':
        return t('importReport.classification.inferred');
      case 'none':
        return t('importReport.classification.none');
      default:
        return assertNever(source, 'classification source');
    }
  }

  /** The heading of a breakdown. */
  function breakdownTitle(breakdown: ReportBreakdown): string {
    switch (breakdown) {
      case 'material':
        return t('importReport.material.title');
      case 'quantities':
        return t('importReport.quantities.title');
      case 'classification':
        return t('importReport.classification.title');
      default:
        return assertNever(breakdown, 'report breakdown');
    }
  }

  function geometryIssue(issue: GeometryIssue): string {
    switch (issue) {
      case 'open':
        return t('importReport.geometry.open');
      case 'empty':
        return t('importReport.geometry.empty');
      case 'failed':
        return t('importReport.geometry.failed');
      default:
        return assertNever(issue, 'geometry issue');
    }
  }

  function notCountedReason(reason: NotCountedReason): string {
    switch (reason) {
      case 'file-not-counted':
        return t('importReport.reason.fileNotCounted');
      case 'no-material':
        return t('importReport.reason.noMaterial');
      case 'no-quantity':
        return t('importReport.reason.noQuantity');
      case 'no-building-layer':
        return t('importReport.reason.noBuildingLayer');
      case 'no-mass':
        return t('importReport.reason.noMass');
      case 'no-circular-data':
        return t('importReport.reason.noCircularData');
      default:
        return assertNever(reason, 'not-counted reason');
    }
  }

  /** What fixes the elements of a reason. */
  function reasonFix(reason: NotCountedReason): string {
    switch (reason) {
      case 'file-not-counted':
        return t('importReport.fix.fileNotCounted');
      case 'no-material':
        return t('importReport.fix.noMaterial');
      case 'no-quantity':
        return t('importReport.fix.noQuantity');
      case 'no-building-layer':
        return t('importReport.fix.noBuildingLayer');
      case 'no-mass':
        return t('importReport.fix.noMass');
      case 'no-circular-data':
        return t('importReport.fix.noCircularData');
      default:
        return assertNever(reason, 'not-counted reason');
    }
  }

  return { materialSource, quantitySource, classificationSource, breakdownTitle, geometryIssue, notCountedReason, reasonFix };
}
