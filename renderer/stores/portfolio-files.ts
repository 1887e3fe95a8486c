/**
 * The information files of a portfolio, online: listed as the server has them now (they are not cached), downloaded
 * (browser mode: through the browser's downloads; Electron: the signed address opened in the system's browser, as the
 * host's save dialog takes building files only) and deleted. Adding one is an upload (`uploads.ts`).
 */
import { defineStore } from 'pinia';
import type { PortfolioFileResponse } from '../../shared/api/schemas';
import { callApi, callApiList } from '../api/call-api';
import { mapOutcome, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import { useAppInfoStore } from './app-info';
import { openSigned, saveAddress, signedAddress, type DownloadOutcome } from './file-download';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** The files of portfolios, online. */
export const usePortfolioFilesStore = defineStore('portfolioFiles', () => {
  const bridge = useBridge();
  const sync = useSyncStore();
  const appInfo = useAppInfoStore();

  /** A portfolio's files as the server lists them. */
  function list(portfolioId: string): Promise<ApiOutcome<PortfolioFileResponse[]>> {
    return whenOnline(sync, portfolioId, async (connectionId) =>
      callApiList(bridgeApiPort(bridge, connectionId), 'listPortfolioFiles', { params: { portfolioId } }),
    );
  }

  /** Saves a file's content through the browser, or opens its address in the system's browser in Electron. */
  function download(portfolioId: string, file: Pick<PortfolioFileResponse, 'id' | 'fileName'>): Promise<ApiOutcome<DownloadOutcome>> {
    return whenOnline(sync, portfolioId, async (connectionId) => {
      const address = await signedAddress(bridgeApiPort(bridge, connectionId), 'getPortfolioFileDownload', { params: { portfolioId, fileId: file.id } });
      if (!address.ok) return address;
      await appInfo.load();
      if (appInfo.info?.host === 'electron') return openSigned(bridge, true, address.value);
      saveAddress(address.value, file.fileName ?? file.id);
      return mapOutcome(address, (): DownloadOutcome => ({ kind: 'browser' }));
    });
  }

  /** Deletes a file and its content. */
  function remove(portfolioId: string, fileId: string): Promise<ApiOutcome<void>> {
    return whenOnline(sync, portfolioId, async (connectionId) =>
      mapOutcome(await callApi(bridgeApiPort(bridge, connectionId), 'deletePortfolioFile', { params: { portfolioId, fileId } }), () => undefined),
    );
  }

  return { list, download, remove };
});
