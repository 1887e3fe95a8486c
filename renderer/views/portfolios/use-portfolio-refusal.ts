/**
 * Why an online action about a portfolio did not happen, in words: those of the building screens, but a portfolio
 * not yet on the server says so of the portfolio.
 */
import { useI18n } from 'vue-i18n';
import type { OnlineRefusal } from '../../stores/online-outcome';
import { useBuildingWords } from '../buildings/use-building-words';

/** The lines of a refusal of an action about a portfolio. */
export function usePortfolioRefusal(): (refusal: OnlineRefusal) => string[] {
  const { t } = useI18n();
  const { refusalLines } = useBuildingWords();
  return (refusal) => (refusal.kind === 'not-on-server' ? [t('portfolioPage.refusal.notOnServer')] : refusalLines(refusal));
}
