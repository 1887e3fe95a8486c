/**
 * The routes of the tag Extension: what this server adds to the spec (the OpenAPI document, import reports, what the model
 * changed after a user's edits, file settings, signed downloads).
 */
import { Type } from 'typebox';
import { BuildingFileImportReport, BuildingFileModelChanges, BuildingFileSettings, ModelChangeResolutions } from '../schemas';
import type { RouteDefinition } from './definition';
import { json, jsonBody, problems, resourceBodyErrors, resourceErrors } from './kit';
import { BuildingFileParams, DownloadParams, IdempotentHeaders } from './parameters';

export const extensionRoutes = [
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Extension',
    summary: 'Gets the OpenAPI 3.1 document of this API; needs no API key, so tools can read it.',
    auth: 'none',
    responses: {
      200: json(Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }), 'The OpenAPI document.'),
    },
  },
  {
    operationId: 'getBuildingFileImportReport',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/report',
    tag: 'Extension',
    summary:
      "Gets a building file's import report: which elements count in the circularity index, where their material, " +
      'quantities and building layer came from, and why the others do not count.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: {
      200: json(BuildingFileImportReport, 'The report; for a file that is not Mapped yet, of the elements it holds so far.'),
      ...problems(...resourceErrors),
    },
  },
  {
    operationId: 'getBuildingFileModelChanges',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/modelchanges',
    tag: 'Extension',
    summary:
      "Lists every element field a new version of the file's source changed after a user set it, with the user's value " +
      "(which the element keeps) and the model's, and the edited elements the last new version no longer has.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 200: json(BuildingFileModelChanges, 'The changes, unresolved.'), ...problems(...resourceErrors) },
  },
  {
    operationId: 'resolveBuildingFileModelChanges',
    method: 'POST',
    path: '/buildings/:buildingId/files/:fileId/modelchanges',
    tag: 'Extension',
    summary:
      "Resolves changes of the model in one step: keep mine (the user's value stays, the change is cleared) or take the " +
      "model's (the field takes the model's value and follows the model again; the element is refined again and the " +
      "file's and building's figures follow). All or nothing: an entry that names no unresolved change is 400. The file " +
      'must be Mapped (else 409).',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    headers: IdempotentHeaders,
    body: jsonBody(ModelChangeResolutions, 'The changes to resolve, each named by element id and field.'),
    responses: { 200: json(BuildingFileModelChanges, 'The changes still unresolved.'), ...problems(...resourceBodyErrors, 409) },
  },
  {
    operationId: 'getBuildingFileSettings',
    method: 'GET',
    path: '/buildings/:buildingId/files/:fileId/settings',
    tag: 'Extension',
    summary: "Gets a building file's tags and the databases its materials are matched against first.",
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    responses: { 200: json(BuildingFileSettings, "The file's settings."), ...problems(...resourceErrors) },
  },
  {
    operationId: 'replaceBuildingFileSettings',
    method: 'PUT',
    path: '/buildings/:buildingId/files/:fileId/settings',
    tag: 'Extension',
    summary:
      "Replaces a building file's tags and the databases its materials are matched against first; refine the file again " +
      '(setimporting, startrefinement) for a new choice of databases to take effect.',
    auth: 'apiKey',
    access: { level: 'write', scope: { kind: 'building-file', building: 'buildingId', file: 'fileId' } },
    params: BuildingFileParams,
    body: jsonBody(BuildingFileSettings, 'The settings, replacing them entirely.'),
    responses: { 200: json(BuildingFileSettings, 'The settings as stored.'), ...problems(...resourceBodyErrors) },
  },
  {
    operationId: 'downloadBlob',
    method: 'GET',
    path: '/downloads/:token',
    tag: 'Extension',
    summary: 'Downloads file content through a signed address from a /download answer; needs no API key.',
    auth: 'none',
    params: DownloadParams,
    responses: {
      200: { kind: 'binary', description: 'The file content, in the content type it was stored with.' },
      403: { kind: 'problem', description: 'The address expired or its signature is invalid.' },
      404: { kind: 'problem', description: 'The content no longer exists.' },
    },
  },
] as const satisfies readonly RouteDefinition[];
