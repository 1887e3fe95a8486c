/** The routes of the tag BuildingFileElement: the elements of a building file. */
import { Type } from 'typebox';
import { BuildingFileElementRequest, BuildingFileElementResponse } from '../schemas';
import type { RouteDefinition } from './definition';
import { empty, json, jsonBody, problems, resourceBodyErrors, resourceErrors } from './kit';
import { BuildingFileParams, ElementListQuery, ElementParams, IdempotentHeaders } from './parameters';

export const buildingFileElementRoutes = [
  {
    operationId: 'listElements',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/elements',
    tag: 'BuildingFileElement',
    summary: "Gets a building file's elements by its file identifier.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    querystring: ElementListQuery,
    responses: {
      200: json(Type.Array(BuildingFileElementResponse), 'The elements, in element id order unless $orderby says otherwise.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'createElement',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/elements',
    tag: 'BuildingFileElement',
    summary: 'Creates a new building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    body: jsonBody(BuildingFileElementRequest, 'The element to create.'),
    responses: {
      201: json(BuildingFileElementResponse, 'The element was created; Location gives its address.', { location: true }),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'getElement',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: "Gets a building file element by its identifier and its building file's identifier.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    responses: { 200: json(BuildingFileElementResponse, 'The element.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceElement',
    method: 'PUT',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: 'Updates an existing building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    body: jsonBody(BuildingFileElementRequest, 'The element, replacing it entirely.'),
    responses: {
      200: json(BuildingFileElementResponse, 'The element as replaced.'),
      ...problems(...resourceBodyErrors, 409),
    },
  },
  {
    operationId: 'deleteElement',
    method: 'DELETE',
    path: '/buildings/:buildingId/files/:fileId/elements/:elementId',
    tag: 'BuildingFileElement',
    summary: 'Deletes an existing building file element.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: ElementParams,
    responses: { 204: empty('The element was deleted.'), ...problems(...resourceErrors, 409) },
  },
] as const satisfies readonly RouteDefinition[];
