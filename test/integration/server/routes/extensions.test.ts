import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../harness';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
});

describe('extensions', () => {
  it('serves the committed OpenAPI document without a key', async () => {
    const response = await test.request({ method: 'GET', url: '/api/v2.3/openapi.json', key: null });
    expect(response.statusCode).toBe(200);
    const committed = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../../../shared/api/openapi.json'), 'utf8')) as unknown;
    expect(response.json()).toEqual(committed);
  });

  it('answers unknown routes with a problem', async () => {
    const response = await test.request({ method: 'GET', url: '/api/v2.3/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});
