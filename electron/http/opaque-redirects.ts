/**
 * Redirects through Electron's session fetch. The queued client asks for `redirect: 'manual'` to decide itself which
 * redirects a key may follow (`shared/api/own-redirects.ts`), but Electron's `session.fetch` keeps a redirect in that
 * mode to itself: it answers the Fetch standard's opaque redirect (no status, no headers, no Location), or, as its
 * `net` module does when a redirect is not followed, fails with "Redirect was cancelled"; so every redirect failed. A
 * read (GET, HEAD) that met one is asked again through a request that shows the redirect without following it
 * (`locate`; in Electron `net.request` in `manual` mode, whose `redirect` event carries status and Location), and its
 * answer is rebuilt as the redirect it was, which the shared logic follows when it stays on the key's origin and
 * refuses, saying where, when it does not. A call that changes something is never sent a second time: it is answered
 * as an opaque redirect, which the shared logic refuses as one that cannot be checked.
 */

/** A redirect as the server answered it. */
export interface SeenRedirect {
  status: number;
  location: string;
}

/** Where a request is redirected, without following it; undefined when it is answered without a redirect now. */
export type RedirectLocator = (url: string, init: RequestInit) => Promise<SeenRedirect | undefined>;

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** How Electron's `net` ends a request whose redirect was not followed in `manual` mode. */
const CANCELLED_REDIRECT = 'Redirect was cancelled';

function requestUrl(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

/** The Fetch standard's opaque redirect: status 0, no headers, no body; Response's constructor cannot make one. */
function opaqueRedirect(): Response {
  const answer = new Response(null, { status: 204 });
  Object.defineProperties(answer, { type: { value: 'opaqueredirect' }, status: { value: 0 }, ok: { value: false }, statusText: { value: '' } });
  return answer;
}

/** The session's answer in `manual` mode, with a redirect it kept to itself told as an opaque redirect either way. */
async function manualAnswer(sessionFetch: typeof fetch, input: string | URL | Request, init: RequestInit): Promise<Response> {
  try {
    return await sessionFetch(input, init);
  } catch (error) {
    if (init.signal?.aborted !== true && error instanceof Error && error.message.includes(CANCELLED_REDIRECT)) return opaqueRedirect();
    throw error;
  }
}

/** `sessionFetch` whose redirects in `manual` mode are shown as the redirects they are for reads (see above). */
export function revealingRedirects(sessionFetch: typeof fetch, locate: RedirectLocator): typeof fetch {
  return async (input, init) => {
    if (init?.redirect !== 'manual') return sessionFetch(input, init);
    const answer = await manualAnswer(sessionFetch, input, init);
    if (answer.type !== 'opaqueredirect' || !READS.has((init.method ?? 'GET').toUpperCase())) return answer;
    const seen = await locate(requestUrl(input), init);
    // Not redirected when asked again: the answer of a second ask is not this call's, so the first one stands.
    if (seen === undefined) return answer;
    return new Response(null, { status: seen.status, headers: { location: seen.location } });
  };
}
