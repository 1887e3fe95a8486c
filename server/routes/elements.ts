import type { OperationHandlers } from './operation';
import { createElement, deleteElement, getElement, replaceElement } from '../services/elements';
import { streamElements } from '../services/element-list';

/** Elements of a building file: the OData list and single-element CRUD (changes only while Importing). */
export const elementHandlers: Pick<OperationHandlers, 'listElements' | 'createElement' | 'getElement' | 'replaceElement' | 'deleteElement'> = {
  listElements: async ({ ctx, principal, params, query }) => ({
    status: 200,
    stream: await streamElements(ctx, principal, params.buildingId, params.fileId, query),
    contentType: 'application/json; charset=utf-8',
  }),
  createElement: async ({ ctx, principal, params, body, prefix }) => {
    const element = await createElement(ctx, principal, params.buildingId, params.fileId, body);
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
  replaceElement: async ({ ctx, principal, params, body }) => ({
    status: 200,
    value: await replaceElement(ctx, principal, params.buildingId, params.fileId, params.elementId, body),
  }),
  deleteElement: async ({ ctx, principal, params }) => {
    await deleteElement(ctx, principal, params.buildingId, params.fileId, params.elementId);
    return { status: 204, value: undefined };
  },
};
