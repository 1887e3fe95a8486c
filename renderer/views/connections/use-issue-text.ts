/** The sentences for the form's problems, shared by the connection form and the key dialog. */
import { useI18n } from 'vue-i18n';
import { assertNever } from '../../../shared/api/enums';
import type { KeyIssue, NameIssue, UrlIssue } from './connection-validation';

/** Turns each kind of problem into what the user reads; call from a component's setup. */
export function useIssueText() {
  const { t } = useI18n();

  function nameText(issue: NameIssue): string {
    switch (issue) {
      case 'required':
        return t('connectionForm.nameRequired');
      case 'too-long':
        return t('connectionForm.nameTooLong');
      default:
        return assertNever(issue, 'name issue');
    }
  }

  function urlText(issue: UrlIssue): string {
    switch (issue) {
      case 'required':
        return t('connectionForm.urlRequired');
      case 'invalid':
        return t('connectionForm.urlInvalid');
      case 'protocol':
        return t('connectionForm.urlProtocol');
      case 'credentials':
        return t('connectionForm.urlCredentials');
      case 'query':
        return t('connectionForm.urlQuery');
      case 'too-long':
        return t('connectionForm.urlTooLong');
      default:
        return assertNever(issue, 'base URL issue');
    }
  }

  function keyText(issue: KeyIssue): string {
    switch (issue) {
      case 'required':
        return t('connectionForm.keyRequired');
      case 'invalid':
        return t('connectionForm.keyInvalid');
      case 'too-long':
        return t('connectionForm.keyTooLong');
      default:
        return assertNever(issue, 'key issue');
    }
  }

  return { nameText, urlText, keyText };
}
