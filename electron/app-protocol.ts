/**
 * The `app://renderer/` protocol the desktop window loads the built renderer from (never `file://`, which would give
 * the page the whole disk as its origin). Every answer carries the Content Security Policy; a request can only reach
 * files inside the renderer folder, however its path is spelled or encoded.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';

/** The scheme main.ts registers as privileged (standard, secure). */
export const APP_SCHEME = 'app';
/** The one host of the scheme. */
export const APP_HOST = 'renderer';
/** The renderer's origin. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window opens. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Headers of every answer, files and errors alike. */
export const APP_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Whether an address has this scheme-and-host origin (and no credentials). Compared by scheme and host, not
 * `URL.origin`: Node's URL knows no `app:` scheme and answers `"null"` for its origin.
 */
export function hasOrigin(url: string, origin: string): boolean {
  let parsed: URL;
  let expected: URL;
  try {
    parsed = new URL(url);
    expected = new URL(origin);
  } catch {
    return false;
  }
  return (
    parsed.protocol === expected.protocol && parsed.host === expected.host && parsed.username === '' && parsed.password === ''
  );
}

/** Whether an address belongs to the renderer's origin, `app://renderer`. */
export function isAppUrl(url: string): boolean {
  return hasOrigin(url, APP_ORIGIN);
}

/** The content type served for a file name; unknown kinds are served as bytes the page cannot run. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function answer(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { ...APP_RESPONSE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra },
  });
}

/**
 * The file under `rootDir` a URL path names, or undefined when the path is malformed, has a `..` segment or leaves the
 * folder. The path is decoded before it is checked, so `%2e%2e%2f` and `..%5c` are caught like `../`.
 */
export function resolveAppPath(rootDir: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  // Backslashes separate folders on Windows; treating them as `/` everywhere keeps the check the same on every OS.
  const segments = decoded.replaceAll('\\', '/').split('/');
  // The browser resolves `..` in the address itself, so one that arrives here was encoded to get past that.
  if (segments.includes('..')) return undefined;
  const relative = path.posix.normalize(`/${segments.join('/')}`).replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative === '' ? 'index.html' : relative);
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The file of the built renderer a URL path asks for, or undefined when there is none. A path without an extension
 * that names no file is a route of the single-page app and gets `index.html`. Used by the app protocol and browser mode.
 */
export async function rendererFileFor(rootDir: string, urlPath: string): Promise<string | undefined> {
  const file = resolveAppPath(rootDir, urlPath);
  if (file === undefined) return undefined;
  if (await isFile(file)) return file;
  if (path.extname(file) !== '') return undefined;
  const index = path.join(path.resolve(rootDir), 'index.html');
  return (await isFile(index)) ? index : undefined;
}

/**
 * The handler `protocol.handle('app', …)` is given: GET and HEAD of files under `rootDir` (the built renderer). A path
 * without an extension that names no file is a route of the single-page app and gets `index.html`.
 */
export function createAppProtocolHandler(rootDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!isAppUrl(request.url)) return answer(404, 'Not found.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed.', { Allow: 'GET, HEAD' });
    const file = await rendererFileFor(rootDir, new URL(request.url).pathname);
    if (file === undefined) return answer(404, 'Not found.');
    const body = request.method === 'HEAD' ? null : await readFile(file);
    return new Response(body, {
      status: 200,
      headers: { ...APP_RESPONSE_HEADERS, 'Content-Type': contentTypeOf(file), 'Cache-Control': 'no-cache' },
    });
  };
}
