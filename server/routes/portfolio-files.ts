import type { OperationHandlers } from './operation';
import {
  createPortfolioFile,
  deletePortfolioFile,
  getPortfolioFileRow,
  listPortfolioFiles,
  portfolioFileDownload,
  toPortfolioFileResponse,
  toPortfolioFileStatus,
  uploadPortfolioFile,
} from '../services/portfolio-files';

/** Portfolio files: CRUD, status, download and the one upload of an information file. */
export const portfolioFileHandlers: Pick<
  OperationHandlers,
  | 'listPortfolioFiles'
  | 'createPortfolioFile'
  | 'getPortfolioFile'
  | 'deletePortfolioFile'
  | 'getPortfolioFileStatus'
  | 'getPortfolioFileDownload'
  | 'uploadPortfolioFile'
> = {
  listPortfolioFiles: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listPortfolioFiles(ctx, principal, params.portfolioId),
  }),
  createPortfolioFile: async ({ ctx, principal, params, body, prefix }) => {
    const file = await createPortfolioFile(ctx, principal, params.portfolioId, body);
    return { status: 201, value: file, location: `${prefix}/portfolios/${params.portfolioId}/files/${file.id}` };
  },
  getPortfolioFile: async ({ ctx, principal, params }) => ({
    status: 200,
    value: toPortfolioFileResponse(await getPortfolioFileRow(ctx, principal, params.portfolioId, params.fileId)),
  }),
  deletePortfolioFile: async ({ ctx, principal, params }) => {
    await deletePortfolioFile(ctx, principal, params.portfolioId, params.fileId);
    return { status: 204, value: undefined };
  },
  getPortfolioFileStatus: async ({ ctx, principal, params }) => ({
    status: 200,
    value: toPortfolioFileStatus(await getPortfolioFileRow(ctx, principal, params.portfolioId, params.fileId)),
  }),
  getPortfolioFileDownload: async ({ ctx, principal, params, baseUrl }) => ({
    status: 200,
    value: await portfolioFileDownload(ctx, principal, params.portfolioId, params.fileId, baseUrl),
  }),
  uploadPortfolioFile: async ({ ctx, principal, params, body, contentType }) => {
    // Any content type is stored as sent; without one the content is plain bytes (decisions §3).
    await uploadPortfolioFile(
      ctx,
      principal,
      params.portfolioId,
      params.fileId,
      params.fileName,
      body,
      contentType || 'application/octet-stream',
    );
    return { status: 204, value: undefined };
  },
};
