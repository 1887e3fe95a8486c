/**
 * Redirects through Electron's session fetch. The queued client asks for `redirect: 'manual'` to decide itself which
 * redirects a key may follow (`shared/api/own-redirects.ts`), but Electron's `session.fetch` answers a redirect in that
 * mode as the Fetch standard's opaque redirect: no status, no headers, no Location, so every redirect failed. A read
 * (GET, HEAD) that met one is asked again through a request that shows the redirect without following it (`locate`;
 * in Electron `net.request` with `redirect: 'manual'`, whose `redirect` event carries status and Location), and its
 * answer is rebuilt as the redirect it was, which the shared logic follows when it stays on the key's origin and
 * refuses, saying where, when it does not. A call that changes something is never sent a second time: its opaque
 * redirect is refused as one that cannot be checked.
 */

/** A redirect as the server answered it. */
export interface SeenRedirect {
  status: number;
  location: string;
}

/** Where a request is redirected, without following it; undefined when it is answered without a redirect now. */
export type RedirectLocator = (url: string, init: RequestInit) => Promise<SeenRedirect | undefined>;

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

function requestUrl(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

/** `sessionFetch` whose opaque redirects of reads are shown as the redirects they are (see above). */
export function revealingRedirects(sessionFetch: typeof fetch, locate: RedirectLocator): typeof fetch {
  return async (input, init) => {
    const answer = await sessionFetch(input, init);
    if (init?.redirect !== 'manual' || answer.type !== 'opaqueredirect') return answer;
    if (!READS.has((init.method ?? 'GET').toUpperCase())) return answer;
    const seen = await locate(requestUrl(input), init);
    // Not redirected when asked again: the answer of a second ask is not this call's, so the first one stands.
    if (seen === undefined) return answer;
    return new Response(null, { status: seen.status, headers: { location: seen.location } });
  };
}
