/**
 * The proxy the desktop app reaches servers through, as the user chose it in Settings. Electron only; in browser mode
 * the proxy comes from the environment the host was started in.
 */
import { Type, type Static } from 'typebox';

/**
 * `system`: the operating system's proxy settings, PAC included; `none`: every server directly; `manual`: one proxy
 * (`http://`, `https://`, `socks4://` or `socks5://` with host and port, never a user or password) for every address
 * except those in `bypass` (comma-separated hosts, `*.example.com`, `10.0.0.0/8`, `<local>`).
 */
export const ProxyChoice = Type.Union([
  Type.Object({ mode: Type.Literal('system') }, { additionalProperties: false }),
  Type.Object({ mode: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object(
    { mode: Type.Literal('manual'), proxyUrl: Type.String({ minLength: 1, maxLength: 2000 }), bypass: Type.String({ maxLength: 4000 }) },
    { additionalProperties: false },
  ),
]);
/** The proxy the user chose. */
export type ProxyChoice = Static<typeof ProxyChoice>;
