/**
 * Which server addresses carry a key safely. Plain http sends the key and every answer unencrypted, which is only
 * harmless when the traffic never leaves this computer; anywhere else it needs the user's explicit confirmation and
 * is shown as insecure. What can be told from the address alone: the page cannot resolve a name, so a name other than
 * `localhost` (a `*.localhost` too, which Node resolves through DNS) asks for consent; the host, which decides,
 * resolves every name (`electron/network/this-computer.ts`).
 */

/** Whether a host is this computer by its address alone: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether an address is plain http to another computer: unencrypted on the network. */
export function isInsecureAddress(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
