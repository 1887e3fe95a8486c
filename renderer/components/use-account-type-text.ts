/** The words for an account's type, shown where an account is named (a connection's test, a portfolio's databases). */
import { useI18n } from 'vue-i18n';
import { AccountType, assertNever } from '../../shared/api/enums';

const KNOWN_TYPES: readonly number[] = Object.values(AccountType);

function isAccountType(type: number): type is AccountType {
  return KNOWN_TYPES.includes(type);
}

/** The type's name in the user's language; a type the spec does not name shows as its number. Call from a setup. */
export function useAccountTypeText(): (type: number) => string {
  const { t } = useI18n();
  return (type) => {
    if (!isAccountType(type)) return String(type);
    switch (type) {
      case AccountType.VerifiedDatabase:
        return t('accountType.verifiedDatabase');
      case AccountType.Supplier:
        return t('accountType.supplier');
      case AccountType.General:
        return t('accountType.general');
      case AccountType.Private:
        return t('accountType.private');
      default:
        return assertNever(type, 'account type');
    }
  };
}
