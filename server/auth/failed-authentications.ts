/**
 * Failed authentications per client: a client whose requests carried no key or an unknown or expired one more than
 * `max` times within a window is refused, whatever key it sends, until that window ends. The check comes before the
 * key lookup, so a client guessing keys gets at most `max` guesses a window. Counted per API process.
 */
import { isIPv6 } from 'node:net';

/** The limit: at most `max` failures within `windowMs`. */
export interface FailedAuthenticationLimit {
  max: number;
  windowMs: number;
}

/** A client's failures in its current window. */
interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Windows kept at most, so a flood from ever new addresses cannot grow memory without bound. Past it, windows that
 * ended are dropped, then the oldest: such a client may then guess again, a cost paid only under a flood that wide.
 */
const MAX_CLIENTS = 100_000;

/**
 * The client an address counts as: an IPv4 address itself, an IPv6 address by its /64 prefix, since one host
 * commonly holds a whole /64 and could otherwise take a fresh address for every guess.
 */
export function clientOf(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...headGroups, ...new Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The failed authentications of every client, in one API process. */
export class FailedAuthentications {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limit: FailedAuthenticationLimit) {}

  /** Seconds until the client may try again, or undefined when it may try now. */
  retryAfterSeconds(address: string, now: number): number | undefined {
    const window = this.currentWindow(clientOf(address), now);
    if (window === undefined || window.failures < this.limit.max) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.limit.windowMs - now) / 1000));
  }

  /** Counts a request of the client that carried no key, or one that is unknown or expired. */
  recordFailure(address: string, now: number): void {
    const client = clientOf(address);
    const window = this.currentWindow(client, now);
    if (window !== undefined) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= MAX_CLIENTS) this.makeRoom(now);
    this.windows.set(client, { startedAt: now, failures: 1 });
  }

  private currentWindow(client: string, now: number): Window | undefined {
    const window = this.windows.get(client);
    if (window === undefined) return undefined;
    if (now - window.startedAt < this.limit.windowMs) return window;
    this.windows.delete(client);
    return undefined;
  }

  /** Drops the windows that ended; when none had, the oldest one (a Map keeps insertion order). */
  private makeRoom(now: number): void {
    for (const [client, window] of this.windows) {
      if (now - window.startedAt >= this.limit.windowMs) this.windows.delete(client);
    }
    if (this.windows.size < MAX_CLIENTS) return;
    const oldest = this.windows.keys().next();
    if (oldest.done !== true) this.windows.delete(oldest.value);
  }
}
