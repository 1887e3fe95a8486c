/**
 * Building images and portfolio logos are checked by their bytes as they arrive: PNG or JPEG only, and no more pixels
 * than the server's limit (40 megapixels) by the header, so a small file that declares a huge image is refused with a
 * 400 saying so, and nothing of it is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largePng, tinyJpeg, tinyPng } from '../../../fixtures/images';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

let test: TestServer;
let portfolioId: string;
let buildingId: string;
beforeAll(async () => {
  test = await startTestServer();
  ({ portfolioId, buildingId } = await createPortfolioWithBuilding(test));
});
afterAll(async () => {
  await test.close();
});

const api = '/api/v2.3';

function upload(url: string, bytes: Uint8Array, contentType = 'image/png') {
  return test.request({ method: 'POST', url, headers: { 'content-type': contentType }, payload: Buffer.from(bytes) });
}

const image = (name: string, bytes: Uint8Array, contentType?: string) => upload(`${api}/buildings/${buildingId}/images/${name}`, bytes, contentType);
const logo = (name: string, bytes: Uint8Array, contentType?: string) => upload(`${api}/portfolios/${portfolioId}/logo/${name}`, bytes, contentType);

async function buildingImages(): Promise<string[]> {
  return (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}` })).json<{ images: string[] }>().images;
}

async function portfolioLogo(): Promise<string | null> {
  return (await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}` })).json<{ logo: string | null }>().logo;
}

describe('image and logo uploads', () => {
  it('refuses a PNG bomb of 10,000 × 10,000 pixels with a 400 that says so, as an image and as a logo', async () => {
    const bomb = await largePng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(400_000);
    for (const refused of [await image('bomb.png', bomb), await logo('bomb.png', bomb)]) {
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      const problem = refused.json<{ detail: string; errors: { path: string }[] }>();
      expect(problem.detail).toMatch(/is 10000 × 10000 pixels \(100 megapixels\); at most 40 megapixels are accepted/);
      expect(problem.errors[0]?.path).toBe('body');
    }
    expect(await buildingImages()).not.toContain('bomb.png');
    expect(await portfolioLogo()).toBeNull();
  });

  it('refuses a JPEG whose frame header declares more than the limit', async () => {
    const refused = await image('huge.jpg', tinyJpeg({ width: 8000, height: 6000 }), 'image/jpeg');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toMatch(/is 8000 × 6000 pixels \(48 megapixels\)/);
    expect(await buildingImages()).not.toContain('huge.jpg');
  });

  it('takes an image up to the limit, and keeps an earlier logo when a later one is refused', async () => {
    expect((await image('large.png', await largePng(8000, 5000))).statusCode).toBe(200);
    expect(await buildingImages()).toContain('large.png');
    expect((await logo('logo.png', tinyPng(40, 20))).statusCode).toBe(200);
    expect((await logo('next.png', await largePng(8000, 5001))).statusCode).toBe(400);
    expect(await portfolioLogo()).toBe('logo.png');
  });

  it('knows the format by the bytes, not by the content type or the name', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x00\x00\x00\x00\x00,', 'latin1');
    const refused = await image('photo.png', gif);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toBe('The image is neither a PNG nor a JPEG image; PNG and JPEG images are accepted.');
    const empty = await logo('empty.png', new Uint8Array());
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ detail: string }>().detail).toMatch(/^The logo is empty/);
    expect((await image('scan.png', tinyJpeg(), 'image/png')).statusCode).toBe(200);
  });
});
