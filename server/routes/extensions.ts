import type { OperationHandlers } from './operation';
import { buildOpenApiDocument } from '../../shared/api/openapi';
import { ApiError } from '../errors';
import { getModelChanges, resolveModelChanges } from '../services/model-changes';

/** The OpenAPI document, built once: it depends only on the route table. */
let openApiDocument: Record<string, unknown> | undefined;

/** Our extensions that are not tokens: the OpenAPI document, signed downloads and the model's changes after a user's edits. */
export const extensionHandlers: Pick<
  OperationHandlers,
  'getOpenApiDocument' | 'downloadBlob' | 'getBuildingFileModelChanges' | 'resolveBuildingFileModelChanges'
> = {
  getOpenApiDocument: async () => {
    openApiDocument ??= buildOpenApiDocument() as Record<string, unknown>;
    return { status: 200, value: openApiDocument };
  },
  downloadBlob: async ({ ctx, params }) => {
    const grant = ctx.signer.verify(params.token, ctx.now());
    if (grant === undefined) throw new ApiError(403, 'The download address is invalid or has expired; ask for a new one.');
    const blob = await ctx.blobs.open(grant.blobKey);
    if (blob === undefined) throw new ApiError(404, 'The file content no longer exists.');
    return { status: 200, stream: blob.stream, contentType: grant.contentType, contentLength: blob.size, fileName: grant.fileName };
  },
  getBuildingFileModelChanges: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await getModelChanges(ctx, principal, params.buildingId, params.fileId),
  }),
  resolveBuildingFileModelChanges: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await resolveModelChanges(ctx, principal, params.buildingId, params.fileId, body),
  }),
};
