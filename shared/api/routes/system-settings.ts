/** The routes of the tag SystemSettings: the fixed lists of the platform. */
import { Type } from 'typebox';
import { ClassificationMethod } from '../schemas';
import type { RouteDefinition } from './definition';
import { json, keyErrors, problems } from './kit';

export const systemSettingsRoutes = [
  {
    operationId: 'listClassificationMethods',
    method: 'GET',
    path: '/system/classificationmethods',
    tag: 'SystemSettings',
    summary: 'Gets the available classification methods.',
    auth: 'apiKey',
    access: { level: 'read', scope: { kind: 'account' } },
    responses: { 200: json(Type.Array(ClassificationMethod), 'The classification methods.'), ...problems(...keyErrors) },
  },
] as const satisfies readonly RouteDefinition[];
