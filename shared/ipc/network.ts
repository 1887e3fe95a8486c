/** The proxy the app goes through, and testing it. */
import { Type, type Static } from 'typebox';
import { ProxyChoice } from '../network';
import { channel, NoInput } from './channel';
import { ConnectionRef, ConnectionTestResult } from './connections';

/** What a proxy test found: the proxy Chromium picked for a connection's address, and how its server answered through it. */
export const ProxyTestResult = Type.Object(
  {
    /** Chromium's answer for the address: `DIRECT`, or e.g. `PROXY proxy.example.com:8080`. */
    proxy: Type.String(),
    server: ConnectionTestResult,
  },
  { additionalProperties: false },
);
/** What a proxy test found. */
export type ProxyTestResult = Static<typeof ProxyTestResult>;

/** The `network:` channels. */
export const networkChannels = {
  'network:proxy': channel(NoInput, ProxyChoice),
  'network:set-proxy': channel(ProxyChoice, ProxyChoice),
  'network:test-proxy': channel(ConnectionRef, ProxyTestResult),
} as const;
