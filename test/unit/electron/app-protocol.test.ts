import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  createAppProtocolHandler,
  hasOrigin,
  isAppUrl,
  resolveAppPath,
} from '../../../electron/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/content-security-policy';

let scratch: string;
let rendererDir: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'cd-app-protocol-'));
  rendererDir = path.join(scratch, 'renderer');
  await mkdir(path.join(rendererDir, 'assets', 'fonts'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(rendererDir, 'assets', 'index-abc.css'), 'body{}');
  await writeFile(path.join(rendererDir, 'assets', 'fonts', 'inter.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  await writeFile(path.join(rendererDir, 'assets', 'data.bin'), Buffer.from([1, 2, 3]));
  await writeFile(path.join(rendererDir, 'a file.json'), '{"ok":true}');
  // A secret beside the renderer folder, with a name that starts like it: what a traversal would try to reach.
  await writeFile(path.join(scratch, 'secret.txt'), 'secret');
  await mkdir(path.join(scratch, 'renderer-evil'));
  await writeFile(path.join(scratch, 'renderer-evil', 'x.js'), 'evil');
  handle = createAppProtocolHandler(rendererDir);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function get(url: string, method = 'GET'): Promise<Response> {
  return handle(new Request(url, { method }));
}

describe('app:// URLs', () => {
  it('recognises the renderer origin by scheme and host only', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('app://renderer/assets/x.js?v=1#top')).toBe(true);
    expect(isAppUrl('app://renderer.evil/index.html')).toBe(false);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('app://user:pass@renderer/index.html')).toBe(false);
    expect(isAppUrl('https://renderer/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('compares origins that Node cannot name', () => {
    expect(new URL(APP_ENTRY_URL).origin).toBe('null');
    expect(hasOrigin('app://renderer/x', APP_ORIGIN)).toBe(true);
    expect(hasOrigin('http://127.0.0.1:8080/x', 'http://127.0.0.1:8080')).toBe(true);
    expect(hasOrigin('http://127.0.0.1:8081/x', 'http://127.0.0.1:8080')).toBe(false);
  });
});

describe('resolveAppPath', () => {
  it('maps paths inside the folder, the root to index.html', () => {
    expect(resolveAppPath(rendererDir, '/')).toBe(path.join(rendererDir, 'index.html'));
    expect(resolveAppPath(rendererDir, '/assets/index-abc.js')).toBe(path.join(rendererDir, 'assets', 'index-abc.js'));
    expect(resolveAppPath(rendererDir, '/a%20file.json')).toBe(path.join(rendererDir, 'a file.json'));
    expect(resolveAppPath(rendererDir, '/assets/./index-abc.js')).toBe(path.join(rendererDir, 'assets', 'index-abc.js'));
    expect(resolveAppPath(rendererDir, '//assets//index-abc.js')).toBe(path.join(rendererDir, 'assets', 'index-abc.js'));
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%2e%2e%5c%2e%2e%5csecret.txt',
    '/../renderer-evil/x.js',
    '/assets/../index.html',
    '/C:/Windows/win.ini',
    '/index.html%00.png',
    '/%E0%A4%A',
  ])('refuses %s', (urlPath) => {
    const resolved = resolveAppPath(rendererDir, urlPath);
    // An absolute-looking path may stay inside the folder on POSIX; it must never leave it.
    if (urlPath.startsWith('/C:')) expect(resolved === undefined || resolved.startsWith(rendererDir + path.sep)).toBe(true);
    else expect(resolved).toBeUndefined();
  });
});

describe('the app:// handler', () => {
  it('serves index.html with the content security policy', async () => {
    const response = await get(APP_ENTRY_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('<!doctype html><title>app</title>');
  });

  it.each([
    ['app://renderer/assets/index-abc.js', 'text/javascript; charset=utf-8', 'console.log(1)'],
    ['app://renderer/assets/index-abc.css', 'text/css; charset=utf-8', 'body{}'],
    ['app://renderer/a%20file.json', 'application/json; charset=utf-8', '{"ok":true}'],
  ])('serves %s as %s', async (url, type, body) => {
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(await response.text()).toBe(body);
  });

  it('serves bytes of binary and unknown kinds unchanged, unknown ones as octet-stream', async () => {
    const font = await get('app://renderer/assets/fonts/inter.woff2');
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect([...new Uint8Array(await font.arrayBuffer())]).toEqual([0x77, 0x4f, 0x46, 0x32]);
    const data = await get('app://renderer/assets/data.bin');
    expect(data.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await data.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('answers a route of the single-page app with index.html, a missing asset with 404', async () => {
    const route = await get('app://renderer/buildings/123');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>app</title>');
    const missing = await get('app://renderer/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each([
    'app://renderer/../secret.txt',
    'app://renderer/..%2fsecret.txt',
    'app://renderer/%2e%2e/secret.txt',
    'app://renderer/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://renderer/..%5csecret.txt',
    'app://renderer/%2e%2e%5csecret.txt',
    'app://renderer/..%2frenderer-evil%2fx.js',
    'app://renderer/index.html%00',
  ])('never serves a file outside the folder for %s', async (url) => {
    const response = await get(url);
    const body = await response.text();
    expect(body).not.toContain('secret');
    expect(body).not.toContain('evil');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses other hosts and schemes', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('https://renderer/index.html')).status).toBe(404);
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get(APP_ENTRY_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await head.text()).toBe('');
    const post = await get(APP_ENTRY_URL, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
