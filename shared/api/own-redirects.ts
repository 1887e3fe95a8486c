/**
 * Redirects of calls that carry the API key. fetch follows a redirect to any address and, of the credentials, drops
 * only Authorization and cookies: the `X-API-Key` header would go along to whatever origin a server names. Calls
 * therefore see redirects themselves and follow only those that stay on the origin the key belongs to (which also
 * rules out https to http, since the scheme is part of the origin).
 */

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** Why a redirect was not followed, in words for the user. */
export interface RedirectRefusal {
  refused: string;
}

/**
 * Sends a request and follows the redirects that stay on its origin. A body streamed from disk goes out with
 * `redirect: 'error'`: for it fetch keeps no copy (with any other mode it tees the stream, and the copy it never reads
 * grows by every byte sent), and it could not be sent twice anyway.
 */
export async function fetchFollowingOwnRedirects(
  fetchFunction: typeof fetch,
  url: string,
  init: RequestInit,
): Promise<Response | RedirectRefusal> {
  if (init.body instanceof ReadableStream) return fetchFunction(url, { ...init, redirect: 'error' });
  let address = new URL(url);
  let request: RequestInit = { ...init, redirect: 'manual' };
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetchFunction(address.href, request);
    // A fetch that keeps a redirect's answer from its caller (the Fetch standard's opaque redirect) says neither where
    // nor how: such a redirect cannot be checked, so it is not followed.
    if (response.type === 'opaqueredirect') {
      return { refused: 'The server redirected this call, and the app cannot tell where to: it does not follow it, so that the key is never sent elsewhere.' };
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    let target: URL;
    try {
      target = new URL(location, address);
    } catch {
      return { refused: 'The server redirected this call to an address that is not valid.' };
    }
    if (target.origin !== address.origin) {
      return {
        refused:
          `The server redirected this call to another address (${target.origin}). ` +
          'The app does not follow it, so that the key of this server is never sent there.',
      };
    }
    if (redirects + 1 > MAX_REDIRECTS) return { refused: 'The server redirected this call too many times.' };
    const method = (request.method ?? 'GET').toUpperCase();
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method !== 'GET' && method !== 'HEAD')) {
      const headers = new Headers(request.headers);
      headers.delete('content-type');
      request = { ...request, method: method === 'HEAD' ? 'HEAD' : 'GET', headers, body: null };
    }
    address = target;
  }
}
