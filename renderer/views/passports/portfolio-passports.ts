/**
 * The passports made on the server for the active connection's portfolios. Portfolio files are not kept in the cache,
 * so they are read from the server: when a screen that lists passports opens, when the portfolios change, and every
 * few seconds while one is being generated. Offline, or when a portfolio cannot be read, its last answer stays.
 */
import { onScopeDispose, shallowRef, watch, type Ref } from 'vue';
import { PortfolioFileType } from '../../../shared/api/enums';
import type { PortfolioFileResponse } from '../../../shared/api/schemas';
import { isLocalId } from '../../db/schema';
import { usePortfolioFilesStore } from '../../stores/portfolio-files';
import { usePortfoliosStore } from '../../stores/portfolios';
import { isPortfolioPassportGenerating } from './passport-history';

/** A passport made on the server for a portfolio. */
export interface PortfolioPassport {
  file: PortfolioFileResponse;
  portfolioName: string;
}

/** How often a passport being generated is looked at again. */
const GENERATING_POLL_MS = 5_000;

/** The portfolios' passports; call from a component's setup. */
export function usePortfolioPassports(): Readonly<Ref<PortfolioPassport[]>> {
  const portfolios = usePortfoliosStore();
  const files = usePortfolioFilesStore();
  const byPortfolio = new Map<string, PortfolioPassport[]>();
  const passports = shallowRef<PortfolioPassport[]>([]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  async function refresh(): Promise<void> {
    const shown = portfolios.portfolios.filter((portfolio) => !isLocalId(portfolio.id));
    const answers = await Promise.all(shown.map(async (portfolio) => ({ portfolio, outcome: await files.list(portfolio.id) })));
    if (disposed) return;
    const current = new Set(shown.map((portfolio) => portfolio.id));
    for (const id of [...byPortfolio.keys()]) if (!current.has(id)) byPortfolio.delete(id);
    for (const { portfolio, outcome } of answers) {
      if (!outcome.ok) continue;
      const made = outcome.value.filter((file) => file.type === PortfolioFileType.PassportPdf);
      byPortfolio.set(portfolio.id, made.map((file) => ({ file, portfolioName: portfolio.name })));
    }
    passports.value = [...byPortfolio.values()].flat();
    clearTimeout(timer);
    if (passports.value.some((passport) => isPortfolioPassportGenerating(passport.file))) {
      timer = setTimeout(() => void refresh(), GENERATING_POLL_MS);
    }
  }

  watch(() => portfolios.portfolios.map((portfolio) => portfolio.id).join(), () => void refresh(), { immediate: true });
  onScopeDispose(() => {
    disposed = true;
    clearTimeout(timer);
  });
  return passports;
}
