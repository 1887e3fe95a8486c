/** The routes of the tag PortfolioFile: a portfolio's files and their upload. */
import { Type } from 'typebox';
import {
  FileDownloadResponse,
  PortfolioFileRequest,
  PortfolioFileResponse,
  PortfolioFileStatusResponse,
} from '../schemas';
import type { RouteDefinition } from './definition';
import { binaryBody, empty, json, jsonBody, problems, resourceBodyErrors, resourceErrors } from './kit';
import { IdempotentHeaders, PortfolioFileParams, PortfolioFileUploadParams, PortfolioIdParams } from './parameters';

export const portfolioFileRoutes = [
  {
    operationId: 'listPortfolioFiles',
    method: 'GET',
    path: '/portfolios/:portfolioId/files',
    tag: 'PortfolioFile',
    summary: 'Gets all portfolio files for a portfolio.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio', portfolio: 'portfolioId' } },
    params: PortfolioIdParams,
    responses: { 200: json(Type.Array(PortfolioFileResponse), 'All files of the portfolio.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'createPortfolioFile',
    method: 'POST',
    path: '/portfolios/:portfolioId/files',
    tag: 'PortfolioFile',
    summary: 'Adds a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio', portfolio: 'portfolioId' } },
    params: PortfolioIdParams,
    headers: IdempotentHeaders,
    body: jsonBody(PortfolioFileRequest, 'The portfolio file.'),
    responses: {
      201: json(PortfolioFileResponse, 'The file was created, status Creating; Location gives its address.', {
        location: true,
      }),
      ...problems(...resourceBodyErrors),
    },
  },
  {
    operationId: 'getPortfolioFile',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId',
    tag: 'PortfolioFile',
    summary: 'Gets a portfolio file by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 200: json(PortfolioFileResponse, 'The portfolio file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'deletePortfolioFile',
    method: 'DELETE',
    path: '/portfolios/:portfolioId/files/:fileId',
    tag: 'PortfolioFile',
    summary: 'Deletes a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 204: empty('The file and its content were deleted.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'getPortfolioFileStatus',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId/status',
    tag: 'PortfolioFile',
    summary: 'Gets a portfolio file status by its identifier.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: { 200: json(PortfolioFileStatusResponse, 'The progress of the file.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'uploadPortfolioFile',
    method: 'POST',
    path: '/portfolios/:portfolioId/files/:fileId/upload/:fileName',
    tag: 'PortfolioFile',
    summary: 'Uploads a portfolio file.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileUploadParams,
    body: binaryBody(['*/*'], 'The file content, in any content type (stored as sent; application/octet-stream when absent).'),
    responses: {
      204: empty('The file was uploaded.'),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'getPortfolioFileDownload',
    method: 'GET',
    path: '/portfolios/:portfolioId/files/:fileId/download',
    tag: 'PortfolioFile',
    summary: 'Gets a download url for the portfolio file.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'portfolio-file', portfolio: 'portfolioId', file: 'fileId' } },
    params: PortfolioFileParams,
    responses: {
      200: json(FileDownloadResponse, 'A signed, expiring address of the content.'),
      ...problems(...resourceErrors, 409),
    },
  },
] as const satisfies readonly RouteDefinition[];
