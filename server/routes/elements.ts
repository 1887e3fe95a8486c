import type { OperationHandlers } from './operation';
import type { ApiVersion } from '../../shared/api/routes';
import { createElement, deleteElement, getElement, replaceElement, type VersionedElementRequest } from '../services/elements';
import { streamElements } from '../services/element-list';

/** Tags a body with its version; the route table validated it against that version's schema. */
function versioned(version: ApiVersion, body: VersionedElementRequest['request']): VersionedElementRequest {
  // The body type is the union of both versions' schemas; Fastify validated it against this version's.
  return { version, request: body } as VersionedElementRequest;
}

/** Elements of a building file: the OData list and single-element CRUD (changes only while Importing). */
export const elementHandlers: Pick<OperationHandlers, 'listElements' | 'createElement' | 'getElement' | 'replaceElement' | 'deleteElement'> = {
  listElements: async ({ ctx, principal, params, query }) => ({
    status: 200,
    stream: await streamElements(ctx, principal, params.buildingId, params.fileId, query),
    contentType: 'application/json; charset=utf-8',
  }),
  createElement: async ({ ctx, principal, params, body, version, prefix }) => {
    const element = await createElement(ctx, principal, params.buildingId, params.fileId, versioned(version, body));
    return {
      status: 201,
      value: element,
      location: `${prefix}/buildings/${params.buildingId}/files/${params.fileId}/elements/${encodeURIComponent(element.id)}`,
    };
  },
  getElement: async ({ ctx, principal, params }) => ({
    status: 200,
    value: await getElement(ctx, principal, params.buildingId, params.fileId, params.elementId),
  }),
  replaceElement: async ({ ctx, principal, params, body, version }) => ({
    status: 200,
    value: await replaceElement(ctx, principal, params.buildingId, params.fileId, params.elementId, versioned(version, body)),
  }),
  deleteElement: async ({ ctx, principal, params }) => {
    await deleteElement(ctx, principal, params.buildingId, params.fileId, params.elementId);
    return { status: 204, value: undefined };
  },
};
