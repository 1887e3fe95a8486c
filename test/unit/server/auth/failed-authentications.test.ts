import { describe, expect, it } from 'vitest';
import { clientOf, FailedAuthentications } from '../../../../server/auth/failed-authentications';

describe('clientOf', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'],
    ['2001:DB8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1:2:3:4', 'fe80:0:0:0::/64'],
  ])('counts %s as %s', (address, client) => {
    expect(clientOf(address)).toBe(client);
  });
});

describe('FailedAuthentications', () => {
  const limit = { max: 3, windowMs: 60_000 };

  it('refuses a client after its failures until its window ends, saying how long in whole seconds', () => {
    const failures = new FailedAuthentications(limit);
    for (let index = 0; index < 3; index++) {
      expect(failures.retryAfterSeconds('192.0.2.1', 1_000 + index)).toBeUndefined();
      failures.recordFailure('192.0.2.1', 1_000 + index);
    }
    expect(failures.retryAfterSeconds('192.0.2.1', 1_500)).toBe(60);
    expect(failures.retryAfterSeconds('192.0.2.1', 60_500)).toBe(1);
    expect(failures.retryAfterSeconds('192.0.2.2', 1_500)).toBeUndefined();
    expect(failures.retryAfterSeconds('192.0.2.1', 61_000)).toBeUndefined();
  });
});
