/**
 * fetch for clients that stream uploads from disk. Node's fetch tees a request body given as a stream, to be able to
 * send it again after a redirect; the branch kept for that is never read, so it holds every byte sent whenever the
 * server reads slower than the disk (a 1 GiB upload grew the process by 1 GiB). No endpoint of the API answers an
 * upload with a redirect, so a streamed body goes out with `redirect: 'error'`, for which fetch keeps no copy.
 */

/** `fetch`, sending a streamed body without the copy kept for redirects; every other request is sent as given. */
export const streamingFetch: typeof fetch = (input, init) =>
  init?.body instanceof ReadableStream && init.redirect === undefined ? fetch(input, { ...init, redirect: 'error' }) : fetch(input, init);
