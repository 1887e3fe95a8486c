/**
 * The Content Security Policy of the renderer, the same in the Electron window and in browser mode: only our own
 * scripts, no eval, no plugins, no framing, and no network but our own origin (the renderer reaches servers only
 * through the Bridge). Inline styles are allowed because naive-ui injects its styles at run time.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
