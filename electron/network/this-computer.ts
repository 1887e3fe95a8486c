/**
 * Whether a server's host is this computer, for plain http: a key sent over it stays on the machine only when every
 * address the name stands for is in the loopback range. `localhost` and `*.localhost` are no promise of that in Node,
 * which resolves them through the system's resolver and, for `*.localhost`, often through DNS: a name is taken as this
 * computer only when it resolves, and only to 127.0.0.0/8 or ::1. Anything else needs the user's consent.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Every address a host name resolves to; rejects when it resolves to none. */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

/** The system's resolver, as Node's fetch and node:http use it. */
export const systemLookup: HostLookup = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((each) => each.address);

/** Whether an IP address is in the loopback range: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
export function isLoopbackIp(address: string): boolean {
  const host = address.toLowerCase();
  if (host === '::1') return true;
  const v4 = host.startsWith('::ffff:') ? host.slice('::ffff:'.length) : host;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Whether `hostname` (a URL's, brackets and all) is this computer: a loopback address, or a name that resolves only to such. */
export async function isThisComputer(hostname: string, lookupHost: HostLookup = systemLookup): Promise<boolean> {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return isLoopbackIp(host);
  let addresses: readonly string[];
  try {
    addresses = await lookupHost(host);
  } catch {
    return false;
  }
  return addresses.length > 0 && addresses.every(isLoopbackIp);
}

/** Whether an address is plain http to anything but this computer, which needs the user's consent. */
export async function plainHttpNeedsConsent(baseUrl: string, lookupHost: HostLookup = systemLookup): Promise<boolean> {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && !(await isThisComputer(url.hostname, lookupHost));
}
