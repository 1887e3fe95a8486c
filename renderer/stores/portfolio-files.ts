/**
 * The information files of a portfolio, online: listed as the server has them now (they are not cached), downloaded
 * (browser mode: through the browser's downloads; Electron: the signed address opened in the system's browser, as the
 * host's save dialog takes building files only) and deleted. Adding one is an upload (`uploads.ts`).
 */
import { defineStore } from 'pinia';
import type { PortfolioFileResponse } from '../../shared/api/schemas';
import { callApi, callApiList } from '../api-call';
import { useBridge } from '../bridge';
import { useAppInfoStore } from './app-info';
import { openSigned, saveAddress, signedAddress, type DownloadOutcome } from './file-download';
import { outcomeOf, whenOnline, type OnlineOutcome } from './online-outcome';
import { useSyncStore } from './sync';

/** The files of portfolios, online. */
export const usePortfolioFilesStore = defineStore('portfolioFiles', () => {
  const bridge = useBridge();
  const sync = useSyncStore();
  const appInfo = useAppInfoStore();

  /** A portfolio's files as the server lists them. */
  function list(portfolioId: string): Promise<OnlineOutcome<PortfolioFileResponse[]>> {
    return whenOnline(sync, portfolioId, async (connectionId) =>
      outcomeOf(
        await callApiList<PortfolioFileResponse>(bridge, { connectionId, operationId: 'listPortfolioFiles', params: { portfolioId } }),
        (files) => files,
      ),
    );
  }

  /** Saves a file's content through the browser, or opens its address in the system's browser in Electron. */
  function download(portfolioId: string, file: Pick<PortfolioFileResponse, 'id' | 'fileName'>): Promise<OnlineOutcome<DownloadOutcome>> {
    return whenOnline(sync, portfolioId, async (connectionId) => {
      const address = await signedAddress(bridge, connectionId, 'getPortfolioFileDownload', { portfolioId, fileId: file.id });
      if (!address.ok) return address;
      await appInfo.load();
      if (appInfo.info?.host === 'electron') return openSigned(bridge, true, address.value);
      saveAddress(address.value, file.fileName ?? file.id);
      return { ok: true, value: { kind: 'browser' } };
    });
  }

  /** Deletes a file and its content. */
  function remove(portfolioId: string, fileId: string): Promise<OnlineOutcome<void>> {
    return whenOnline(sync, portfolioId, async (connectionId) =>
      outcomeOf(await callApi(bridge, { connectionId, operationId: 'deletePortfolioFile', params: { portfolioId, fileId } }), () => undefined),
    );
  }

  return { list, download, remove };
});
