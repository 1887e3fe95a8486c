/**
 * The API versions a server may speak and the path prefix of each. Kept apart from the route table so that the IPC
 * contract, which the preload bundles, can name the versions without taking the whole table with it.
 */

/** Every API version, the current one first. */
export const API_VERSIONS = ['v2.3', 'v2.1'] as const;
/** An API version. */
export type ApiVersion = (typeof API_VERSIONS)[number];
/** Path prefix of each API version; route paths are relative to it. */
export const API_PREFIXES = { 'v2.3': '/api/v2.3', 'v2.1': '/api/v2.1' } as const satisfies { [V in ApiVersion]: `/api/${V}` };
