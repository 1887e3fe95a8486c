/**
 * A passport with a large building image (within the upload limit) is made without holding up other requests: the
 * image is scaled down in a worker thread, so making it costs the API's event loop about what a passport without an
 * image costs, and `GET /accounts/current` keeps answering meanwhile. Measured as the event loop's busy time around
 * each passport (this process runs the server and its job worker), and, with a generous bound, as how much longer than
 * planned a round of polling took.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileStatusResponse } from '../../../../shared/api';
import { largePng } from '../../../fixtures/images';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
});
afterAll(async () => {
  await test.close();
});

/** How often the test asks while a passport is made. */
const POLL_MS = 100;

/**
 * What making one passport cost: the event loop's busy milliseconds, the longest that one round of polling (a plain
 * `GET /accounts/current`, the passport's status, a pause of POLL_MS) took beyond its pause, and the passport.
 */
interface PassportRun {
  busyMs: number;
  longestStallMs: number;
  status: BuildingFileStatusResponse;
  fileSize: number;
}

/** Requests a PDF passport and polls `GET /accounts/current` and its status until it is made. */
async function makePassport(buildingId: string): Promise<PassportRun> {
  const before = performance.eventLoopUtilization();
  const requested = await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/exportpassport` });
  expect(requested.statusCode).toBe(202);
  const statusUrl = requested.headers.location as string;
  let longestStallMs = 0;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const started = performance.now();
    expect((await test.request({ method: 'GET', url: '/api/v2.3/accounts/current' })).statusCode).toBe(200);
    const status = (await test.request({ method: 'GET', url: statusUrl })).json<BuildingFileStatusResponse>();
    if (status.status === 1 || status.status === 0) {
      const busyMs = performance.eventLoopUtilization(before).active;
      const file = await test.request({ method: 'GET', url: statusUrl.replace(/\/status$/, '') });
      return { busyMs, longestStallMs, status, fileSize: file.json<{ fileSize: number }>().fileSize };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    longestStallMs = Math.max(longestStallMs, performance.now() - started - POLL_MS);
  }
  throw new Error('The passport was not made within two minutes.');
}

describe('a passport with a large image', () => {
  it('costs the event loop about what one without an image costs, and a plain request keeps answering', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    // The first passport of a process loads fonts and modules: not part of the comparison.
    await makePassport(buildingId);
    const withoutImage = await makePassport(buildingId);
    expect(withoutImage.status.status, withoutImage.status.statusMessage ?? '').toBe(1);

    // 8,000 × 5,000 pixels of grey with alpha (40 megapixels, the most an upload may have): about 80 KB as a file.
    const photo = await largePng(8000, 5000, 4);
    const stored = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/images/front.png`,
      headers: { 'content-type': 'image/png' },
      payload: photo,
    });
    expect(stored.statusCode).toBe(200);
    const withImage = await makePassport(buildingId);
    expect(withImage.status.status, withImage.status.statusMessage ?? '').toBe(1);
    expect(withImage.status.statusMessage).not.toMatch(/left out/);
    expect(withImage.fileSize).toBeGreaterThan(withoutImage.fileSize);

    // Generous bounds: decoding the image in the event loop costs seconds of it.
    expect(withImage.busyMs - withoutImage.busyMs, `busy ${withImage.busyMs} ms with the image, ${withoutImage.busyMs} ms without`).toBeLessThan(1_000);
    // The passport's own pages and charts are drawn in the event loop: the bound is relative to a passport without the image.
    expect(withImage.longestStallMs, `a round of polling took up to ${withImage.longestStallMs} ms longer than planned`).toBeLessThan(
      Math.max(1_500, 2 * withoutImage.longestStallMs),
    );
  }, 300_000);
});
