import { describe, expect, it } from 'vitest';
import { isInsecureAddress, isLoopbackHost } from '../../../shared/connection-address';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])('%s is this computer', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  // A *.localhost name may resolve anywhere (Node asks DNS): by its address alone it is not this computer.
  it.each(['10.0.0.1', '192.168.1.5', 'desk.example', '127.0.0.1.nip.io', 'localhost.example', 'app.localhost', '::2', '0.0.0.0'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('isInsecureAddress', () => {
  it.each([
    ['http://desk.example', true],
    ['http://192.168.1.5:8080/api', true],
    ['http://127.0.0.1:8080', false],
    ['http://localhost:3000', false],
    ['http://app.localhost:3000', true],
    ['http://[::1]:8080', false],
    ['https://desk.example', false],
    ['not an address', false],
  ])('%s: %s', (address, insecure) => {
    expect(isInsecureAddress(address)).toBe(insecure);
  });
});
