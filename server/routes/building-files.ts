import type { OperationHandlers } from './operation';
import {
  buildingFileDownload,
  createBuildingFile,
  deleteBuildingFile,
  getBuildingFileRow,
  getBuildingFileSettings,
  listBuildingFiles,
  replaceBuildingFileSettings,
  setBuildingFileActive,
  setBuildingFileImporting,
  startBuildingFileRefinement,
  toBuildingFileResponse,
  toBuildingFileStatus,
  uploadBuildingFile,
} from '../services/building-files';
import { getBuildingFileImportReport } from '../services/import-report';

/** Building files: CRUD, status, import report, download, activation and the importing / refinement / upload workflow. */
export const buildingFileHandlers: Pick<
  OperationHandlers,
  | 'listBuildingFiles'
  | 'createBuildingFile'
  | 'getBuildingFile'
  | 'deleteBuildingFile'
  | 'getBuildingFileStatus'
  | 'getBuildingFileImportReport'
  | 'getBuildingFileSettings'
  | 'replaceBuildingFileSettings'
  | 'getBuildingFileDownload'
  | 'setBuildingFileActive'
  | 'setBuildingFileImporting'
  | 'startBuildingFileRefinement'
  | 'uploadBuildingFile'
> = {
  listBuildingFiles: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await listBuildingFiles(ctx, principal, params.buildingId),
  }),
  createBuildingFile: async ({ ctx, principal, params, body, prefix }) => {
    const file = await createBuildingFile(ctx, principal, params.buildingId, body ?? {});
    return { status: 201, value: file, location: `${prefix}/buildings/${params.buildingId}/files/${file.id}` };
  },
  getBuildingFile: async ({ ctx, principal, params }) => ({
    status: 200,
    value: toBuildingFileResponse(await getBuildingFileRow(ctx, principal, params.buildingId, params.fileId)),
  }),
  deleteBuildingFile: async ({ ctx, principal, params }) => {
    await deleteBuildingFile(ctx, principal, params.buildingId, params.fileId);
    return { status: 204, value: undefined };
  },
  getBuildingFileStatus: async ({ ctx, principal, params }) => ({
    status: 200,
    value: toBuildingFileStatus(await getBuildingFileRow(ctx, principal, params.buildingId, params.fileId)),
  }),
  getBuildingFileImportReport: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await getBuildingFileImportReport(ctx, principal, params.buildingId, params.fileId),
  }),
  getBuildingFileSettings: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await getBuildingFileSettings(ctx, principal, params.buildingId, params.fileId),
  }),
  replaceBuildingFileSettings: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceBuildingFileSettings(ctx, principal, params.buildingId, params.fileId, body),
  }),
  getBuildingFileDownload: async ({ ctx, principal, params, baseUrl }) => ({
    status: 200,
    value: await buildingFileDownload(ctx, principal, params.buildingId, params.fileId, baseUrl),
  }),
  setBuildingFileActive: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await setBuildingFileActive(ctx, principal, params.buildingId, params.fileId, body),
  }),
  setBuildingFileImporting: async ({ ctx, principal, params }) => {
    await setBuildingFileImporting(ctx, principal, params.buildingId, params.fileId);
    return { status: 204, value: undefined };
  },
  startBuildingFileRefinement: async ({ ctx, principal, params, prefix }) => {
    await startBuildingFileRefinement(ctx, principal, params.buildingId, params.fileId);
    return { status: 202, value: undefined, location: `${prefix}/buildings/${params.buildingId}/files/${params.fileId}/status` };
  },
  uploadBuildingFile: async ({ ctx, principal, params, body, contentType, prefix }) => {
    const outcome = await uploadBuildingFile(
      ctx,
      principal,
      params.buildingId,
      params.fileId,
      params.fileName,
      body,
      contentType || 'application/octet-stream',
    );
    const location = `${prefix}/buildings/${params.buildingId}/files/${params.fileId}/status`;
    return outcome === 'scheduled' ? { status: 201, value: undefined, location } : { status: 202, value: undefined, location };
  },
};
