import { describe, expect, it } from 'vitest';
import { isLoopbackIp, isThisComputer, plainHttpNeedsConsent, type HostLookup } from '../../../../electron/network/this-computer';

/** A resolver answering from a table, as a DNS server that maps names anywhere it likes would. */
function resolver(table: Record<string, readonly string[]>): HostLookup {
  return async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
}

const dns = resolver({
  'app.localhost': ['127.0.0.1', '::1'],
  'evil.localhost': ['203.0.113.7'],
  'half.localhost': ['127.0.0.1', '203.0.113.7'],
  localhost: ['::ffff:127.0.0.1'],
  'desk.example': ['192.0.2.10'],
});

describe('isThisComputer', () => {
  it('takes loopback addresses and names that resolve only to the loopback range', async () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '[::1]', '::1', 'app.localhost', 'APP.LOCALHOST', 'localhost']) {
      expect([host, await isThisComputer(host, dns)]).toEqual([host, true]);
    }
  });

  it('refuses a *.localhost name that resolves elsewhere, in part or not at all, and other computers', async () => {
    for (const host of ['evil.localhost', 'half.localhost', 'gone.localhost', 'desk.example', '10.0.0.1', '[::2]', '0.0.0.0']) {
      expect([host, await isThisComputer(host, dns)]).toEqual([host, false]);
    }
  });

  it('asks the system resolver by default: localhost is this computer, a name under .invalid never resolves', async () => {
    expect(await isThisComputer('localhost')).toBe(true);
    expect(await isThisComputer('nothing.invalid')).toBe(false);
  });
});

describe('plainHttpNeedsConsent', () => {
  it('asks for consent for plain http to anything but this computer, never for https', async () => {
    expect(await plainHttpNeedsConsent('http://app.localhost:8080', dns)).toBe(false);
    expect(await plainHttpNeedsConsent('http://evil.localhost:8080', dns)).toBe(true);
    expect(await plainHttpNeedsConsent('https://evil.localhost', dns)).toBe(false);
    expect(await plainHttpNeedsConsent('http://[::1]:8080', dns)).toBe(false);
  });
});

describe('isLoopbackIp', () => {
  it('knows 127.0.0.0/8, ::1 and their IPv6-mapped form only', () => {
    expect(['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1'].map(isLoopbackIp)).toEqual([true, true, true, true]);
    expect(['128.0.0.1', '::2', '::ffff:10.0.0.1', 'localhost', '127.0.0.1.nip.io'].map(isLoopbackIp)).toEqual([false, false, false, false, false]);
  });
});
