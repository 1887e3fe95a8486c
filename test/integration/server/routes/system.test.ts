import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassificationMethod, NL_SFB_CLASSIFICATION_METHOD_ID } from '../../../../shared/api';
import { Level } from '../../../../server/auth/principal';
import { startTestServer, type TestServer } from '../harness';

let test: TestServer;

beforeAll(async () => {
  test = await startTestServer();
});

afterAll(async () => {
  await test.close();
});

describe('GET /system/classificationmethods', () => {
  it('lists NL-SfB, the classificationType buildings take, with a name in six languages', async () => {
    const response = await test.request({ method: 'GET', url: '/api/v2.3/system/classificationmethods' });
    expect(response.statusCode).toBe(200);
    const methods = response.json<ClassificationMethod[]>();
    expect(Value.Check(Type.Array(ClassificationMethod), methods)).toBe(true);
    const nlSfb = methods.find((method) => method.id === NL_SFB_CLASSIFICATION_METHOD_ID);
    expect(Object.keys(nlSfb?.name ?? {}).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'nl']);
  });

  it('answers the same to a Read key of any scope and under v2.1', async () => {
    const expected = (await test.request({ method: 'GET', url: '/api/v2.3/system/classificationmethods' })).json();
    // System data is bound to no entity: the building need not exist for its key to read it.
    const buildingKey = await test.key('building', randomUUID(), Level.Read);
    for (const url of ['/api/v2.3/system/classificationmethods', '/api/v2.1/system/classificationmethods']) {
      const response = await test.request({ method: 'GET', url, key: buildingKey });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(expected);
    }
  });

  it('answers 401 without a key or with an unknown key', async () => {
    for (const key of [null, 'not-a-key']) {
      const response = await test.request({ method: 'GET', url: '/api/v2.3/system/classificationmethods', key });
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
